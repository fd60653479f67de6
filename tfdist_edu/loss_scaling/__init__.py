"""The numbers behind the loss-scaling lessons, computed with real TensorFlow calls.

Small experiments, each returning a record that ``plots`` draws or a lesson prints:

- ``loss_scaling_demo`` / ``regularization_demo``: one real batch through a real model under a
  strategy, with the loss scaled the right way and the wrong way, next to the same model on a
  single device. Gradients are summed across replicas, as the optimizer does under a strategy.
- ``metric_pitfall``: why a ``Mean`` metric fed the scaled per-replica losses reports the loss
  divided by the number of replicas.
- ``short_batch_demo``: a short last batch divided three ways (fixed, default, actual).
- ``keras_default_reduction``: what a Keras loss object's default reduction gives under a
  strategy, inside ``strategy.run`` and outside it.

Each way of scaling is a named function below (``compute_average_loss``, ``reduce_mean_per_replica``,
...), so a lesson can show its source; the figures quote that same source. (Mixed precision's
dynamic loss scale is another matter: see ``dynamic_loss_scale``.)
"""

import dataclasses
import inspect

import keras
import numpy as np
import tensorflow as tf

SINGLE_DEVICE = "single device"


@dataclasses.dataclass(frozen=True)
class Case:
    """What one way of computing the loss gives for one global batch.

    ``code`` is the loss expression each replica computed; ``replica_losses`` holds the loss each replica returned (one entry for the single device),
    ``total_loss`` their sum (the loss the summed gradients belong to) and ``grad_norm`` the
    global norm of the gradients after the all-reduce sum, i.e. what the optimizer applies.
    """

    code: str
    replica_losses: list
    total_loss: float
    grad_norm: float


@dataclasses.dataclass(frozen=True)
class LossScalingResult:
    """The cases of one experiment, keyed by name, the single-device reference last.

    ``kind`` is "loss" (data loss only) or "regularization" (data loss plus a weight penalty,
    whose single-device value is ``penalty``). JSON-able with ``dataclasses.asdict``;
    ``from_dict`` reads it back.
    """

    kind: str
    replicas: int
    global_batch: int
    cases: dict
    penalty: float = 0.0

    def ratio(self, name):
        """Gradient norm of case ``name`` divided by the single-device one (1.0 is right)."""
        return self.cases[name].grad_norm / self.cases[SINGLE_DEVICE].grad_norm

    @classmethod
    def from_dict(cls, record):
        cases = {name: Case(**case) for name, case in record["cases"].items()}
        return cls(**{**record, "cases": cases})


# Each case is a named function: the loss one replica differentiates, from its per-example
# losses, the model and the global batch. The code a figure shows is read from its source.


def compute_average_loss(per_example, model, global_batch):
    return tf.nn.compute_average_loss(per_example, global_batch_size=global_batch)


def reduce_mean_per_replica(per_example, model, global_batch):
    return tf.reduce_mean(per_example)


def scale_regularization_loss(per_example, model, global_batch):
    return (tf.nn.compute_average_loss(per_example, global_batch_size=global_batch)
            + tf.nn.scale_regularization_loss(tf.add_n(model.losses)))


def unscaled_penalty(per_example, model, global_batch):
    return (tf.nn.compute_average_loss(per_example, global_batch_size=global_batch)
            + tf.add_n(model.losses))


def single_device_mean(per_example, model, global_batch):
    return tf.reduce_mean(per_example)


def single_device_mean_plus_penalty(per_example, model, global_batch):
    return tf.reduce_mean(per_example) + tf.add_n(model.losses)


def source_of(case):
    """The expression ``case`` returns, as shown on a figure: its source after ``return``."""
    body = inspect.getsource(case).split("return", 1)[1]
    return " ".join(body.split())


