"""Q2: the custom loop: loss on the scale of Model.fit's, and a checkpoint of the final weights."""
# ruff: noqa: F821 - probe() runs in the student's namespace, where their names are defined

import numpy as np

from tfdist_instructor.grading.catalog import case, returned


def probe(inputs):
    import keras
    import tensorflow as tf

    from tfdist_edu import models

    def saved():
        fresh = models.svhn_cnn(course.image_shape, course.num_classes)
        tf.train.Checkpoint(model=fresh).restore(tf.train.latest_checkpoint("checkpoints/mirrored_ctl")).expect_partial()
        return {"saved": fresh.get_weights(), "final": mirrored_ctl[0].get_weights()}

    def run():
        model, history, seconds = mirrored_ctl
        return {"model": isinstance(model, keras.Model), "history": {k: history.get(k) for k in ("loss", "accuracy")},
                "seconds": float(seconds), "fit_loss": mirrored_fit[1]["loss"]}

    return {"run": attempt(run), "epochs": attempt(lambda: EPOCHS), "checkpoint": attempt(saved)}


@case(1, public=True)
def custom_loop_returns_model_history_seconds(inputs, out):
    run, epochs = returned(out["run"], "mirrored_ctl (model, history, seconds)"), returned(out["epochs"], "EPOCHS")
    assert run["model"], "the first item should be the Keras model"
    for key in ("loss", "accuracy"):
        assert len(run["history"][key] or []) == epochs, f"history[{key!r}] should hold {epochs} values"
    assert run["seconds"] > 0, "seconds should be the positive wall time"


@case(1, hint="scale the loss by the global batch and SUM the replicas' losses: the custom loop's loss must "
              "match Model.fit's on the same data")
def custom_loop_loss_on_the_scale_of_fit(inputs, out):
    run = returned(out["run"], "mirrored_ctl")
    assert 0.75 < run["history"]["loss"][0] / run["fit_loss"][0] < 1.33


@case(1, hint="save a checkpoint with manager.save() after every epoch, so the last one holds the final weights")
def custom_loop_checkpoint_holds_the_final_weights(inputs, out):
    got = returned(out["checkpoint"], "restoring the latest checkpoint in checkpoints/mirrored_ctl")
    for a, b in zip(got["saved"], got["final"], strict=True):
        assert np.allclose(a, b, rtol=1e-6, atol=1e-7)
