"""Q3: the training loop records one value per epoch, and the model learns."""
# ruff: noqa: F821 - probe() runs in the student's namespace, where their names are defined

from tfdist_instructor.grading.catalog import case, returned


def probe(inputs):
    return {"history": attempt(lambda: history), "epochs": attempt(lambda: EPOCHS)}


@case(1, public=True)
def history_has_one_value_per_epoch(inputs, out):
    history, epochs = returned(out["history"], "history"), returned(out["epochs"], "EPOCHS")
    assert isinstance(history, dict), "history should be a dict"
    for key in ("loss", "accuracy", "val_loss", "val_accuracy"):
        values = history.get(key, [])
        assert len(values) == epochs, f"history[{key!r}] should hold {epochs} values, one per epoch, got {values}"
        assert all(isinstance(v, float) for v in values), f"history[{key!r}] should hold Python floats"


@case(1, hint="the model should learn: loss going down, test accuracy well above chance, and the test loss on "
              "the scale of the training loss (check the loss averaging and the metric resets)")
def training_learns(inputs, out):
    history = returned(out["history"], "history")
    assert history["loss"][-1] < history["loss"][0]
    assert history["val_accuracy"][-1] > 0.2
    assert all(0.0 <= a <= 1.0 for a in history["accuracy"] + history["val_accuracy"])
    assert 0.3 < history["val_loss"][-1] / history["loss"][-1] < 3.0
