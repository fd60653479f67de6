"""Shared test setup: fast mode, quiet TensorFlow, and two logical CPUs for every test.

The logical devices must exist before TensorFlow initialises, so they are configured here,
before any test module runs; tests needing another device layout start a subprocess.
"""

import json
import os
import shutil
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


# Lesson 7's %%px cells, as the engines' tests run them on workers started here and by Slurm: the
# TF_CONFIG each worker got, the strategy, the shard each reads, and training with the lesson's
# mwms_ctl.py (the package's copy is generated from the lesson's cell).
LESSON7 = Path(__file__).parents[1] / "notebooks" / "07_multi_worker.ipynb"
LESSON7_PX_CELLS = ("engines-tf-config", "engines-strategy", "engines-shard", "engines-train")


def _px_cell(cell_id):
    """The code of one of lesson 7's %%px cells, without its first line."""
    found = [c for c in json.loads(LESSON7.read_text())["cells"] if c.get("id") == cell_id]
    first, _, body = "".join(found[0]["source"]).partition("\n")
    assert first == "%%px", f"{cell_id} is not a %%px cell"
    return body


@pytest.fixture(scope="session")
def run_lesson7_cells():
    """A function that runs lesson 7's %%px cells on ``workers`` with a short training in
    ``workdir`` (a folder every worker sees) and returns what each worker holds afterwards:
    its task, the numbers it read, its training result; worker 0 first."""
    from tfdist_edu import worker

    def run(workers, workdir):
        shutil.copy(worker.reference_script("mwms_ctl"), Path(workdir) / "mwms_ctl.py")
        workers.view.push({"WORKDIR": str(workdir), "EPOCHS": 2, "STEPS_PER_EPOCH": 3,
                           "PER_WORKER_BATCH": 16}, block=True)
        for cell_id in LESSON7_PX_CELLS:
            workers.view.execute(_px_cell(cell_id), block=True)
        workers.view.execute("read = [p.numpy().tolist() for b in batches for p in "
                             "strategy.experimental_local_results(b)]", block=True)
        held = [workers.view.pull(name, block=True) for name in ("task", "read", "result")]
        return [dict(zip(("task", "read", "result"), one)) for one in zip(*held)]

    return run
