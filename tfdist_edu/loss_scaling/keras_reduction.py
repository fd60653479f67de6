"""Keras's default reduction under a strategy: what a loss object divides by, inside
``strategy.run`` and outside it.
"""

import dataclasses

import keras
import tensorflow as tf


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
