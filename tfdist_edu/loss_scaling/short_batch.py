"""Short last batches: which denominator.

The fixed one is ``compute_average_loss`` (in ``cases``); ``default_denominator`` and
``actual_denominator`` are the other two lesson 3 compares. They call the replica context, so
run them in ``strategy.run``.
"""

import dataclasses

import numpy as np
import tensorflow as tf

from tfdist_edu.loss_scaling.cases import compute_average_loss


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