_LOSS_CASES = {"compute_average_loss": compute_average_loss, "reduce_mean": reduce_mean_per_replica}
_REGULARIZATION_CASES = {"scale_regularization_loss": scale_regularization_loss,
                         "unscaled penalty": unscaled_penalty}


def loss_scaling_demo(strategy, model, images, labels, loss_fn=None):
    """Compare loss scalings on one global batch (``images``, ``labels``) under ``strategy``.

    Build ``model`` inside ``strategy.scope()``, then call this outside it. The batch is cut
    into equal consecutive slices, one per replica. Returns a ``LossScalingResult`` with the
    cases "compute_average_loss" (divide by the global batch: right), "reduce_mean" (divide by
    the per-replica batch: gradients ``replicas`` times too large after the sum) and "single
    device" (the same weights and batch on one device). The model runs in inference mode, so
    dropout and batch-norm statistics do not blur the comparison.
    """
    return _compare(strategy, model, images, labels, loss_fn, _LOSS_CASES, single_device_mean, "loss")


def regularization_demo(strategy, model, images, labels, loss_fn=None):
    """Like ``loss_scaling_demo`` for a model with weight penalties (e.g. ``fashion_cnn(l2=...)``).

    The cases are "scale_regularization_loss" (penalty divided by the number of replicas:
    right), "unscaled penalty" (each replica adds the whole penalty: counted ``replicas``
    times) and "single device"; ``penalty`` is the penalty's value.
    """
    if not model.losses:
        raise ValueError("regularization_demo needs a model with weight penalties in model.losses, "
                         "e.g. models.fashion_cnn(l2=1e-3)")
    result = _compare(strategy, model, images, labels, loss_fn, _REGULARIZATION_CASES,
                      single_device_mean_plus_penalty, "regularization")
    return dataclasses.replace(result, penalty=float(tf.add_n(model.losses)))


def _compare(strategy, model, images, labels, loss_fn, cases, reference, kind):
    if tf.distribute.has_strategy():
        raise RuntimeError("call this outside `with strategy.scope():` (build the model inside "
                           "it, then leave it), so the single-device copy is not distributed")
    loss_fn = loss_fn or keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction=None)
    images = tf.cast(images, tf.float32)
    labels = tf.convert_to_tensor(labels)
    global_batch = int(images.shape[0])
    replicas = strategy.num_replicas_in_sync
    if global_batch % replicas:
        raise ValueError(f"a global batch of {global_batch} does not split evenly over "
                         f"{replicas} replicas; pass a multiple of {replicas} examples")
    per_replica = global_batch // replicas

    def per_example_losses(net, x, y):
        per_example = loss_fn(y, net(x, training=False))
        if per_example.shape.rank == 0:
            raise ValueError("loss_fn must return one loss per example: create it with "
                             "reduction=None (AUTO and SUM_OVER_BATCH_SIZE average over the "
                             "replica's batch, which is the very mistake shown here)")
        return per_example

    def replica_slice(context):
        start = context.replica_id_in_sync_group * per_replica
        return images[start:start + per_replica], labels[start:start + per_replica]

    def replica_step(x, y):
        variables = model.trainable_variables
        out = {}
        for name, case in cases.items():
            with tf.GradientTape() as tape:
                loss = case(per_example_losses(model, x, y), model, global_batch)
            # The optimizer sums gradients across replicas: do the same to see what it applies.
            grads = tf.distribute.get_replica_context().all_reduce(
                tf.distribute.ReduceOp.SUM, tape.gradient(loss, variables))
            out[name] = (loss, tf.linalg.global_norm(grads))
        return out

    x, y = strategy.experimental_distribute_values_from_function(replica_slice)
    per_replica_out = strategy.run(replica_step, args=(x, y))
    results = {}
    for name, case in cases.items():
        losses, norms = per_replica_out[name]
        replica_losses = [float(v) for v in strategy.experimental_local_results(losses)]
        results[name] = Case(source_of(case), replica_losses, float(np.sum(replica_losses)),
                             float(strategy.experimental_local_results(norms)[0]))
    results[SINGLE_DEVICE] = _single_device(model, images, labels, per_example_losses, reference)
    return LossScalingResult(kind, replicas, global_batch, results)


