"""Tests for tfdist_edu.cluster.faults: a worker killed mid-training, and the restart.

The test marked ``cluster`` starts real TensorFlow worker processes (about 10-40 s each on two
cores) and checks that no process is left behind and the ports are free again.
"""

import pytest

from cluster_checks import assert_nothing_left
from tfdist_edu import cluster, worker


@pytest.mark.cluster
@pytest.mark.parametrize(
    "script, legacy_keras, state_dir", [("mwms_ctl", False, "--checkpoint-dir"), ("mwms_fit", True, "--backup-dir")]
)
def test_killed_worker_is_restarted_with_its_peers_and_training_resumes_from_the_saved_epoch(
    script, legacy_keras, state_dir, tmp_path
):
    run = cluster.launch_workers(
        worker.reference_script(script),
        args=["--epochs", "3", "--steps-per-epoch", "5", state_dir, tmp_path / "state"],
        legacy_keras=legacy_keras,
        kill=(1, 1),
        deadline_s=300,
        echo=False,
        workdir=tmp_path,
    )
    kinds = [e["event"] for e in run.events]
    assert kinds.index("killed") < kinds.index("restarted") < kinds.index("resumed")
    assert {"peer failed", "peer stuck"} & set(kinds), "the survivor's fate is recorded"
    assert run.attempts == 2 and run.resumed_from == 1
    first, second = run.results
    assert first["initial_epoch"] == second["initial_epoch"] == 1
    assert len(first["loss"]) == 2  # epochs 2 and 3 only
    assert first["final_weights"] == second["final_weights"]
    assert [w.restarts for w in run.workers] == [1, 1]
    assert_nothing_left(run.cluster["worker"])
