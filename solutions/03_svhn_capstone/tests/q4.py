from otter.test_files import test_case

OK_FORMAT = False

name = "q4"
points = 2

@test_case(points=0.5, hidden=False)
def test_test_accuracies_are_reported(test_accuracies):
    assert isinstance(test_accuracies, dict), 'evaluate_checkpoints should return a dict'
    assert set(test_accuracies) == {'mirrored, fit', 'mirrored, custom loop'}, f"use the keys 'mirrored, fit' and 'mirrored, custom loop', got {sorted(test_accuracies)}"
    assert all((isinstance(v, float) and 0.0 <= v <= 1.0 for v in test_accuracies.values())), 'accuracies are floats in [0, 1]'

@test_case(points=1.5, hidden=True, 
    failure_message="load each checkpoint into a fresh model and evaluate it on the whole of course.test")
def test_test_accuracies_match_the_checkpoints(test_accuracies, course):
    import numpy as np
    import tensorflow as tf
    from tfdist_edu import models
    fit_model = models.svhn_cnn(course.image_shape, course.num_classes)
    fit_model.load_weights('checkpoints/mirrored_fit.weights.h5')
    ctl_model = models.svhn_cnn(course.image_shape, course.num_classes)
    tf.train.Checkpoint(model=ctl_model).restore(tf.train.latest_checkpoint('checkpoints/mirrored_ctl')).expect_partial()
    for name, model in (('mirrored, fit', fit_model), ('mirrored, custom loop', ctl_model)):
        hits = total = 0
        for images, labels in course.test.batch(512):
            hits += int(np.sum(np.argmax(model(images, training=False), axis=1) == labels.numpy()))
            total += int(labels.shape[0])
        assert abs(test_accuracies[name] - hits / total) < 0.002, (name, test_accuracies[name], hits / total)

