"""The engines' cells on workers that Slurm started: ipyparallel engines as one Slurm job, one
engine per node, driven from this process as a notebook on a login node drives them."""

import os
import time

import pytest

from tfdist_edu import engines


def _jobs(slurm):
    return slurm.client(["squeue", "-h", "-o", "%j %T"]).stdout.split("\n")


@pytest.mark.slow
def test_lesson_7s_cells_on_two_engines_started_by_slurm_run_one_per_node_and_end_with_the_same_weights(
        slurm, tmp_path, monkeypatch, run_lesson7_cells):
    login = slurm.join_as_login_node()
    monkeypatch.setenv("SLURM_CONF", str(slurm.conf))
    monkeypatch.chdir(tmp_path)  # sbatch runs here; the job script is written here
    where = engines.Slurm(location=login, sbatch_args=("--time=10",))
    with engines.start(2, threads=1, slurm=where) as workers:
        assert sorted(workers.nodes) == ["node1", "node2"]
        hosts = sorted(address.rpartition(":")[0] for address in workers.spec.as_dict()["worker"])
        assert hosts == ["10.231.17.1", "10.231.17.2"]  # each worker's own node, not localhost
        assert [job for job in _jobs(slurm) if job.startswith("tfdist-workers-")][0].endswith("RUNNING")
        assert workers.each(os.getpid) == workers.pids  # worker 0 first
        # lesson 7's %%px cells, as the lesson runs them on local engines: nothing in them knows
        # where they run
        first, second = run_lesson7_cells(workers, slurm.shared)  # a folder both nodes see
    assert [first["task"], second["task"]] == ["worker 0", "worker 1"]
    assert first["read"] == [[0, 1], [4, 5], [8, 9], [12, 13]] and second["read"] == [[2, 3], [6, 7], [10, 11], [14, 15]]
    assert len(first["result"]["step_loss"]) == 6 and first["result"]["step_loss"] == second["result"]["step_loss"]
    assert first["result"]["final_weights"] == second["result"]["final_weights"]
    assert (slurm.shared / "ckpt-ctl" / "checkpoint").exists()  # the chief's checkpoints, in the work folder
    deadline = time.monotonic() + 30
    while any(job.startswith("tfdist-workers-") for job in _jobs(slurm)):
        assert time.monotonic() < deadline, f"the engines' job outlived stop(): {_jobs(slurm)}"
        time.sleep(1)
