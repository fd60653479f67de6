"""Several JAX processes on one machine, as lesson 9 runs its two-worker ``fit``.

Each process gets the three variables ``keras.distribution.initialize()`` reads (the
coordinator's loopback address, the number of processes, its own id), one CPU device, the
JAX backend, and the course's result and progress files (``tfdist_edu.worker``). They run
under the course's ``Supervisor``: own process groups, output streamed as ``[process i]``,
a deadline, and every process SIGKILLed when one fails, so none is left behind.
"""

import dataclasses
import json
import os
import signal
import socket
import sys
import tempfile
import time
import warnings
from pathlib import Path

from tfdist_edu import worker
from tfdist_edu.keras_jax.backend import cpu_devices_flag
from tfdist_edu.supervisor import Supervisor, WorkerFailed

PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])  # the folder holding tfdist_edu/


@dataclasses.dataclass
class JaxRun:
    """What ``run_workers`` returns: each process's result dict, the coordinator, the time."""

    coordinator: str
    results: list
    seconds: float
    workdir: str


def free_port():
    """A TCP port on the loopback interface that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def process_env(process_id, num_processes, coordinator, workdir, base=None):
    """The environment of JAX process ``process_id``: backend, one CPU device (GPUs hidden, so
    processes never share one), the cluster's three variables, its result and progress files."""
    env = dict(os.environ if base is None else base)
    env.pop("TF_CONFIG", None)
    env.update({
        "KERAS_BACKEND": "jax", "PYTHONUNBUFFERED": "1", "JAX_PLATFORMS": "cpu",
        "XLA_FLAGS": cpu_devices_flag(1, env.get("XLA_FLAGS", "")),
        "KERAS_DISTRIBUTION_JOB_ADDRESSES": coordinator,
        "KERAS_DISTRIBUTION_NUM_PROCESSES": str(num_processes),
        "KERAS_DISTRIBUTION_PROCESS_ID": str(process_id),
        worker.RESULT_ENV: str(Path(workdir) / f"result-{process_id}.json"),
        worker.PROGRESS_ENV: str(Path(workdir) / f"progress-{process_id}.jsonl"),
        worker.RUN_DIR_ENV: str(workdir),
        "PYTHONPATH": os.pathsep.join(p for p in (PACKAGE_ROOT, env.get("PYTHONPATH")) if p),
    })
    return env


def run_workers(script, num_processes=2, args=(), deadline_s=300, echo=True, kill=None):
    """Run ``python script *args`` as ``num_processes`` JAX processes; return a ``JaxRun``.

    ``kill=(k, epoch)`` SIGKILLs process k once it reports ``epoch`` (``worker.report_epoch``),
    as a machine that loses power would. Raises ``WorkerFailed`` naming the process that
    failed (the others killed), ``ClusterTimeout`` at the deadline; no process outlives the call.
    """
    script = Path(script)
    if not script.is_file():
        raise FileNotFoundError(f"no worker script at {script} (write it first, e.g. with %%writefile)")
    if not isinstance(num_processes, int) or num_processes < 1:
        raise ValueError(f"num_processes must be a positive integer, got {num_processes!r}")
    if kill is not None and not (0 <= kill[0] < num_processes and kill[1] >= 1):
        raise ValueError(f"kill=(process, epoch) needs 0 <= process < {num_processes} and epoch >= 1, got {kill!r}")
    workdir = tempfile.mkdtemp(prefix="tfdist-jax-")
    coordinator = f"localhost:{free_port()}"
    command = [sys.executable, "-u", str(script), *map(str, args)]
    start = time.perf_counter()
    with Supervisor(deadline_s, echo=echo) as sup, warnings.catch_warnings():
        # JAX warns at every fork in a process where it runs; each child execs a fresh Python
        # at once (the fork runs no JAX code), so the warning says nothing about these.
        warnings.filterwarnings("ignore", message=r"os\.fork\(\) was called", category=RuntimeWarning)
        children = [sup.start(f"process {i}", command, env=process_env(i, num_processes, coordinator, workdir))
                    for i in range(num_processes)]
        sup.wait(on_tick=_killer(children, workdir, kill) if kill else None)
    results = []
    for i in range(num_processes):
        path = Path(workdir) / f"result-{i}.json"
        if not path.exists():
            raise WorkerFailed(f"process {i} exited with status 0 but wrote no result "
                               f"(worker.write_result) to {path}")
        results.append(json.loads(path.read_text()))
    return JaxRun(coordinator, results, time.perf_counter() - start, workdir)


def _killer(children, workdir, kill):
    """An on_tick that SIGKILLs process k once its progress file reports the epoch."""
    k, epoch = kill
    progress = Path(workdir) / f"progress-{k}.jsonl"

    def tick():
        if children[k].proc.poll() is not None or not progress.exists():
            return
        done = [json.loads(line) for line in progress.read_text().splitlines() if line.strip()]
        if any(e["event"] == "epoch" and e["epoch"] >= epoch for e in done):
            os.kill(children[k].proc.pid, signal.SIGKILL)  # not sup.kill: this death is a failure

    return tick
