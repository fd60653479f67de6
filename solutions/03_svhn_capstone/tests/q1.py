from otter.test_files import test_case

OK_FORMAT = False

name = "q1"
points = 3

@test_case(points=1, hidden=False)
def test_fit_runs_return_model_history_seconds(single_fit, mirrored_fit, EPOCHS):
    import keras
    for name, run in (('single_fit', single_fit), ('mirrored_fit', mirrored_fit)):
        assert isinstance(run, tuple) and len(run) == 3, f'{name}: train_with_fit should return (model, history, seconds), got {type(run).__name__}'
        model, history, seconds = run
        assert isinstance(model, keras.Model), f'{name}: the first item should be the Keras model'
        assert isinstance(history, dict) and len(history.get('loss', [])) == EPOCHS, f"{name}: history should be fit's .history dict with {EPOCHS} losses"
        assert 'accuracy' in history, f"{name}: compile with metrics=['accuracy']"
        assert isinstance(seconds, float) and seconds > 0, f'{name}: seconds should be the positive wall time in seconds'

@test_case(points=1, hidden=True, 
    failure_message="build and compile the model inside strategy.scope(), so its variables are mirrored")
def test_mirrored_fit_model_has_mirrored_variables(mirrored_fit):
    import tensorflow as tf
    model = mirrored_fit[0]
    assert all((isinstance(v.value, tf.distribute.DistributedValues) for v in model.trainable_variables))

@test_case(points=1, hidden=True, 
    failure_message="the checkpoint at checkpoint_path must hold the final weights (ModelCheckpoint with save_weights_only=True, every epoch)")
def test_fit_checkpoint_holds_the_final_weights(mirrored_fit, course):
    import numpy as np
    from tfdist_edu import models
    fresh = models.svhn_cnn(course.image_shape, course.num_classes)
    fresh.load_weights('checkpoints/mirrored_fit.weights.h5')
    for a, b in zip(fresh.get_weights(), mirrored_fit[0].get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-06, atol=1e-07)

