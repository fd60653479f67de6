"""The named ways of computing one replica's loss, and ``source_of``, which quotes them.

Each case is a named function: the loss one replica differentiates, from its per-example
losses, the model and the global batch. The code a figure shows is read from its source.
"""

import inspect

import tensorflow as tf


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
