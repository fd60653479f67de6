"""Shared test setup: fast mode, quiet TensorFlow, and two logical CPUs for every test.

The logical devices must exist before TensorFlow initialises, so they are configured here,
before any test module runs; tests needing another device layout start a subprocess.
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest

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


@pytest.fixture(scope="session")
def run_fresh():
    """A function that runs Python ``code`` in a fresh interpreter, where TensorFlow has not
    started yet, and returns the JSON object the code prints on its last line."""

    def run(code):
        env = {k: v for k, v in os.environ.items() if k != "TF_CONFIG"}
        proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                              capture_output=True, text=True, timeout=300, env=env)
        assert proc.returncode == 0, proc.stderr[-3000:]
        return json.loads(proc.stdout.strip().splitlines()[-1])

    return run
