"""Q4: evaluate_checkpoints restores both checkpoints without a strategy and evaluates them."""
# ruff: noqa: F821 - probe() runs in the student's namespace, where their names are defined

from tfdist_instructor.grading.catalog import case, returned

NAMES = ("mirrored, fit", "mirrored, custom loop")


def probe(inputs):
    import numpy as np
    import tensorflow as tf

    from tfdist_edu import models

    def reference():
        fit_model = models.svhn_cnn(course.image_shape, course.num_classes)
        fit_model.load_weights("checkpoints/mirrored_fit.weights.h5")
        ctl_model = models.svhn_cnn(course.image_shape, course.num_classes)
        tf.train.Checkpoint(model=ctl_model).restore(tf.train.latest_checkpoint("checkpoints/mirrored_ctl")).expect_partial()
        accuracies = []
        for model in (fit_model, ctl_model):
            hits = [np.argmax(model(x, training=False), axis=1) == y.numpy() for x, y in course.test.batch(512)]
            accuracies.append(float(np.mean(np.concatenate(hits))))
        return accuracies

    return {"answer": attempt(lambda: test_accuracies), "reference": attempt(reference)}


@case(0.5, public=True)
def test_accuracies_are_reported(inputs, out):
    got = returned(out["answer"], "test_accuracies")
    assert isinstance(got, dict), "evaluate_checkpoints should return a dict"
    assert set(got) == set(NAMES), f"use the keys 'mirrored, fit' and 'mirrored, custom loop', got {sorted(got)}"
    assert all(isinstance(v, float) and 0.0 <= v <= 1.0 for v in got.values()), "accuracies are floats in [0, 1]"


@case(1.5, hint="load each checkpoint into a fresh model and evaluate it on the whole of course.test")
def test_accuracies_match_the_checkpoints(inputs, out):
    got, expected = returned(out["answer"], "test_accuracies"), returned(out["reference"], "the checkpoints")
    for name, accuracy in zip(NAMES, expected, strict=True):
        assert abs(got[name] - accuracy) < 2e-3, (name, got[name], accuracy)
