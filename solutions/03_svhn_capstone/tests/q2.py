from otter.test_files import test_case

OK_FORMAT = False

name = "q2"
points = 3

@test_case(points=1, hidden=False)
def test_custom_loop_returns_model_history_seconds(mirrored_ctl, EPOCHS):
    import keras
    assert isinstance(mirrored_ctl, tuple) and len(mirrored_ctl) == 3, 'train_with_custom_loop should return (model, history, seconds)'
    model, history, seconds = mirrored_ctl
    assert isinstance(model, keras.Model), 'the first item should be the Keras model'
    for key in ('loss', 'accuracy'):
        assert len(history.get(key, [])) == EPOCHS, f'history[{key!r}] should hold {EPOCHS} values, got {history.get(key)}'
    assert seconds > 0, 'seconds should be the positive wall time'

@test_case(points=1, hidden=True, 
    failure_message="scale the loss by the global batch and SUM the replicas' losses: the custom loop's loss must match Model.fit's on the same data")
def test_custom_loop_loss_on_the_scale_of_fit(mirrored_ctl, mirrored_fit):
    ratio = mirrored_ctl[1]['loss'][0] / mirrored_fit[1]['loss'][0]
    assert 0.75 < ratio < 1.33, ratio

@test_case(points=1, hidden=True, 
    failure_message="save a checkpoint with manager.save() after every epoch, so the last one holds the final weights")
def test_custom_loop_checkpoint_holds_the_final_weights(mirrored_ctl, course):
    import numpy as np
    import tensorflow as tf
    from tfdist_edu import models
    fresh = models.svhn_cnn(course.image_shape, course.num_classes)
    latest = tf.train.latest_checkpoint('checkpoints/mirrored_ctl')
    assert latest is not None
    tf.train.Checkpoint(model=fresh).restore(latest).expect_partial()
    for a, b in zip(fresh.get_weights(), mirrored_ctl[0].get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-06, atol=1e-07)

