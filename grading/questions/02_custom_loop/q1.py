"""Q1: compute_loss scales by the global batch and counts the regularisation once."""
# ruff: noqa: F821 - probe() runs in the student's namespace, where their names are defined

from tfdist_instructor.grading.catalog import case, returned, sibling
from tfdist_instructor.grading.diagnosis import explain

reference = sibling(__file__, "reference")
REPLICAS = 2  # the exercise's strategy: two (logical) devices
PER_SLICE = ("each replica averaged over its own slice (e.g. tf.reduce_mean), so the replicas' losses add up to "
             "N times the mean; divide by the global batch: tf.nn.compute_average_loss(..., global_batch_size=...)")
REG_PER_REPLICA = ("the regularisation loss was added in full on every replica, so it counts N times; scale it "
                   "with tf.nn.scale_regularization_loss")
SHORT_DENOMINATOR = ("a short batch was divided by the examples it holds, not by the global batch: pass "
                     "global_batch_size to tf.nn.compute_average_loss")


def inputs(rng):
    per_replica = int(rng.integers(3, 12))
    return {"seed": int(rng.integers(1 << 30)), "global_batch": 2 * per_replica,
            "short": int(rng.integers(1, per_replica)), "regularisation": rng.uniform(0.1, 1, 2).round(4).tolist()}


def probe(inputs):
    import numpy as np
    import tensorflow as tf

    rng = np.random.default_rng(inputs["seed"])
    g = inputs["global_batch"]
    logits = rng.normal(size=(g, 10)).astype("float32")
    labels = rng.integers(0, 10, g).astype("int64")

    def per_replica(n, model_losses):  # the batch's first n examples, split over the replicas
        data = tf.data.Dataset.from_tensor_slices((labels[:n], logits[:n])).batch(g)
        batch = next(iter(strategy.experimental_distribute_dataset(data)))
        step = tf.function(lambda y, z: compute_loss(y, z, [tf.constant(v) for v in model_losses], g))
        return [float(v) for v in strategy.experimental_local_results(strategy.run(step, args=batch))]

    regularisation = inputs["regularisation"]
    return {"one_device": attempt(lambda: float(compute_loss(labels[:4], logits[:4], [], 4))),
            "rank": attempt(lambda: int(tf.rank(compute_loss(labels[:4], logits[:4], [], 4)))),
            "full": attempt(per_replica, g, []),
            "short": attempt(per_replica, g - inputs["short"], []),
            "regularised": attempt(per_replica, g, regularisation)}


def _data(inputs):
    import numpy as np

    rng = np.random.default_rng(inputs["seed"])
    logits = rng.normal(size=(inputs["global_batch"], 10)).astype("float32")
    return rng.integers(0, 10, inputs["global_batch"]), logits


@case(1, public=True)
def loss_on_one_device(inputs, out):
    labels, logits = _data(inputs)
    expected = reference.cross_entropy(labels[:4], logits[:4]).mean()
    assert returned(out["rank"], "compute_loss") == 0, "return a scalar tensor"
    got = returned(out["one_device"], "compute_loss")
    assert abs(got - expected) < 1e-5, f"one device, batch of 4: expected the mean loss {expected:.5f}, got {got:.5f}"


def _sum_diagnosis(inputs, out):
    labels, logits = _data(inputs)
    g, n = inputs["global_batch"], inputs["global_batch"] - inputs["short"]
    losses = reference.cross_entropy(labels, logits)
    found = explain("the sum of your replicas' losses", sum(returned(out["full"], "compute_loss")), losses.mean(),
                    "the one-device loss", [(REPLICAS * losses.mean(), PER_SLICE)])
    return found or explain("on a short batch, the sum of your replicas' losses", sum(returned(out["short"], "compute_loss")),
                            losses[:n].sum() / g, "the one-device loss over the global batch",
                            [(losses[:n].mean(), SHORT_DENOMINATOR)])


def _regularised_diagnosis(inputs, out):
    labels, logits = _data(inputs)
    mean, reg = reference.cross_entropy(labels, logits).mean(), sum(inputs["regularisation"])
    got = sum(returned(out["regularised"], "compute_loss"))
    if abs(got - (mean + REPLICAS * reg)) < 1e-5:
        return explain("the regularisation in your loss", got - mean, reg, "the model's regularisation loss",
                       [(REPLICAS * reg, REG_PER_REPLICA)])
    return explain("your regularised loss", got, mean + reg, "the one-device loss",
                   [(REPLICAS * mean + reg, PER_SLICE)])


@case(1.5, hint="on 2 replicas the SUM of the replicas' losses must equal the single-device mean loss: divide "
                "by the global_batch_size argument (not the replica's own batch), short batches included",
      diagnose=_sum_diagnosis)
def replica_losses_add_up_to_the_mean(inputs, out):
    labels, logits = _data(inputs)
    g, n = inputs["global_batch"], inputs["global_batch"] - inputs["short"]
    losses = reference.cross_entropy(labels, logits)
    assert abs(sum(returned(out["full"], "compute_loss")) - losses.mean()) < 1e-5
    assert abs(sum(returned(out["short"], "compute_loss")) - losses[:n].sum() / g) < 1e-5


@case(1.5, hint="the regularisation loss must be counted once in total, not once per replica: "
                "use tf.nn.scale_regularization_loss", diagnose=_regularised_diagnosis)
def regularisation_counted_once(inputs, out):
    labels, logits = _data(inputs)
    expected = reference.cross_entropy(labels, logits).mean() + sum(inputs["regularisation"])
    assert abs(sum(returned(out["regularised"], "compute_loss")) - expected) < 1e-5
