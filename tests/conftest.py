"""Shared test setup: fast mode, quiet TensorFlow, and two logical CPUs for every test.

The logical devices must exist before TensorFlow initialises, so they are configured here,
before any test module runs; tests needing another device layout start a subprocess.
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

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


class BackgroundTour:
    """``tfdist-edu tour`` running in a process of its own; ``result()`` waits for it."""

    def __init__(self, folder, args, env):
        self.out, self.args, self._folder = folder / "report", args, folder
        with open(folder / "stdout.txt", "w") as stdout, open(folder / "stderr.txt", "w") as stderr:
            self.process = subprocess.Popen([sys.executable, "-m", "tfdist_edu.cli", "tour", *args,
                                             "--out", str(self.out)], stdout=stdout, stderr=stderr,
                                            env=env)

    def result(self, timeout=900):
        """The finished run as a CompletedProcess (its return code, stdout and stderr)."""
        self.process.wait(timeout=timeout)
        return subprocess.CompletedProcess(self.process.args, self.process.returncode,
                                           (self._folder / "stdout.txt").read_text(),
                                           (self._folder / "stderr.txt").read_text())

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="session")
def course_tour(tmp_path_factory):
    """One short tour for the whole session, started in the background when first asked for: the
    tour's tests read its report and its terminal, the site shows its report. Offline, one epoch,
    in fast mode, as a student runs it (TensorFlow's log level left unset), on the real
    Fashion-MNIST when Debian's package is installed (as in CI), else on the stand-in."""
    from tfdist_edu.data import specs

    real = os.path.isdir(specs.SPECS["fashion_mnist"].idx_debian)
    env = {k: v for k, v in os.environ.items() if k != "TF_CPP_MIN_LOG_LEVEL"}
    env.update(TFDIST_EDU_FAST="1", TFDIST_EDU_DATA="auto" if real else "synthetic")
    tour = BackgroundTour(tmp_path_factory.mktemp("tour"), ["--epochs", "1", "--batch", "128"], env)
    yield tour
    tour.stop()
