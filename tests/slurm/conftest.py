"""The `slurm` fixture: a real Slurm (munged, slurmctld, two slurmd hosts) for the Slurm tests.

Started once for the tests in this folder and torn down when they are done (module scope: the tests after them check that no process of theirs outlives them); the teardown fails if any of its
processes (daemons, job steps, TensorFlow workers) is still alive. Slurm is installed by the
project's own install step if missing; a machine that cannot host it (not root, the install
failed) fails the tests with the reason: they are never skipped.
"""

import json
import os
import shutil
import sys
import uuid
from pathlib import Path

import pytest

from minislurm import MiniSlurm, SlurmUnavailable, install_if_missing, make_root
from tfdist_edu import cluster

INSTALL_SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "install_slurm.sh"


@pytest.fixture(scope="module")
def slurm():
    """A running two-node Slurm; ``slurm.shared`` is the folder every node sees.

    Installs Slurm first with scripts/install_slurm.sh when it is missing.
    """
    root = make_root()
    cluster_ = MiniSlurm(root, uuid.uuid4().hex[:6])
    try:
        install_if_missing(INSTALL_SCRIPT)
        cluster_.start()
    except SlurmUnavailable as exc:
        cluster_.stop()
        pytest.fail(f"cannot start the Slurm test cluster: {exc}", pytrace=False)
    yield cluster_
    survivors = cluster_.stop()
    assert survivors == [], f"processes of the Slurm cluster still running: {survivors} ({root})"
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def job_env(slurm):
    """The environment jobs are submitted with (sbatch passes it on to every task).

    This interpreter's python first on PATH, this tree's tfdist_edu importable, one thread per
    TensorFlow op pool (two nodes share this machine's cores), and RUN_ROOT on shared storage.
    """
    env = cluster.worker_env(os.environ, threads=1)
    env["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), env["PATH"]])
    env["RUN_ROOT"] = str(slurm.shared)
    return env


# Lesson 7's %%px cells, as the Slurm engines' test runs them on workers Slurm started: the
# TF_CONFIG each worker got, the strategy, the shard each reads, and training with the lesson's
# mwms_ctl.py (the package's copy is generated from the lesson's cell).
LESSON7 = Path(__file__).resolve().parents[2] / "notebooks" / "07_multi_worker.ipynb"
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
