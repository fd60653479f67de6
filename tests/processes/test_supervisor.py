"""Tests for tfdist_edu.supervisor: child processes that leave nothing behind, and what a
student sees of their output."""

import subprocess
import sys

import psutil
import pytest

from tfdist_edu import supervisor

# A child that starts a grandchild (same process group), prints its pid and then waits.
PARENT_OF_SLEEPER = (
    "import subprocess, sys, time; "
    "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)']); "
    "print(p.pid, flush=True); time.sleep(600)"
)


def test_kill_group_kills_the_child_and_the_grandchild_it_started():
    proc = supervisor.spawn([sys.executable, "-c", PARENT_OF_SLEEPER], stdout=subprocess.PIPE)
    grandchild = psutil.Process(int(proc.stdout.readline()))
    supervisor.kill_group(proc)
    assert proc.returncode == -9, "the child was SIGKILLed and reaped"
    grandchild.wait(timeout=5)  # raises psutil.TimeoutExpired if it survived


def test_a_spawned_child_dies_when_the_process_that_started_it_dies():
    starter = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time; from tfdist_edu import supervisor; "
         "p = supervisor.spawn([sys.executable, '-c', 'import time; time.sleep(600)']); "
         "print(p.pid, flush=True); time.sleep(600)"],
        stdout=subprocess.PIPE,
    )
    child = psutil.Process(int(starter.stdout.readline()))
    starter.kill()
    starter.wait()
    child.wait(timeout=5)  # the kernel's parent-death signal killed it
    assert not child.is_running()


def test_log_filter_hides_tensorflow_start_up_noise_but_keeps_errors_and_prints():
    assert supervisor.is_log_noise(
        "I0000 00:00:1795315692.067195   11182 cudart_stub.cc:31] Could not find cuda"
    )
    assert supervisor.is_log_noise(
        "E0000 00:00:17.2   11 cuda_platform.cc:52] failed call to cuInit: INTERNAL"
    )
    assert supervisor.is_log_noise(
        "WARNING: All log messages before absl::InitializeLog() is called are written"
    )
    assert not supervisor.is_log_noise(
        "E0000 00:00:17.2   11 grpc_server_lib.cc:618] UNKNOWN: Could not start gRPC server"
    )
    assert not supervisor.is_log_noise("epoch 1/3: loss 1.49")


# What a worker of lesson 7 printed when its peer was killed on purpose (07[51] before the filter).
PEER_KILLED = [
    "E0000 00:00:1795604735.703690   23710 ring_alg.cc:291] Aborting RingReduce with UNAVAILABLE: "
    "recvmsg:Connection reset by peer",
    "Additional GRPC error information from remote target /job:worker/replica:0/task:1 while "
    "calling /tensorflow.WorkerService/RecvBuf:",
    ':UNKNOWN:Error received from peer  {grpc_message:"recvmsg:Connection reset by peer", grpc_status:14}',
    "E0000 00:00:1795604735.703753   23710 base_collective_executor.cc:252] "
    "BaseCollectiveExecutor::StartAbort UNAVAILABLE: recvmsg:Connection reset by peer",
]


def test_the_errors_grpc_prints_when_a_peer_goes_away_are_not_streamed():
    assert all(supervisor.is_log_noise(line) for line in PEER_KILLED)


def test_a_failed_worker_is_reported_with_its_full_log_the_hidden_lines_included():
    script = "import sys\n" + "".join(f"print({line!r})\n" for line in PEER_KILLED) + "sys.exit(3)\n"
    with supervisor.Supervisor(deadline_s=60, echo=False) as sup:
        sup.start("worker 0", [sys.executable, "-c", script])
        try:
            sup.wait()
        except supervisor.WorkerFailed as failure:
            message = str(failure)
        else:
            raise AssertionError("the worker's exit status 3 was not reported")
    assert "exited with status 3" in message and "Aborting RingReduce" in message
    assert "Error received from peer" in message
    assert not sup.children["worker 0"].lines, "nothing of it was streamed"


@pytest.mark.parametrize("line", [
    "The error could be from a previous operation. Restart your program to reset.",
    "\t [[{{node adam/CollectiveReduceV2}}]] [Op:__inference_one_step_on_data_1234]",
    "/job:worker/replica:0/task:1",
    "The tasks have crashed. Check the task logs for details.",
])
def test_the_continuation_lines_of_a_peer_gone_error_are_hidden(line):
    from tfdist_edu.supervisor import is_log_noise

    assert is_log_noise(line)


def test_a_workers_own_error_line_stays_visible():
    from tfdist_edu.supervisor import is_log_noise

    assert not is_log_noise("RuntimeError: worker 1 could not read its data")
