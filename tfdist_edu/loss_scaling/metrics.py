"""The metric pitfall: a ``Mean`` metric fed the scaled per-replica losses."""

import dataclasses

import keras
import tensorflow as tf


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
