"""Shared test setup: fast mode, quiet TensorFlow, and two logical CPUs for every test.

The logical devices must exist before TensorFlow initialises, so they are configured here,
before any test module runs; tests needing another device layout start a subprocess.
"""

import os

os.environ.setdefault("TFDIST_EDU_FAST", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.pop("TF_CONFIG", None)

import matplotlib  # noqa: E402

matplotlib.use("Agg")

import tensorflow as tf  # noqa: E402

TEST_REPLICAS = 2
_cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(
    _cpu, [tf.config.LogicalDeviceConfiguration()] * TEST_REPLICAS
)
