"""Lesson 9's JAX DataParallel path on real GPUs: one device vs every GPU present.

For a machine with JAX and CUDA but no TensorFlow and no dataset: the course CNN trains on
random data of Fashion-MNIST's shape (labelled so in the output). Needs only keras, namex and
optree beside JAX (carried as wheels; see docs of the device tool). Prints, for global batch
128 and 1024, the first epoch (compilation included) and the steady time per step on one GPU
and on all GPUs, then the loss and largest weight difference of one SGD epoch on one device vs
all of them (the lesson's equality check).

    python3 scripts/device/lesson9_gpu.py [--steps 60] [--equal-steps 50]
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tfdist_edu import keras_jax  # noqa: E402

keras_jax.require_jax("scripts/device/lesson9_gpu.py")
os.environ["KERAS_BACKEND"] = "jax"

import jax  # noqa: E402
import keras  # noqa: E402
import numpy as np  # noqa: E402

from tfdist_edu import models  # noqa: E402


class EpochClock(keras.callbacks.Callback):
    """Wall time of each epoch; an epoch ends when its metrics are read, after the last step."""

    def on_epoch_begin(self, epoch, logs=None):
        self.start = time.perf_counter()

    def on_epoch_end(self, epoch, logs=None):
        self.seconds = getattr(self, "seconds", []) + [time.perf_counter() - self.start]


def random_fashion_mnist(n, seed=0):
    rng = np.random.default_rng(seed)
    return rng.random((n, 28, 28, 1), dtype=np.float32), rng.integers(0, 10, n).astype("int32")


def build(distribution, optimizer):
    with distribution.scope():
        keras.utils.set_random_seed(0)
        model = models.fashion_cnn()
        model.compile(optimizer=optimizer,
                      loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return model


def step_time(devices, global_batch, steps):
    """(first epoch s, steady ms per step) of Adam on ``devices`` at ``global_batch``."""
    distribution = keras.distribution.DataParallel(devices=devices)
    model = build(distribution, keras.optimizers.Adam(1e-3))
    x, y = random_fashion_mnist(steps * global_batch)
    clock = EpochClock()
    with distribution.scope():
        model.fit(x, y, batch_size=global_batch, epochs=3, shuffle=False, verbose=0, callbacks=[clock])
    return clock.seconds[0], 1000 * min(clock.seconds[1:]) / steps


def sgd_epoch(devices, steps):
    distribution = keras.distribution.DataParallel(devices=devices)
    model = build(distribution, keras.optimizers.SGD(0.05))
    x, y = random_fashion_mnist(64 * steps, seed=1)
    with distribution.scope():
        history = model.fit(x, y, batch_size=64, epochs=1, shuffle=False, verbose=0)
    return history.history["loss"][0], [np.asarray(w) for w in model.get_weights()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=60, help="steps per timed epoch")
    parser.add_argument("--equal-steps", type=int, default=50, help="steps of the equality check")
    args = parser.parse_args()
    gpus = [d for d in jax.devices() if d.platform == "gpu"]
    if not gpus:
        raise SystemExit(f"no GPU visible to JAX {jax.__version__} (devices: {jax.devices()}): "
                         "run this on the GPU machine with a CUDA build of jaxlib")
    print(f"keras {keras.__version__}, jax {jax.__version__}; GPUs: {', '.join(d.device_kind + ' ' + str(d) for d in gpus)}")
    print("data: RANDOM images of Fashion-MNIST's shape (28x28x1, 10 classes); Adam; float32; "
          "DataParallel; the JAX backend compiles every step with XLA")
    print(f"{'devices':>8} {'global batch':>13} {'first epoch (s)':>16} {'steady ms/step':>15} {'examples/s':>11}")
    arms = [gpus[:1]] + ([gpus] if len(gpus) > 1 else [])
    for global_batch in (128, 1024):
        for devices in arms:
            first, ms = step_time(devices, global_batch, args.steps)
            print(f"{len(devices):8} {global_batch:13} {first:16.2f} {ms:15.2f} {global_batch / ms * 1000:11,.0f}",
                  flush=True)
    loss_one, weights_one = sgd_epoch(gpus[:1], args.equal_steps)
    loss_all, weights_all = sgd_epoch(gpus, args.equal_steps)
    largest = max(float(np.max(np.abs(a - b))) for a, b in zip(weights_one, weights_all))
    print(f"equality, {args.equal_steps} SGD steps at batch 64: loss {loss_one:.7f} on 1 GPU, "
          f"{loss_all:.7f} on {len(gpus)} GPU(s); loss difference {abs(loss_one - loss_all):.1e}, "
          f"largest weight difference {largest:.1e}")


if __name__ == "__main__":
    main()
