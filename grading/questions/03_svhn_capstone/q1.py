"""Q1: Model.fit under a strategy: mirrored variables, and a checkpoint of the final weights."""
# ruff: noqa: F821 - probe() runs in the student's namespace, where their names are defined

import numpy as np

from tfdist_instructor.grading.catalog import case, returned


def probe(inputs):
    import keras
    import tensorflow as tf

    from tfdist_edu import models

    def run(result):
        model, history, seconds = result
        return {"model": isinstance(model, keras.Model), "epochs": len(history.get("loss", [])),
                "accuracy": "accuracy" in history, "seconds": seconds}

    def saved():
        fresh = models.svhn_cnn(course.image_shape, course.num_classes)
        fresh.load_weights("checkpoints/mirrored_fit.weights.h5")
        return {"saved": fresh.get_weights(), "final": mirrored_fit[0].get_weights()}

    return {"runs": [attempt(run, single_fit), attempt(run, mirrored_fit)], "epochs": attempt(lambda: EPOCHS),
            "mirrored": attempt(lambda: [isinstance(v.value, tf.distribute.DistributedValues)
                                         for v in mirrored_fit[0].trainable_variables]),
            "checkpoint": attempt(saved)}


@case(1, public=True)
def fit_runs_return_model_history_seconds(inputs, out):
    epochs = returned(out["epochs"], "EPOCHS")
    for name, attempted in zip(("single_fit", "mirrored_fit"), out["runs"], strict=True):
        run = returned(attempted, f"{name} (model, history, seconds)")
        assert run["model"], f"{name}: the first item should be the Keras model"
        assert run["epochs"] == epochs and run["accuracy"], f"{name}: history should be fit's .history dict"
        assert isinstance(run["seconds"], float) and run["seconds"] > 0, f"{name}: seconds should be positive"


@case(1, hint="build and compile the model inside strategy.scope(), so its variables are mirrored")
def mirrored_fit_model_has_mirrored_variables(inputs, out):
    flags = returned(out["mirrored"], "mirrored_fit's variables")
    assert flags and all(flag is True for flag in flags)


@case(1, hint="the checkpoint at checkpoint_path must hold the final weights (ModelCheckpoint with "
              "save_weights_only=True, every epoch)")
def fit_checkpoint_holds_the_final_weights(inputs, out):
    got = returned(out["checkpoint"], "loading checkpoints/mirrored_fit.weights.h5")
    for a, b in zip(got["saved"], got["final"], strict=True):
        assert np.allclose(a, b, rtol=1e-6, atol=1e-7)