def _single_device(model, images, labels, per_example_losses, reference):
    """The reference case: a copy of the model with the same weights, outside any strategy."""
    twin = keras.models.clone_model(model)
    twin.set_weights(model.get_weights())
    with tf.GradientTape() as tape:
        loss = reference(per_example_losses(twin, images, labels), twin, int(images.shape[0]))
    norm = tf.linalg.global_norm(tape.gradient(loss, twin.trainable_variables))
    return Case(source_of(reference), [float(loss)], float(loss), float(norm))


@dataclasses.dataclass(frozen=True)
class MetricPitfall:
    """The metric-Mean pitfall in numbers.

    ``scaled`` is each replica's ``compute_average_loss``, ``summed`` their sum (the training
    loss, what ``strategy.reduce(SUM, ...)`` reports), ``metric_of_scaled`` what a ``Mean``
    metric fed the scaled losses reports (``summed / replicas``: wrong) and
    ``metric_of_examples`` what a ``Mean`` fed the per-example losses reports (right).
    """

    replica_losses: list
    global_batch: int
    scaled: list
    summed: float
    metric_of_scaled: float
    metric_of_examples: float


def metric_pitfall(replica_losses=((2.0, 3.0), (4.0, 5.0)), strategy=None):
    """Compute the metric pitfall for the per-example losses each replica sees.

    With a ``strategy`` of ``len(replica_losses)`` replicas the numbers come from
    ``strategy.run``; without one, each replica's step runs in turn on this device (the
    same calls, one replica at a time). Returns a ``MetricPitfall``.
    """
    values = [[float(v) for v in losses] for losses in replica_losses]
    if len({len(v) for v in values}) != 1 or not values[0]:
        raise ValueError("give every replica the same, non-zero number of per-example losses")
    global_batch = sum(len(v) for v in values)
    if strategy is not None and strategy.num_replicas_in_sync != len(values):
        raise ValueError(f"{len(values)} replicas' losses given, but the strategy has "
                         f"{strategy.num_replicas_in_sync} replicas")
    strategy = strategy or tf.distribute.get_strategy()
    with strategy.scope():
        of_scaled, of_examples = keras.metrics.Mean(), keras.metrics.Mean()

    def replica_step(per_example):
        scaled = tf.nn.compute_average_loss(per_example, global_batch_size=global_batch)
        of_scaled.update_state(scaled)  # the pitfall: each replica's loss is already divided
        of_examples.update_state(per_example)
        return scaled

    if strategy.num_replicas_in_sync == len(values):
        per_example = strategy.experimental_distribute_values_from_function(
            lambda context: tf.constant(values[context.replica_id_in_sync_group]))
        scaled = strategy.experimental_local_results(strategy.run(replica_step, args=(per_example,)))
    else:
        scaled = [replica_step(tf.constant(v)) for v in values]
    scaled = [float(s) for s in scaled]
    return MetricPitfall(values, global_batch, scaled, float(tf.add_n(scaled)),
                         float(of_scaled.result()), float(of_examples.result()))


# Short last batches: which denominator. The fixed one is ``compute_average_loss`` above; these
# are the other two lesson 3 compares. They call the replica context, so run them in
# ``strategy.run``.


def default_denominator(per_example, model, global_batch):
    return tf.nn.compute_average_loss(per_example)


def actual_denominator(per_example, model, global_batch):
    return tf.nn.compute_average_loss(per_example, global_batch_size=(
        tf.distribute.get_replica_context().all_reduce(
            tf.distribute.ReduceOp.SUM, tf.shape(per_example)[0])))


_DENOMINATOR_CASES = {"fixed": compute_average_loss, "default": default_denominator,
                      "actual": actual_denominator}

