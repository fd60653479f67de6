"""Reproduces an upstream behaviour in a process of its own; tests/upstream/test_sentinels.py runs it.

Does Keras's TensorFlow backend accept keras.distribution.DataParallel? keras.io's guide
(https://keras.io/guides/distribution/, last modified 2026/08/13) says the distribution API
supports JAX and PyTorch and that "TensorFlow support is currently in development". This
builds and trains a small model under DataParallel over 2 logical CPUs on the TensorFlow
backend, then prints one OUTCOME line: "raises <error>", "ignored" (it trained, but the
kernel is not a distributed tensor: the layout was dropped) or "accepted" (the kernel is a
DTensor over both devices). Keras 3.15.1 / TensorFlow 2.21.0 (checked 2026-11-26): "ignored".
"""
import os

os.environ["KERAS_BACKEND"] = "tensorflow"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)

import keras  # noqa: E402

assert keras.backend.backend() == "tensorflow", keras.backend.backend()
try:
    distribution = keras.distribution.DataParallel(devices=keras.distribution.list_devices("cpu"))
    with distribution.scope():
        model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
        model.compile(optimizer="sgd", loss="mse")
        model.fit(np.ones((8, 4), "float32"), np.ones((8, 2), "float32"), batch_size=8,
                  epochs=1, verbose=0)
    kernel = model.layers[0].kernel.value
    from tensorflow.experimental import dtensor

    if dtensor.is_dtensor(kernel) and len(dtensor.fetch_layout(kernel).mesh.local_devices()) == 2:
        print("OUTCOME accepted")
    else:
        print(f"OUTCOME ignored: the kernel is a plain {type(kernel).__name__} on {kernel.device}")
except Exception as error:  # the outcome to report, whatever it is
    print(f"OUTCOME raises {type(error).__name__}: {' '.join(str(error).split())[:200]}")
