"""The job scripts of docs/multi-host.md (docs/slurm/*.sbatch) run unchanged on a real Slurm.

Each test submits one script with sbatch to the two-node cluster of the `slurm` fixture and
checks what its tasks wrote (result JSON per task on shared storage) and printed. Workloads are
tiny (synthetic data, a few steps); the point is the wiring, not the model.
Run with `-s` to see each job's output (TensorFlow's start-up log lines left out).
"""

import dataclasses
import json
import os
import signal
import time
from pathlib import Path

import psutil
import pytest

from tfdist_edu import supervisor, worker

pytestmark = pytest.mark.slurm

JOBS = Path(__file__).resolve().parents[2] / "docs" / "slurm"
TINY_MWMS = ["--epochs", "3", "--steps-per-epoch", "5"]


@dataclasses.dataclass
class JobRun:
    """A finished job: its final scontrol record, its output and its tasks' result files."""

    record: dict
    output: str
    results: dict

    def lines(self, prefix):
        return [line for line in self.output.splitlines() if line.startswith(prefix)]


def run_job(slurm, job_env, script, args, timeout_s=600, on_tick=None):
    """Submit docs/slurm/``script`` from its folder, wait for the end; return a JobRun."""
    job_id = slurm.sbatch(JOBS / script, args, options=[f"--output={slurm.shared}/%j.out"],
                          env=job_env, cwd=JOBS)
    out = slurm.shared / f"{job_id}.out"
    tick = (lambda record: on_tick(job_id, record)) if on_tick else None
    record = slurm.wait_job(job_id, timeout_s, on_tick=tick)
    output = "\n".join(line for line in out.read_text().splitlines()
                       if not supervisor.is_log_noise(line))
    results = {path.stem: json.loads(path.read_text())
               for path in sorted((slurm.shared / str(job_id)).glob("*.json"))}
    print(f"\n$ sbatch {script} {' '.join(args)}   # job {job_id}\n{output}\n"
          f"--- scontrol show job {job_id}: JobState={record['JobState']} "
          f"Restarts={record['Restarts']} ExitCode={record['ExitCode']}")
    for name, result in results.items():  # every step's loss left out: the epochs' say enough
        shown = {key: value for key, value in result.items() if key != "step_loss"}
        print(f"--- {name}.json: {json.dumps(shown)[:400]}")
    return JobRun(record, output, results)


def assert_two_identical_workers(run, epochs):
    """Both MWMS workers finished on different nodes with bit-identical weights."""
    assert run.record["JobState"] == "COMPLETED", run.output
    first, second = run.results["result-0"], run.results["result-1"]
    assert [first["task"], second["task"]] == ["worker 0", "worker 1"]
    assert first["final_weights"] == second["final_weights"]
    assert first["loss"] == second["loss"] and first["loss"][-1] < first["loss"][0]
    hosts = {line.split()[3].rstrip(":") for line in run.lines("task ")}
    assert hosts == {"node1", "node2"}, run.output
    assert len(first["loss"]) == epochs - first["initial_epoch"]


def test_mwms_with_tf_config_from_slurm_variables_ends_with_identical_weights_on_two_nodes(
    slurm, job_env
):
    run = run_job(slurm, job_env, "mwms_tf_config.sbatch", TINY_MWMS)
    assert_two_identical_workers(run, epochs=3)
    assert run.results["result-0"]["initial_epoch"] == 0
    assert run.record["Restarts"] == "0"


def test_mwms_with_slurm_cluster_resolver_ends_with_identical_weights_on_two_nodes(
    slurm, job_env
):
    run = run_job(slurm, job_env, "mwms_resolver.sbatch", TINY_MWMS)
    assert_two_identical_workers(run, epochs=3)
    configs = [json.loads(line.split("TF_CONFIG=", 1)[1]) for line in run.lines("task ")]
    assert {tuple(c["cluster"]["worker"]) for c in configs} == {("node1:2222", "node2:2222")}


def test_parameter_server_job_places_chief_workers_and_ps_on_both_nodes_and_trains(
    slurm, job_env
):
    steps = 60
    run = run_job(slurm, job_env, "ps.sbatch", ["--rounds", "1", "--steps-per-round", str(steps)])
    assert run.record["JobState"] == "COMPLETED" and run.record["ExitCode"] == "0:0", run.output
    placed = {}  # "task 1 on node1 is ps: TF_CONFIG=..." -> {"ps": {"node1"}}
    for line in run.lines("task "):
        words = line.split()
        placed.setdefault(words[5].rstrip(":"), set()).add(words[3])
    assert sorted(placed) == ["chief", "ps", "worker"]
    assert set().union(*placed.values()) == {"node1", "node2"}
    result = run.results["coordinator"]
    assert len(result["worker"]) == steps and set(result["worker"]) <= {0, 1}
    print(f"steps per worker: {[result['worker'].count(w) for w in (0, 1)]}")
    assert all(row["device"].startswith("/job:ps/") for row in result["placement"])
    loss = result["loss"]
    assert sum(loss[-10:]) < sum(loss[:10])  # asynchronous steps: compare averages


def _kill_task_when_both_wait(slurm, task, killed):
    """on_tick for run_job: SIGKILL task ``task`` once both workers wait after epoch 1.

    TFDIST_EDU_KILL_AT_EPOCH=1 makes the course's scripts pause after epoch 1 and its checkpoint
    (as lesson 7's launcher does), so the kill always lands mid-run at the same point.
    """

    def on_tick(job_id, record):
        out = slurm.shared / f"{job_id}.out"
        waiting = out.exists() and out.read_text().count("waiting for the launcher to kill") == 2
        if killed or not waiting:
            return
        for pid in slurm.node_pids():
            try:
                proc = psutil.Process(pid)
                env, cmdline = proc.environ(), " ".join(proc.cmdline())
            except psutil.Error:
                continue
            if (env.get("SLURM_JOB_ID") == str(job_id) and env.get("SLURM_PROCID") == str(task)
                    and "mwms_ctl" in cmdline):
                os.kill(pid, signal.SIGKILL)
                killed.append((pid, time.time()))
                print(f"\n[test] {time.strftime('%H:%M:%S')} kill -9 {pid} "
                      f"(task {task} of job {job_id}, on {record['NodeList']})")

    return on_tick


def test_requeued_job_resumes_from_the_chiefs_checkpoint_after_a_worker_is_killed(
    slurm, job_env
):
    killed = []
    env = {**job_env, worker.KILL_EPOCH_ENV: "1"}
    run = run_job(slurm, env, "mwms_tf_config.sbatch", TINY_MWMS,
                  on_tick=_kill_task_when_both_wait(slurm, task=1, killed=killed))
    assert len(killed) == 1, run.output
    assert run.record["Restarts"] == "1", run.record
    attempts = [line.split(" at ")[0] for line in run.lines("attempt ")]
    assert attempts == ["attempt 1 on node[1-2]", "attempt 2 on node[1-2]"], run.output
    assert any("requeueing" in line for line in run.lines("step failed")), run.output
    assert len(run.lines("starting at epoch 0")) == 2
    assert len(run.lines("starting at epoch 1")) == 2  # from the chief's checkpoint
    assert_two_identical_workers(run, epochs=3)
    assert run.results["result-0"]["initial_epoch"] == 1
    assert run.results["result-1"]["initial_epoch"] == 1
