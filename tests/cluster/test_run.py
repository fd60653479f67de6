"""Tests for tfdist_edu.cluster: TF_CONFIG checks, and real multi-worker runs of local processes.

The tests marked ``cluster`` start real TensorFlow worker processes (about 10-40 s each on two
cores). Each of them also checks that no process is left behind and the ports are free again.
"""

import _thread
import json
import shutil
import socket
import subprocess
import sys
import textwrap
import threading
import time
import uuid

import psutil
import pytest

from tfdist_edu import cluster, supervisor, tfconfig, worker

# --------------------------------------------------------------------------------------------
# Helpers


def children():
    """This test process's live descendants (zombies do not count: they hold no resources)."""
    alive = []
    for proc in psutil.Process().children(recursive=True):
        try:
            if proc.status() != psutil.STATUS_ZOMBIE:
                alive.append(proc)
        except psutil.NoSuchProcess:
            pass
    return alive


def port_is_free(address):
    host, _, port = address.rpartition(":")
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, int(port)))
        except OSError:
            return False
    return True


def assert_nothing_left(addresses):
    assert children() == [], "a worker process outlived the launcher"
    assert all(port_is_free(a) for a in addresses), "a cluster port is still held"


def loopback_hosts(n):
    return [f"localhost:{port}" for port in tfconfig.free_ports(n)]


def write_script(tmp_path, body):
    """A worker script that knows its index as INDEX (from TF_CONFIG) and can import tfdist_edu."""
    path = tmp_path / "worker.py"
    header = (
        "import json, os, sys, time\nINDEX = json.loads(os.environ['TF_CONFIG'])['task']['index']\n"
    )
    path.write_text(header + textwrap.dedent(body))
    return path


FAST = ["--epochs", "2", "--steps-per-epoch", "5"]


# --------------------------------------------------------------------------------------------
# Launching, without training


def test_dry_run_prints_the_tf_config_each_host_needs_and_starts_nothing(capsys):
    hosts = ["10.0.0.1:2222", "10.0.0.2:2222"]
    run = cluster.launch_workers("train.py", hosts=hosts, args=["--epochs", 3], dry_run=True)
    out = capsys.readouterr().out
    for index, host in enumerate(hosts):
        expected = {"cluster": {"worker": hosts}, "task": {"type": "worker", "index": index}}
        assert f"export TF_CONFIG='{json.dumps(expected)}'" in out
        assert run.workers[index].tf_config == expected
    assert "python train.py --epochs 3" in out
    assert run.attempts == 0 and children() == []


def test_hosts_that_are_not_this_machine_need_a_dry_run(tmp_path):
    script = write_script(tmp_path, "pass\n")
    with pytest.raises(tfconfig.TFConfigError, match="not an address of this machine"):
        cluster.launch_workers(script, hosts=["192.0.2.1:2222", "192.0.2.2:2222"], echo=False)


def test_busy_port_is_reported_with_its_holder_before_any_worker_starts(tmp_path):
    script = write_script(tmp_path, "pass\n")
    with socket.socket() as holder:
        holder.bind(("", 0))
        holder.listen()
        busy = holder.getsockname()[1]
        with pytest.raises(
            supervisor.PortInUseError, match=f"port {busy} for worker 0 .* is already in use"
        ):
            cluster.launch_workers(
                script, hosts=[f"localhost:{busy}", *loopback_hosts(1)], echo=False
            )
    assert children() == []


@pytest.mark.cluster
def test_two_worker_custom_loop_on_keras3_ends_with_identical_weights_on_every_worker(tmp_path):
    run = cluster.launch_workers(
        worker.reference_script("mwms_ctl"),
        args=FAST,
        deadline_s=180,
        echo=False,
        workdir=tmp_path,
    )
    first, second = run.results
    assert [w.returncode for w in run.workers] == [0, 0]
    assert first["weights_sha256"] == second["weights_sha256"]
    assert first["loss"][-1] < first["loss"][0]
    assert run.events[-1]["event"] == "finished" and run.resumed_from is None
    assert_nothing_left(run.cluster["worker"])


@pytest.mark.cluster
def test_two_worker_fit_through_tf_keras_ends_with_identical_weights_on_every_worker(tmp_path):
    run = cluster.launch_workers(
        worker.reference_script("mwms_fit"),
        args=FAST,
        legacy_keras=True,
        deadline_s=180,
        echo=False,
        workdir=tmp_path,
    )
    first, second = run.results
    assert first["weights_sha256"] == second["weights_sha256"]
    assert first["loss"][-1] < first["loss"][0]
    assert any("tf.keras is tf_keras" in line for line in run.workers[0].log)
    assert_nothing_left(run.cluster["worker"])


@pytest.mark.cluster
@pytest.mark.parametrize("script, legacy_keras", [("mwms_ctl", False), ("mwms_fit", True)])
def test_killed_worker_is_restarted_with_its_peers_and_training_resumes_from_the_saved_epoch(
    script, legacy_keras, tmp_path
):
    run = cluster.launch_workers(
        worker.reference_script(script),
        args=["--epochs", "3", "--steps-per-epoch", "5"],
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
    assert first["weights_sha256"] == second["weights_sha256"]
    assert [w.restarts for w in run.workers] == [1, 1]
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

    threading.Thread(target=interrupt_once_both_joined, daemon=True).start()
    with pytest.raises(KeyboardInterrupt):
        cluster.launch_workers(
            script, hosts=hosts, deadline_s=600, workdir=tmp_path / "run", echo=False
        )
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


def _network_namespaces(tag):
    """Create two namespaces joined by a veth pair; return their names, or skip with the reason."""
    if shutil.which("ip") is None:
        pytest.skip("needs the `ip` command (iproute2)")
    names = [f"tfe{tag}a", f"tfe{tag}b"]
    commands = [
        ["ip", "netns", "add", names[0]],
        ["ip", "netns", "add", names[1]],
        ["ip", "link", "add", f"v{tag}a", "type", "veth", "peer", "name", f"v{tag}b"],
    ]
    for side, (name, address) in enumerate(zip(names, ["10.199.0.1/24", "10.199.0.2/24"])):
        dev = f"v{tag}{'ab'[side]}"
        commands += [
            ["ip", "link", "set", dev, "netns", name],
            ["ip", "-n", name, "addr", "add", address, "dev", dev],
            ["ip", "-n", name, "link", "set", dev, "up"],
            ["ip", "-n", name, "link", "set", "lo", "up"],
        ]
    for command in commands:
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            _remove_namespaces(names)
            pytest.skip(
                f"cannot create network namespaces here "
                f"({' '.join(command[:3])}: {done.stderr.strip()})"
            )
    return names


def _remove_namespaces(names):
    for name in names:  # deleting a namespace deletes its end of the veth pair, and so the pair
        subprocess.run(["ip", "netns", "del", name], capture_output=True)


@pytest.mark.cluster
def test_two_workers_in_separate_network_namespaces_train_like_two_hosts(tmp_path):
    names = _network_namespaces(uuid.uuid4().hex[:6])
    try:
        run = cluster.launch_workers(
            worker.reference_script("mwms_ctl"),
            hosts=["10.199.0.1:2222", "10.199.0.2:2222"],
            prefix=[["ip", "netns", "exec", name] for name in names],
            args=FAST,
            deadline_s=180,
            echo=False,
            workdir=tmp_path,
        )
    finally:
        _remove_namespaces(names)
    first, second = run.results
    assert first["weights_sha256"] == second["weights_sha256"]
    assert children() == []
