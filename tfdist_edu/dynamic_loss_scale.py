"""Mixed precision's dynamic loss scale, step by step, with a real ``LossScaleOptimizer``.

float16 gradients of small losses underflow to zero; the optimizer multiplies the loss by a
scale before differentiating and divides the gradients by it afterwards. The scale grows while
gradients stay finite and halves, skipping the step, when they overflow. ``loss_scale_trace``
records that, and ``plots.plot_loss_scale`` draws it.
"""

import dataclasses

import keras
import numpy as np
import tensorflow as tf


@dataclasses.dataclass(frozen=True)
class LossScaleTrace:
    """A mixed-precision run's dynamic loss scale, one entry per step (after the step).

    ``skipped[i]`` is True when step i changed no weight (its gradients were not finite);
    ``overflow_steps`` are the steps whose gradients were replaced by inf.
    """

    scale: list
    loss: list
    skipped: list
    overflow_steps: list
    initial_scale: float
    growth_steps: int


def loss_scale_trace(steps=40, overflow_steps=(12, 13, 30), growth_steps=5, initial_scale=2.0**15,
                     seed=0):
    """Train a tiny mixed_float16 model with a real ``keras.optimizers.LossScaleOptimizer``.

    The scale doubles after ``growth_steps`` finite steps in a row; at each of
    ``overflow_steps`` the gradients are replaced by inf, as an fp16 overflow would make them,
    so the optimizer skips the step and halves the scale. Returns a ``LossScaleTrace``.
    """
    overflow_steps = sorted({int(s) for s in overflow_steps})
    if any(not 0 <= s < steps for s in overflow_steps):
        raise ValueError(f"overflow_steps must lie in 0..{steps - 1}, got {overflow_steps}")
    keras.utils.set_random_seed(seed)
    model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(1, dtype="mixed_float16")])
    optimizer = keras.optimizers.LossScaleOptimizer(
        keras.optimizers.SGD(0.01), initial_scale=initial_scale, dynamic_growth_steps=growth_steps)
    x = np.random.default_rng(seed).normal(size=(32, 8)).astype("float32")
    y = x.sum(axis=1, keepdims=True)
    variables = model.trainable_variables
    scale, loss_values, skipped = [], [], []
    for step in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.cast(model(x), tf.float32) - y))
            scaled_loss = optimizer.scale_loss(loss)
        grads = tape.gradient(scaled_loss, variables)
        if step in overflow_steps:
            grads = [g + float("inf") for g in grads]
        before = [v.numpy() for v in variables]
        optimizer.apply(grads, variables)
        skipped.append(all(np.array_equal(b, v.numpy()) for b, v in zip(before, variables)))
        scale.append(float(optimizer.dynamic_scale.numpy()))
        loss_values.append(float(loss))
    return LossScaleTrace(scale, loss_values, skipped, overflow_steps, float(initial_scale),
                          growth_steps)
