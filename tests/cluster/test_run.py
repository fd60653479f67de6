"""Tests for tfdist_edu.cluster.run: real multi-worker runs of local processes, and how they end.

The tests marked ``cluster`` start real TensorFlow worker processes (about 10-40 s each on two
cores). Each of them also checks that no process is left behind and the ports are free again.
"""

import _thread
import signal
import subprocess
import sys
import threading
import time

import psutil
import pytest

from cluster_checks import FAST, assert_nothing_left, loopback_hosts, write_script
from tfdist_edu import cluster, supervisor, worker


@pytest.mark.cluster
def test_two_worker_custom_loop_on_keras3_ends_with_identical_weights_on_every_worker(tmp_path):
    run = cluster.launch_workers(
        worker.reference_script("mwms_ctl"),
        args=[*FAST, "--checkpoint-dir", tmp_path / "ckpt"],
        deadline_s=180,
        echo=False,
        workdir=tmp_path,
    )
    first, second = run.results
    assert [w.returncode for w in run.workers] == [0, 0]
    assert first["final_weights"] == second["final_weights"]
    assert first["loss"][-1] < first["loss"][0]
    assert run.events[-1]["event"] == "finished" and run.resumed_from is None
    assert_nothing_left(run.cluster["worker"])


@pytest.mark.cluster
def test_two_worker_fit_through_tf_keras_ends_with_identical_weights_on_every_worker(tmp_path):
    run = cluster.launch_workers(
        worker.reference_script("mwms_fit"),
        args=[*FAST, "--backup-dir", tmp_path / "backup"],
        legacy_keras=True,
        deadline_s=180,
        echo=False,
        workdir=tmp_path,
    )
    first, second = run.results
    assert first["final_weights"] == second["final_weights"]
    assert first["loss"][-1] < first["loss"][0]
    assert any("tf.keras comes from the tf_keras package" in line for line in run.workers[0].log)
    assert_nothing_left(run.cluster["worker"])


@pytest.mark.cluster
def test_worker_crashing_at_start_is_named_and_its_waiting_peer_is_killed(tmp_path):
    script = write_script(
        tmp_path,
        """
        import tensorflow as tf
        if INDEX == 1:
            raise RuntimeError("worker 1 cannot find its data")
        tf.distribute.MultiWorkerMirroredStrategy()  # waits for worker 1 forever
        """,
    )
    hosts = loopback_hosts(2)
    with pytest.raises(supervisor.WorkerFailed, match="worker 1 exited with status 1") as failure:
        cluster.launch_workers(script, hosts=hosts, deadline_s=120, echo=False)
    assert "cannot find its data" in str(failure.value)
    assert failure.value.run.workers[0].returncode == -9  # worker 0 was SIGKILLed
    assert_nothing_left(hosts)


@pytest.mark.cluster
def test_hanging_worker_makes_the_deadline_kill_every_worker_and_is_named(tmp_path):
    script = write_script(
        tmp_path,
        """
        if INDEX == 1:
            print("loading data...", flush=True)
            time.sleep(3600)  # stuck before joining the cluster
        import tensorflow as tf
        print("joining the cluster", flush=True)
        tf.distribute.MultiWorkerMirroredStrategy()  # waits for worker 1 and ignores SIGTERM
        """,
    )
    hosts = loopback_hosts(2)
    deadline = 20
    start = time.monotonic()
    with pytest.raises(supervisor.ClusterTimeout, match="worker 1 looks stuck") as timeout:
        cluster.launch_workers(script, hosts=hosts, deadline_s=deadline, echo=False)
    assert time.monotonic() - start < deadline + 10
    assert "loading data..." in str(timeout.value)
    assert_nothing_left(hosts)


@pytest.mark.cluster
def test_keyboard_interrupt_kills_every_worker_and_is_re_raised(tmp_path):
    script = write_script(
        tmp_path,
        """
        import tensorflow as tf
        from tfdist_edu import cluster, supervisor, tfconfig, worker
        worker.report_start(0)  # tells the test this worker is about to join
        if INDEX == 1:
            time.sleep(3600)
        tf.distribute.MultiWorkerMirroredStrategy()  # worker 0 waits here, ignoring SIGTERM
        """,
    )
    hosts = loopback_hosts(2)

    def interrupt_once_both_joined():
        end = time.monotonic() + 90
        while time.monotonic() < end and len(list(tmp_path.glob("run/*.progress"))) < 2:
            time.sleep(0.2)
        time.sleep(1)
        _thread.interrupt_main()  # what pressing "interrupt" in Jupyter does to the kernel

    # A job started in the background by a shell (`make test &`) inherits SIGINT ignored, and
    # then interrupt_main() does nothing: handle SIGINT as Jupyter's kernel does.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        threading.Thread(target=interrupt_once_both_joined, daemon=True).start()
        with pytest.raises(KeyboardInterrupt):
            cluster.launch_workers(
                script, hosts=hosts, deadline_s=240, workdir=tmp_path / "run", echo=False
            )
    finally:
        signal.signal(signal.SIGINT, previous)
    assert_nothing_left(hosts)


def test_workers_die_with_a_launcher_that_is_killed_outright(tmp_path):
    """A crashed notebook kernel cannot clean up: the kernel's death signal takes the workers."""
    script = write_script(tmp_path, "print('up', flush=True)\ntime.sleep(3600)\n")
    launcher = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"from tfdist_edu import cluster, supervisor, tfconfig, worker; cluster.launch_workers({str(script)!r})",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        for _ in range(2):
            assert launcher.stdout.readline().endswith("up\n")  # both workers are running
        workers = psutil.Process(launcher.pid).children(recursive=True)
        assert len(workers) == 2
    finally:
        launcher.kill()
        launcher.wait()
    _, alive = psutil.wait_procs(workers, timeout=10)
    assert alive == []
