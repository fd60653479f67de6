"""The demos that run the named cases under a strategy and next to the same model on one device.

One real batch goes through a real model, with the loss scaled the right way and the wrong way;
the gradients are summed across replicas, as the optimizer does under a strategy.
"""

import dataclasses

import keras
import numpy as np
import tensorflow as tf

from tfdist_edu.loss_scaling.cases import (
    compute_average_loss, reduce_mean_per_replica, scale_regularization_loss,
    single_device_mean, single_device_mean_plus_penalty, source_of, unscaled_penalty)
from tfdist_edu.loss_scaling.records import SINGLE_DEVICE, Case, LossScalingResult

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
