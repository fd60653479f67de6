"""tfdist_edu.keras_jax.workers: two JAX processes train one Keras 3 ``fit`` under the course's
supervisor; a killed process ends the run with a clear message and leaves nothing behind."""

import importlib.util
import json

import psutil
import pytest

from tfdist_edu import supervisor, worker
from tfdist_edu.keras_jax import workers

SCRIPT = worker.SCRIPTS_DIR / "jax_fit.py"
needs_jax = pytest.mark.skipif(importlib.util.find_spec("jax") is None,
                                reason="JAX is not installed here (pip install -e '.[jax]')")


def _alive(pids):
    return [pid for pid in pids if psutil.pid_exists(pid)
            and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE]


@pytest.mark.slow
@needs_jax
def test_two_processes_fit_one_model_and_end_with_the_same_loss_and_weights(capsys):
    run = workers.run_workers(SCRIPT, num_processes=2, deadline_s=300,
                              args=["--epochs", 1, "--steps-per-epoch", 3, "--global-batch", 32])
    first, second = run.results
    assert [first["process"], second["process"]] == [0, 1]
    assert first["examples_per_step"] == second["examples_per_step"] == 16
    assert first["loss"] == second["loss"] and first["weights_sha256"] == second["weights_sha256"]
    streamed = capsys.readouterr().out
    assert "[process 0] process 0 of 2: 1 device(s) here, 2 in all" in streamed
    assert "[process 1]" in streamed


@pytest.mark.slow
@needs_jax
def test_a_killed_process_ends_the_run_with_a_message_naming_it_and_no_process_is_left(monkeypatch):
    started = []
    real_start = supervisor.Supervisor.start

    def recording_start(self, *args, **kwargs):
        child = real_start(self, *args, **kwargs)
        started.append(child.proc.pid)
        return child

    monkeypatch.setattr(supervisor.Supervisor, "start", recording_start)
    with pytest.raises(supervisor.WorkerFailed) as failure:
        workers.run_workers(SCRIPT, num_processes=2, deadline_s=300, echo=False, kill=(1, 1),
                            args=["--epochs", 3, "--steps-per-epoch", 3, "--global-batch", 32])
    first_line = str(failure.value).splitlines()[0]
    assert first_line == "process 1 was killed by signal 9; the other processes were killed. Its last output:"
    assert len(started) == 2 and _alive(started) == [], "every process of the run is gone"


def test_a_missing_script_or_bad_arguments_fail_in_one_line_before_anything_starts(tmp_path):
    with pytest.raises(FileNotFoundError, match="no worker script at"):
        workers.run_workers(tmp_path / "absent.py")
    script = tmp_path / "x.py"
    script.write_text("")
    with pytest.raises(ValueError, match="positive integer"):
        workers.run_workers(script, num_processes=0)
    with pytest.raises(ValueError, match=r"kill=\(process, epoch\)"):
        workers.run_workers(script, num_processes=2, kill=(2, 1))


def test_each_process_gets_the_cluster_one_cpu_device_and_its_own_files(tmp_path):
    env = workers.process_env(1, 2, "localhost:1234", tmp_path, base={"XLA_FLAGS": "--foo", "TF_CONFIG": "{}"})
    assert env["KERAS_BACKEND"] == "jax" and env["JAX_PLATFORMS"] == "cpu" and "TF_CONFIG" not in env
    assert env["XLA_FLAGS"].startswith("--foo --xla_force_host_platform_device_count=1 --xla_cpu_multi_thread_eigen=false")
    assert (env["KERAS_DISTRIBUTION_JOB_ADDRESSES"], env["KERAS_DISTRIBUTION_NUM_PROCESSES"],
            env["KERAS_DISTRIBUTION_PROCESS_ID"]) == ("localhost:1234", "2", "1")
    assert env[worker.RESULT_ENV] == str(tmp_path / "result-1.json")
    assert json.dumps(env)  # plain strings only