TOY_LOSSES = (2.0, 3.0, 4.0, 5.0, 1.0, 2.0, 3.0)  # lesson 3's seven per-example losses


@dataclasses.dataclass(frozen=True)
class ShortBatch:
    """One global batch of per-example losses, split over the replicas, three ways to divide.

    ``split`` is how many examples each replica got; ``losses`` maps "fixed" (divide by the
    full global batch), "default" (no ``global_batch_size``: this replica's examples times the
    number of replicas) and "actual" (the examples in this global batch, summed over the
    replicas) to the sum over replicas of what each replica returned; ``true_mean`` is the mean
    of the batch's losses.
    """

    examples: list
    split: list
    losses: dict
    true_mean: float


def short_batch_demo(strategy, per_example_losses=TOY_LOSSES, global_batch=None):
    """Batch ``per_example_losses`` into global batches of ``global_batch`` (default 2 per
    replica), hand them to the replicas with ``experimental_distribute_dataset`` and divide each
    replica's sum the three ways. Returns a list of ``ShortBatch``, one per global batch."""
    global_batch = global_batch or 2 * strategy.num_replicas_in_sync
    dataset = tf.data.Dataset.from_tensor_slices(
        tf.constant(per_example_losses, tf.float32)).batch(global_batch)

    def replica_step(per_example):
        return tf.shape(per_example)[0], {name: case(per_example, None, global_batch)
                                          for name, case in _DENOMINATOR_CASES.items()}

    batches = []
    for batch in strategy.experimental_distribute_dataset(dataset):
        sizes, losses = strategy.run(replica_step, args=(batch,))
        examples = np.concatenate([v.numpy() for v in strategy.experimental_local_results(batch)])
        batches.append(ShortBatch(
            [float(v) for v in examples],
            [int(n) for n in strategy.experimental_local_results(sizes)],
            {name: float(strategy.reduce(tf.distribute.ReduceOp.SUM, value, axis=None))
             for name, value in losses.items()},
            float(np.mean(examples))))
    return batches


@dataclasses.dataclass(frozen=True)
class KerasDefaultReduction:
    """What a Keras 3 loss object with its default reduction returns under a strategy.

    ``summed_over_replicas``: each replica calls the loss inside ``strategy.run`` on its slice,
    and the results are summed (what the gradients belong to); ``in_scope``: the same loss called
    on the whole batch inside ``strategy.scope()`` but outside ``strategy.run``; ``one_device``:
    called with no strategy. The ratios to ``one_device`` say what the default divides by.
    """

    reduction: str
    replicas: int
    summed_over_replicas: float
    in_scope: float
    one_device: float

    @property
    def summed_ratio(self):
        return self.summed_over_replicas / self.one_device

    @property
    def in_scope_ratio(self):
        return self.in_scope / self.one_device


def keras_default_reduction(strategy, model, images, labels):
    """Measure a ``SparseCategoricalCrossentropy(from_logits=True)`` with Keras' default
    reduction on one global batch under ``strategy`` (call outside its scope). Returns a
    ``KerasDefaultReduction``."""
    if tf.distribute.has_strategy():
        raise RuntimeError("call this outside `with strategy.scope():`")
    loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    images = tf.cast(images, tf.float32)
    labels = tf.convert_to_tensor(labels)
    one_batch = strategy.experimental_distribute_dataset(
        tf.data.Dataset.from_tensors((images, labels)))
    replica_images, replica_labels = next(iter(one_batch))
    per_replica = strategy.run(lambda x, y: loss(y, model(x, training=False)),
                               args=(replica_images, replica_labels))
    summed = float(strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None))
    logits = model(images, training=False)
    one_device = float(loss(labels, logits))
    with strategy.scope():
        in_scope = float(loss(labels, logits))
    return KerasDefaultReduction(str(loss.reduction), strategy.num_replicas_in_sync, summed,
                                 in_scope, one_device)
