"""Q2: the train step (loss, and one plain-SGD step against one device) and the test step."""
# ruff: noqa: F821 - probe() runs in the student's namespace, where their names are defined

import numpy as np

from tfdist_instructor.grading.catalog import case, returned, sibling

reference = sibling(__file__, "reference")
LEARNING_RATE = 0.5  # plain SGD: Adam would hide a gradient N times too large


def inputs(rng):
    return {"train_seed": int(rng.integers(1 << 30)), "test_seed": int(rng.integers(1 << 30)),
            "test_size": int(128 - rng.integers(1, 40)), "learning_rate": LEARNING_RATE}


def probe(inputs):
    import keras
    import numpy as np
    import tensorflow as tf

    def batch(seed, size):
        rng = np.random.default_rng(seed)
        images = rng.uniform(0, 1, (size, 28, 28, 1)).astype("float32")
        data = tf.data.Dataset.from_tensor_slices((images, rng.integers(0, 10, size).astype("int64")))
        return next(iter(strategy.experimental_distribute_dataset(data.batch(GLOBAL_BATCH))))

    def traced(step):  # a new trace, so it picks up the optimizer swapped in below
        return tf.function(getattr(step, "python_function", step))

    def train_with_sgd():
        with strategy.scope():
            sgd = keras.optimizers.SGD(inputs["learning_rate"])
            sgd.build(model.trainable_variables)
        scope, saved = train_step.__globals__, train_step.__globals__.get("optimizer")
        scope["optimizer"] = sgd
        try:
            loss = traced(distributed_train_step)(batch(inputs["train_seed"], GLOBAL_BATCH))
            return {"rank": int(tf.rank(loss)), "loss": float(loss), "after": model.get_weights()}
        finally:
            scope["optimizer"] = saved

    def test():
        test_loss.reset_state()
        test_accuracy.reset_state()
        traced(distributed_test_step)(batch(inputs["test_seed"], inputs["test_size"]))
        return {"loss": float(test_loss.result()), "accuracy": float(test_accuracy.result()),
                "after": model.get_weights()}

    before = model.get_weights()
    trained = attempt(train_with_sgd)
    model.set_weights(before)
    return {"before": before, "train": trained, "test": attempt(test)}


def _test_reference(inputs, out):
    images, labels = reference.batch(inputs["test_seed"], inputs["test_size"])
    _, logits, _ = reference.model_step(out["before"], images, labels, 0.0)
    return reference.cross_entropy(labels, logits).mean(), np.mean(logits.argmax(axis=1) == labels)


@case(0.5, public=True)
def train_step_returns_one_number(inputs, out):
    assert returned(out["train"], "distributed_train_step")["rank"] == 0, \
        "return one scalar for the whole global batch (strategy.reduce)"


@case(1, hint="distributed_train_step must return the loss of the whole global batch: the SUM of the replicas' "
              "scaled losses, regularisation included")
def train_loss_matches_one_device(inputs, out):
    images, labels = reference.batch(inputs["train_seed"], 128)
    expected, _, _ = reference.model_step(out["before"], images, labels, 0.0)
    got = returned(out["train"], "distributed_train_step")["loss"]
    assert abs(got - expected) < 1e-4 * max(1.0, expected), (got, expected)


@case(0.5, hint="one plain-SGD step must move the weights as one device would: gradients of the loss scaled "
                "by the global batch, applied once")
def one_sgd_step_matches_one_device(inputs, out):
    images, labels = reference.batch(inputs["train_seed"], 128)
    _, _, expected = reference.model_step(out["before"], images, labels, inputs["learning_rate"])
    got = returned(out["train"], "distributed_train_step")["after"]
    for b, g, e in zip(out["before"], got, expected, strict=True):
        assert np.allclose(g - b, e - b, rtol=1e-3, atol=1e-6)


@case(0.5, hint="the test step must evaluate without training: update the metrics, no gradients, no optimizer")
def test_step_evaluates_and_leaves_the_weights(inputs, out):
    got = returned(out["test"], "distributed_test_step")
    assert got["loss"] > 0, "test_loss was not updated"
    assert all(np.array_equal(b, a) for b, a in zip(out["before"], got["after"], strict=True))


@case(0.5, hint="update test_loss with the per-example losses (loss_object), not the loss scaled by the global "
                "batch, and test_accuracy with the logits, on every replica's slice")
def test_metrics_match_one_device(inputs, out):
    expected_loss, expected_accuracy = _test_reference(inputs, out)
    got = returned(out["test"], "distributed_test_step")
    assert abs(got["loss"] - expected_loss) < 1e-4 and abs(got["accuracy"] - expected_accuracy) < 1e-6
