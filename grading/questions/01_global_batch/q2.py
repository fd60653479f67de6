"""Q2: make_pipelines(course, global_batch) builds the train and test pipelines."""
# ruff: noqa: F821 - probe() runs in the student's namespace, where their names are defined

import numpy as np

from tfdist_instructor.grading.catalog import case, returned


def inputs(rng):
    return {"train": int(rng.integers(60, 160)), "test": int(rng.integers(20, 80)), "batch": int(rng.integers(3, 12))}


def probe(inputs):
    import types

    import numpy as np
    import tensorflow as tf

    def split(n):  # labels 0..n-1 show the order the examples come in
        return tf.data.Dataset.from_tensor_slices((np.zeros((n, 28, 28, 1), "float32"), np.arange(n, dtype="int64")))

    def describe(pipelines):
        out = {"kind": type(pipelines).__name__, "length": len(pipelines)}
        for name, ds in zip(("train", "test"), pipelines):
            images, labels = next(iter(ds))
            out[name] = {"dataset": isinstance(ds, tf.data.Dataset), "shapes": [list(images.shape), list(labels.shape)]}
        return out

    def epochs(pipelines):
        train, test = pipelines
        return {"train": [np.concatenate([y.numpy() for _, y in train]) for _ in range(2)],
                "test": np.concatenate([y.numpy() for _, y in test]),
                "first_train_batch": int(next(iter(train))[1].shape[0])}

    fake = types.SimpleNamespace(train=split(inputs["train"]), test=split(inputs["test"]), image_shape=(28, 28, 1),
                                 num_classes=10, num_train=inputs["train"], num_test=inputs["test"])
    return {"course": attempt(lambda: describe(make_pipelines(course, 64))),
            "fake": attempt(lambda: epochs(make_pipelines(fake, inputs["batch"])))}


@case(1, public=True)
def pipelines_give_global_batches(inputs, out):
    got = returned(out["course"], "make_pipelines(course, GLOBAL_BATCH)")
    assert got["kind"] == "tuple" and got["length"] == 2, "return a tuple (train_ds, test_ds)"
    for name in ("train", "test"):
        assert got[name]["dataset"], f"{name}_ds should be a tf.data.Dataset"
        assert got[name]["shapes"] == [[64, 28, 28, 1], [64]], f"{name}_ds: first batch shapes {got[name]['shapes']}"


@case(1, hint="test_ds must keep the original order and the last short batch (no shuffle, no drop_remainder)")
def test_pipeline_keeps_order_and_every_example(inputs, out):
    got = returned(out["fake"], "make_pipelines")
    assert np.array_equal(got["test"], np.arange(inputs["test"]))


@case(1, hint="train_ds must be shuffled, in a new order every epoch, in batches of the global batch")
def train_pipeline_shuffles_every_epoch(inputs, out):
    got = returned(out["fake"], "make_pipelines")
    first, second = got["train"]
    every = np.arange(inputs["train"])
    assert np.array_equal(np.sort(first), every) and np.array_equal(np.sort(second), every)
    assert not np.array_equal(first, every) and not np.array_equal(first, second)
    assert got["first_train_batch"] == inputs["batch"]
