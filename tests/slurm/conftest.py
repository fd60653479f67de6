"""The `slurm` fixture: a real Slurm (munged, slurmctld, two slurmd hosts) for the Slurm tests.

Started once for the tests in this folder and torn down when they are done (module scope: the tests after them check that no process of theirs outlives them); the teardown fails if any of its
processes (daemons, job steps, TensorFlow workers) is still alive. Slurm is installed by the
project's own install step if missing; a machine that cannot host it (not root, the install
failed) fails the tests with the reason: they are never skipped.
"""

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
