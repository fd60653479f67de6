"""TensorFlow workers as ipyparallel engines (tfdist_edu.engines): real engines, in order, and
nothing left running afterwards. Lesson 7 itself trains on two engines (its claims tests read
each worker's output); tests/slurm runs its cells on engines Slurm started."""

import json
import os
import signal

import psutil
import pytest

from tfdist_edu import engines


def _own_processes():
    return [p for p in psutil.Process().children(recursive=True) if p.is_running()]


@pytest.mark.slow
def test_a_killed_worker_dies_alone_a_restarted_one_takes_its_place_and_an_error_inside_the_with_block_stops_everything_else():
    before = {p.pid for p in _own_processes()}
    with pytest.raises(RuntimeError, match="a cell failed"):
        with engines.start(2) as workers:
            started = [p for p in _own_processes() if p.pid not in before]
            assert len(set(workers.pids)) == 2 and set(workers.pids) <= {p.pid for p in started}
            # The hub pings every 0.5 s (an engine registers at its first ping) and still allows
            # 30 s of silence; each engine allows the hub 150 s.
            command_lines = [" ".join(p.cmdline()) for p in started]
            assert any("--HeartMonitor.period=500 --HeartMonitor.max_heartmonitor_misses=60" in line
                       for line in command_lines), command_lines
            assert sum("--IPEngine.max_heartbeat_misses=300" in line for line in command_lines) >= 2
            assert workers.each(os.getpid) == workers.pids  # worker 0 first
            with pytest.raises(ValueError, match="there is no worker 2: the workers are 0 to 1"):
                workers.kill(2)
            workers.kill(1)
            psutil.Process(workers.pids[1]).wait(timeout=30)  # gone: wait() returns
            assert psutil.Process(workers.pids[0]).is_running()
            assert workers.client[workers.ids[0]].apply_sync(os.getpid) == workers.pids[0]
            with pytest.raises(ValueError, match="there is no worker 2: the workers are 0 to 1"):
                workers.restart(2)
            dead = workers.pids[1]
            assert workers.restart(1) == workers.pids[1] != dead  # a new engine is worker 1
            assert workers.each(os.getpid) == workers.pids
            tasks = [json.loads(config)["task"] for config in workers.each(os.getenv, "TF_CONFIG")]
            assert tasks == [{"type": "worker", "index": 0}, {"type": "worker", "index": 1}]
            started = [p for p in _own_processes() if p.pid not in before]
            raise RuntimeError("a cell failed")
    psutil.wait_procs(started, timeout=30)
    assert not [p for p in started if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]


def test_no_workers_is_refused_before_anything_starts():
    before = {p.pid for p in _own_processes()}
    with pytest.raises(ValueError, match="num_workers must be at least 1, got 0"):
        engines.start(0)
    assert {p.pid for p in _own_processes()} <= before



@pytest.mark.slow
def test_a_kernel_killed_outright_leaves_no_engine_or_controller_behind():
    from jupyter_client.manager import start_new_kernel

    from tfdist_edu.engines import watchdog

    manager, client = start_new_kernel(kernel_name="python3")
    try:
        said = []
        reply = client.execute_interactive(
            "import os\nfrom tfdist_edu import engines\nworkers = engines.start(2)\n"
            "print(workers.cluster.cluster_id, os.getpid(), *workers.pids)", timeout=120,
            output_hook=lambda msg: said.append(msg["content"]["text"])
            if msg["msg_type"] == "stream" and msg["content"]["name"] == "stdout" else None)
        assert reply["content"]["status"] == "ok", reply["content"].get("traceback")
        cluster_id, kernel_pid, *engine_pids = "".join(said).split()
        started = watchdog.cluster_processes(cluster_id)
        # the controller (and its helper processes) and both engines
        assert {int(pid) for pid in engine_pids} < {p.pid for p in started}, started
        kernel = psutil.Process(int(kernel_pid))
        os.kill(kernel.pid, signal.SIGKILL)  # no exit handler of the kernel runs
        kernel.wait(timeout=10)  # this test's own child: reaped here, as a Jupyter server does
        _, alive = psutil.wait_procs(started, timeout=30)
        assert not [p for p in alive if p.status() != psutil.STATUS_ZOMBIE], alive
        assert watchdog.cluster_processes(cluster_id) == []
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
