"""Real multi-worker clusters of local processes.

:func:`launch_workers` runs a training script as N worker processes on loopback ports, each with
its own TF_CONFIG (:mod:`tfdist_edu.tfconfig`), so a lesson can run MultiWorkerMirroredStrategy
for real on one machine. It streams each worker's output with a ``[worker i]`` prefix, enforces a
deadline, never leaves a process behind (:mod:`tfdist_edu.supervisor`), and can kill a worker
mid-training and restart the cluster to show fault tolerance. Scripts report back through
:mod:`tfdist_edu.worker`.

On real machines, ``launch_workers(script, hosts=[...], dry_run=True)`` prints the TF_CONFIG
and command each host needs; docs/multi-host.md shows Slurm and Kubernetes patterns.
Importing this module does not import TensorFlow.
"""

import dataclasses
import errno
import json
import os
import shlex
import socket
import sys
import tempfile
import time
from pathlib import Path

from tfdist_edu.supervisor import PortInUseError, Supervisor
from tfdist_edu.tfconfig import ClusterSpec, TFConfigError, split_address
from tfdist_edu.worker import KILL_EPOCH_ENV, PROGRESS_ENV, RESULT_ENV, RUN_DIR_ENV


def _port_holder(port):
    """A short description of the process listening on ``port``, or '' when it cannot be found."""
    try:
        import psutil

        for conn in psutil.net_connections("tcp"):
            if (
                conn.laddr
                and conn.laddr.port == port
                and conn.status == psutil.CONN_LISTEN
                and conn.pid
            ):
                proc = psutil.Process(conn.pid)
                return f" (held by pid {conn.pid}: {' '.join(proc.cmdline())[:80]})"
    except Exception:  # psutil missing, or no permission to see other users' sockets
        pass
    return ""


def _check_ports(spec, remote_ok):
    """Raise PortInUseError for a busy local port, TFConfigError for a host that is not this one."""
    for task_type, index, address in spec.tasks():
        host, port = split_address(address)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            # gRPC sets SO_REUSEADDR too: a port left in TIME_WAIT is fine, a listening one is not.
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind((host.strip("[]"), port))
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:
                    raise PortInUseError(
                        f"port {port} for {task_type} {index} ({address}) is already in use"
                        f"{_port_holder(port)}. "
                        "Stop that process, or leave `hosts` out to get free ports."
                    ) from None
                if remote_ok:
                    continue
                raise TFConfigError(
                    f"{address} ({task_type} {index}) is not an address of this machine "
                    f"({exc.strerror}); "
                    "to run on other hosts use dry_run=True and start the printed commands there"
                ) from None


def worker_env(base=None, threads=None, legacy_keras=False):
    """Return the environment for a TensorFlow child process.

    Quiet C++ logs, unbuffered output, this package importable, GPU memory grown on demand (so
    several processes can share one GPU), ``threads`` intra-op threads (defaults to this
    machine's cores shared among the workers by the caller), and ``TF_USE_LEGACY_KERAS=1`` only
    when ``legacy_keras`` is true, so tf.keras means tf-keras in that child alone.
    """
    env = dict(os.environ if base is None else base)
    env.pop("TF_CONFIG", None)  # a stale TF_CONFIG from the notebook must not leak into children
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    env["PYTHONUNBUFFERED"] = "1"
    env.setdefault("TF_FORCE_GPU_ALLOW_GROWTH", "true")
    package_root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    if threads:
        env["TF_NUM_INTRAOP_THREADS"] = str(threads)
        env["OMP_NUM_THREADS"] = str(threads)
        env["TF_NUM_INTEROP_THREADS"] = str(max(2, threads))
    if legacy_keras:
        env["TF_USE_LEGACY_KERAS"] = "1"
    else:
        env.pop("TF_USE_LEGACY_KERAS", None)
    return env


# --------------------------------------------------------------------------------------------
# The multi-worker launcher


@dataclasses.dataclass
class WorkerRecord:
    """What one worker did: its task, exit status, result JSON and filtered log lines."""

    index: int
    address: str
    tf_config: dict
    command: list
    returncode: int | None = None
    result: dict | None = None
    log: list = dataclasses.field(default_factory=list)
    restarts: int = 0


@dataclasses.dataclass
class ClusterRun:
    """The record of one :func:`launch_workers` call.

    ``workers[i].result`` is the dict worker i passed to :func:`write_result`; ``events`` lists
    what happened in order (``{"t": seconds, "event": ..., "worker": i, "detail": ...}``: started,
    resumed, killed, peer failed, peer stuck, restarted, finished); ``resumed_from`` is the epoch
    training resumed from after a restart (None without one); ``attempts`` counts cluster starts.
    """

    cluster: dict
    workers: list
    events: list = dataclasses.field(default_factory=list)
    attempts: int = 0
    resumed_from: int | None = None
    seconds: float = 0.0
    workdir: str = ""

    @property
    def results(self):
        """Each worker's result dict (None for a worker that wrote none), by worker index."""
        return [w.result for w in self.workers]

    def __str__(self):
        lines = [f"{len(self.workers)} workers, {self.attempts} start(s), {self.seconds:.1f} s"]
        for w in self.workers:
            status = "not started" if w.returncode is None else f"exit {w.returncode}"
            lines.append(f"  worker {w.index} {w.address}: {status}, {w.restarts} restart(s)")
        lines += [f"  {e['t']:6.1f} s  {e['event']}: {e['detail']}" for e in self.events]
        return "\n".join(lines)


