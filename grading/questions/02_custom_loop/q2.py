"""Q2: the train step (loss, and one plain-SGD step against one device) and the test step."""
# ruff: noqa: F821 - probe() runs in the student's namespace, where their names are defined

import numpy as np

from tfdist_instructor.grading.catalog import case, returned, sibling
from tfdist_instructor.grading.diagnosis import explain, factor

reference = sibling(__file__, "reference")
q1 = sibling(__file__, "q1")  # the loss-scaling mistakes, named once
LEARNING_RATE = 0.5  # plain SGD: Adam would hide a gradient N times too large
GLOBAL_BATCH = 128  # the exercise's global batch (64 per replica, 2 replicas)
REDUCE_MEAN = ("strategy.reduce with ReduceOp.MEAN averaged the replicas' losses, which are already divided by the "
               "global batch; sum them with ReduceOp.SUM")
SCALED_METRIC = ("the Mean metric was given each replica's loss already divided by the global batch, and averaged "
                 "those; update test_loss with the per-example losses (loss_object)")
TRAINS_ON_TEST = ("the test step took a training step (a GradientTape and the optimizer): evaluate only, with "
                  "training=False and no gradients")


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


def _train_loss_diagnosis(inputs, out):
    images, labels = reference.batch(inputs["train_seed"], GLOBAL_BATCH)
    loss, logits, _ = reference.model_step(out["before"], images, labels, 0.0)
    mean = reference.cross_entropy(labels, logits).mean()
    reg, n = loss - mean, q1.REPLICAS
    got = returned(out["train"], "distributed_train_step")["loss"]
    return explain("your train step's loss", got, loss, "the one-device loss",
                   [(n * mean + reg, q1.PER_SLICE), (mean + n * reg, q1.REG_PER_REPLICA), (loss / n, REDUCE_MEAN)],
                   rtol=1e-4)


def _sgd_diagnosis(inputs, out):
    images, labels = reference.batch(inputs["train_seed"], GLOBAL_BATCH)
    _, _, expected = reference.model_step(out["before"], images, labels, inputs["learning_rate"])
    got = returned(out["train"], "distributed_train_step")["after"]
    moved = sum(float(np.vdot(g - b, e - b)) for b, g, e in zip(out["before"], got, expected, strict=True))
    wanted = sum(float(np.vdot(e - b, e - b)) for b, e in zip(out["before"], expected, strict=True))
    return f"one SGD step moved the weights {factor(moved, wanted)} as far as one device would"


@case(1, hint="distributed_train_step must return the loss of the whole global batch: the SUM of the replicas' "
              "scaled losses, regularisation included", diagnose=_train_loss_diagnosis)
def train_loss_matches_one_device(inputs, out):
    images, labels = reference.batch(inputs["train_seed"], GLOBAL_BATCH)
    expected, _, _ = reference.model_step(out["before"], images, labels, 0.0)
    got = returned(out["train"], "distributed_train_step")["loss"]
    assert abs(got - expected) < 1e-4 * max(1.0, expected), (got, expected)


@case(0.5, hint="one plain-SGD step must move the weights as one device would: gradients of the loss scaled "
                "by the global batch, applied once", diagnose=_sgd_diagnosis)
def one_sgd_step_matches_one_device(inputs, out):
    images, labels = reference.batch(inputs["train_seed"], GLOBAL_BATCH)
    _, _, expected = reference.model_step(out["before"], images, labels, inputs["learning_rate"])
    got = returned(out["train"], "distributed_train_step")["after"]
    for b, g, e in zip(out["before"], got, expected, strict=True):
        assert np.allclose(g - b, e - b, rtol=1e-3, atol=1e-6)


def _weights_diagnosis(inputs, out):
    after = returned(out["test"], "distributed_test_step")["after"]
    change = max(float(np.abs(a - b).max()) for b, a in zip(out["before"], after, strict=True))
    size = max(float(np.abs(b).max()) for b in out["before"])
    if change == 0:
        return None
    return f"your test step changed the weights by up to {change:.2e} ({factor(change, size)} of the largest weight): " \
           + TRAINS_ON_TEST


def _metric_diagnosis(inputs, out):
    expected_loss, _ = _test_reference(inputs, out)
    got = returned(out["test"], "distributed_test_step")["loss"]
    scaled = expected_loss * inputs["test_size"] / (q1.REPLICAS * GLOBAL_BATCH)
    return explain("your test loss", got, expected_loss, "the one-device loss", [(scaled, SCALED_METRIC)], rtol=1e-4)


@case(0.5, hint="the test step must evaluate without training: update the metrics, no gradients, no optimizer",
      diagnose=_weights_diagnosis)
def test_step_evaluates_and_leaves_the_weights(inputs, out):
    got = returned(out["test"], "distributed_test_step")
    assert got["loss"] > 0, "test_loss was not updated"
    assert all(np.array_equal(b, a) for b, a in zip(out["before"], got["after"], strict=True))


@case(0.5, hint="update test_loss with the per-example losses (loss_object), not the loss scaled by the global "
                "batch, and test_accuracy with the logits, on every replica's slice", diagnose=_metric_diagnosis)
def test_metrics_match_one_device(inputs, out):
    expected_loss, expected_accuracy = _test_reference(inputs, out)
    got = returned(out["test"], "distributed_test_step")
    assert abs(got["loss"] - expected_loss) < 1e-4 and abs(got["accuracy"] - expected_accuracy) < 1e-6