def _read_progress(path):
    try:
        return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    except (OSError, ValueError):
        return []


def _print_plan(spec, command):
    print("Start the same command on every host; only TF_CONFIG differs.\n")
    for task_type, index, address in spec.tasks():
        who = " (the chief)" if spec.is_chief(task_type, index) else ""
        print(f"# on {address.rpartition(':')[0]}: {task_type} {index}{who}")
        print(f"export TF_CONFIG='{json.dumps(spec.tf_config(task_type, index))}'")
        print(shlex.join(command) + "\n")


def launch_workers(
    script,
    num_workers=2,
    hosts=None,
    args=(),
    deadline_s=300,
    env=None,
    legacy_keras=False,
    kill=None,
    echo=True,
    dry_run=False,
    prefix=None,
    workdir=None,
):
    """Run ``python script *args`` as a multi-worker cluster and return a :class:`ClusterRun`.

    Each worker gets its own TF_CONFIG (``num_workers`` workers on free loopback ports, or one
    per ``hosts`` entry, ``"host:port"``, which then sets the number of workers), the paths of
    its result and progress files (``TFDIST_EDU_RESULT``, ``TFDIST_EDU_PROGRESS``) and a shared
    ``TFDIST_EDU_RUN_DIR`` (``workdir``, a new temporary directory by default) for checkpoints.
    Output streams live as ``[worker i] ...`` when ``echo`` is true. ``env`` adds variables;
    ``legacy_keras=True`` sets ``TF_USE_LEGACY_KERAS=1`` in the workers only, so ``tf.keras``
    there is tf-keras while this process stays on Keras 3.

    ``kill=(k, epoch)`` simulates a machine failure: worker k waits inside
    ``report_epoch(epoch)`` and is SIGKILLed once every worker has reported that epoch (so the
    chief's checkpoint of it exists); then the launcher restarts the cluster. As
    MultiWorkerMirroredStrategy cannot replace one worker, every worker is restarted (the
    survivors first get ``PEER_GRACE_S`` seconds to fail on their own) and the script resumes
    from its checkpoint or backup. The events and ``resumed_from`` of the returned record show it.

    ``dry_run=True`` starts nothing: it prints the TF_CONFIG and command for every host (use it
    with ``hosts`` for real machines). ``prefix`` is a list, per worker, of argv words to put
    before the command (e.g. ``["ip", "netns", "exec", "h1"]``).

    Raises :class:`WorkerFailed` (a worker exited non-zero; named, with its last lines),
    :class:`ClusterTimeout` (``deadline_s`` passed for the whole run; all killed),
    :class:`PortInUseError` and :class:`TFConfigError`. A KeyboardInterrupt kills every worker
    and is re-raised. No worker process outlives the call.
    """
    script = Path(script)
    if not dry_run and not script.is_file():
        raise FileNotFoundError(
            f"no worker script at {script} (write it first, e.g. with %%writefile)"
        )
    if hosts is not None:
        spec = ClusterSpec({"worker": list(hosts)})
    else:
        if not isinstance(num_workers, int) or num_workers < 1:
            raise TFConfigError(f"num_workers must be a positive int, got {num_workers!r}")
        spec = ClusterSpec.local(workers=num_workers)
    num_workers = len(spec.tasks())
    if prefix is not None and len(prefix) != num_workers:
        raise ValueError(
            f"prefix needs one argv list per worker ({num_workers}), got {len(prefix)}"
        )
    if kill is not None:
        k, kill_epoch = kill
        if not 0 <= k < num_workers or kill_epoch < 1:
            raise ValueError(
                f"kill=(worker, epoch) needs 0 <= worker < {num_workers} and epoch >= 1, "
                f"got {kill!r}"
            )
    command = [sys.executable, "-u", str(script), *map(str, args)]
    records = [
        WorkerRecord(
            i,
            address,
            spec.tf_config("worker", i),
            list((prefix or [[]] * num_workers)[i]) + command,
        )
        for i, (_, _, address) in enumerate(spec.tasks())
    ]
    run = ClusterRun(cluster=spec.as_dict(), workers=records)
    if dry_run:
        _print_plan(spec, ["python", str(script), *map(str, args)])
        return run

    _check_ports(spec, remote_ok=prefix is not None)
    run.workdir = str(workdir or tempfile.mkdtemp(prefix="tfdist-cluster-"))
    Path(run.workdir).mkdir(parents=True, exist_ok=True)
    threads = max(1, (os.cpu_count() or 1) // num_workers)
    env = worker_env({**os.environ, **(env or {})}, threads=threads, legacy_keras=legacy_keras)
    return _MultiWorkerRun(run, env, Supervisor(deadline_s, echo=echo), kill).execute()


# How long the survivors of a killed worker get to fail by themselves before they are killed.
# Measured with TF 2.21: a peer inside a collective fails at once ("Socket closed"); otherwise the
# coordination service misses the dead task's heartbeats and fails the peer within about 10 s,
# with UnavailableError. Neither recovers: MultiWorkerMirroredStrategy needs the full cluster back.
PEER_GRACE_S = 15.0


class _MultiWorkerRun:
    """One launch_workers call: start workers, watch progress, kill and restart, collect."""

    def __init__(self, run, env, sup, kill):
        self.run, self.env, self.sup, self.pending_kill = run, env, sup, kill
        self.started = time.monotonic()
        self.seen_start = set()

    def execute(self):
        try:
            with self.sup:  # on any error or KeyboardInterrupt it kills every worker
                self.start_all()
                self.sup.wait(on_tick=self.on_tick, run=self.run)
        finally:
            self.run.seconds = round(time.monotonic() - self.started, 2)
            self.collect()
        self.event("finished", None, "every worker exited with status 0")
        return self.run

    def event(self, name, worker, detail):
        self.run.events.append(
            {
                "t": round(time.monotonic() - self.started, 2),
                "event": name,
                "worker": worker,
                "detail": detail,
            }
        )

    def paths(self, index):
        """The result JSON and progress file of one worker."""
        base = Path(self.run.workdir, f"worker-{index}")
        return base.with_suffix(".json"), base.with_suffix(".progress")

    def epochs_done(self, index):
        marks = _read_progress(self.paths(index)[1])
        return max([m["epoch"] for m in marks if m["event"] == "epoch"], default=0)

    def start_all(self):
        self.run.attempts += 1
        for rec in self.run.workers:
            result, progress = self.paths(rec.index)
            result.unlink(missing_ok=True)
            progress.unlink(missing_ok=True)
            env = {
                **self.env,
                "TF_CONFIG": json.dumps(rec.tf_config),
                RESULT_ENV: str(result),
                PROGRESS_ENV: str(progress),
                RUN_DIR_ENV: self.run.workdir,
            }
            if self.pending_kill is not None and self.pending_kill[0] == rec.index:
                env[KILL_EPOCH_ENV] = str(self.pending_kill[1])
            self.sup.start(f"worker {rec.index}", rec.command, env=env)
        self.event("started", None, f"attempt {self.run.attempts}: {len(self.run.workers)} workers")

    def on_tick(self):
        for rec in self.run.workers:
            for mark in _read_progress(self.paths(rec.index)[1]):
                key = (self.run.attempts, rec.index)
                if mark["event"] == "start" and key not in self.seen_start:
                    self.seen_start.add(key)
                    if mark["epoch"] > 0 or self.run.attempts > 1:
                        self.run.resumed_from = mark["epoch"]
                        self.event(
                            "resumed",
                            rec.index,
                            f"worker {rec.index} resumed from epoch {mark['epoch']}",
                        )
        if self.pending_kill is None:
            return
        k, kill_epoch = self.pending_kill
        # Wait until every worker finished the epoch, so the chief's checkpoint of it exists.
        reached = [self.epochs_done(rec.index) for rec in self.run.workers]
        if min(reached) >= kill_epoch:
            self.pending_kill = None
            self.sup.kill(f"worker {k}")
            self.event("killed", k, f"worker {k} SIGKILLed after epoch {reached[k]}")
            self.settle_survivors(k)
            for rec in self.run.workers:
                rec.log += [*self.sup.children[f"worker {rec.index}"].lines, "--- restart ---"]
                rec.restarts += 1
            self.start_all()
            self.event("restarted", None, "all workers restarted with the same TF_CONFIG")

    def settle_survivors(self, killed):
        """Give the others PEER_GRACE_S to fail by themselves, record how, kill the rest."""
        survivors = {
            r.index: self.sup.children[f"worker {r.index}"]
            for r in self.run.workers
            if r.index != killed
        }
        end = time.monotonic() + PEER_GRACE_S
        while time.monotonic() < end and any(c.proc.poll() is None for c in survivors.values()):
            self.sup.pump()
            time.sleep(0.1)
        for index, child in survivors.items():
            code = child.proc.poll()
            if code is None:
                self.sup.kill(child.name)
                self.event(
                    "peer stuck",
                    index,
                    f"{child.name} was still blocked after {PEER_GRACE_S:g} s: killed",
                )
            else:
                child.expected_exit = True
                self.event(
                    "peer failed",
                    index,
                    f"{child.name} exited with status {code} when its peer died",
                )

    def collect(self):
        for rec in self.run.workers:
            child = self.sup.children.get(f"worker {rec.index}")
            if child is not None:
                rec.log += list(child.lines)
                rec.returncode = child.proc.returncode
            result = self.paths(rec.index)[0]
            try:
                rec.result = json.loads(result.read_text())
            except (OSError, ValueError):  # not written, or cut short by a kill
                rec.result = None
