"""TF_CONFIG, and real multi-worker clusters of local processes.

A multi-worker job is the same Python script started once per machine; the only thing that
differs between the copies is the ``TF_CONFIG`` environment variable, which tells each process
the whole cluster (``"cluster"``) and which task it is (``"task"``)::

    {"cluster": {"worker": ["10.0.0.1:12345", "10.0.0.2:12345"]},
     "task": {"type": "worker", "index": 0}}

This module builds and checks that value (:func:`tf_config`, :class:`ClusterSpec`), and runs a
training script as N worker processes on loopback ports (:func:`launch_workers`), so a lesson
can run MultiWorkerMirroredStrategy for real on one machine. The launcher streams each worker's
output with a ``[worker i]`` prefix, enforces a deadline (workers waiting for their peers ignore
SIGINT and SIGTERM, so it uses SIGKILL on the whole process group), never leaves a process
behind, and can kill a worker mid-training and restart the cluster to show fault tolerance.

On real machines, ``launch_workers(script, hosts=[...], dry_run=True)`` prints the TF_CONFIG
and command each host needs; docs/multi-host.md shows Slurm and Kubernetes patterns.

Worker scripts talk back to the launcher through three small functions that are no-ops when a
script runs on its own: :func:`report_start` (the epoch it starts or resumes from),
:func:`report_epoch` (after each epoch) and :func:`write_result` (a JSON-able dict).

Importing this module does not import TensorFlow.
"""

import collections
import ctypes
import dataclasses
import errno
import json
import os
import queue
import re
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

TASK_TYPES = ("chief", "worker", "ps", "evaluator")

# Environment variables the launcher gives each worker (see report_start and friends).
RESULT_ENV = "TFDIST_EDU_RESULT"  # path of the JSON file write_result() fills
PROGRESS_ENV = "TFDIST_EDU_PROGRESS"  # path of the file report_start/report_epoch append to
RUN_DIR_ENV = "TFDIST_EDU_RUN_DIR"  # a directory shared by all workers of one run
KILL_EPOCH_ENV = "TFDIST_EDU_KILL_AT_EPOCH"  # set for the worker launch_workers(kill=...) will kill

SCRIPTS_DIR = Path(__file__).resolve().parent / "scripts"

_LOOPBACK_NAMES = {"localhost": "127.0.0.1", "::1": "127.0.0.1", "[::1]": "127.0.0.1"}


class TFConfigError(ValueError):
    """A cluster or task description that TF_CONFIG cannot express."""


class ClusterError(RuntimeError):
    """A local cluster run that went wrong; ``.run`` holds what was recorded until then."""

    def __init__(self, message, run=None):
        super().__init__(message)
        self.run = run


class WorkerFailed(ClusterError):
    """A worker exited with a non-zero status; the other workers were killed."""


class ClusterTimeout(ClusterError):
    """The deadline passed with workers still running; all of them were killed."""


class PortInUseError(ClusterError):
    """A port the cluster needs is held by another process."""


# --------------------------------------------------------------------------------------------
# TF_CONFIG


def _split_address(address):
    """Return (host, port) of a "host:port" string, or raise TFConfigError."""
    if not isinstance(address, str) or ":" not in address:
        raise TFConfigError(
            f"{address!r} is not a 'host:port' address (e.g. 'localhost:12345' or '10.0.0.1:2222')"
        )
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise TFConfigError(
            f"{address!r} is not a 'host:port' address with a port between 1 and 65535"
        )
    return host, int(port)


def _same_machine_key(address):
    host, port = _split_address(address)
    host = host.lower()
    return _LOOPBACK_NAMES.get(host, host), port


class ClusterSpec:
    """A checked cluster description: task type -> list of ``"host:port"`` addresses.

    ``ClusterSpec({"worker": ["localhost:2222", "localhost:2223"]})`` raises
    :class:`TFConfigError` with a clear message for unknown task types, malformed or duplicate
    addresses, more than one chief or evaluator, and a parameter-server cluster without a chief
    (its coordinator) or without workers. ``print(spec)`` explains the cluster task by task;
    ``spec.tf_config("worker", 1)`` is the TF_CONFIG dict of one task.
    """

    def __init__(self, cluster):
        if isinstance(cluster, ClusterSpec):
            cluster = cluster.as_dict()
        if not isinstance(cluster, dict):
            raise TFConfigError(
                "a cluster is a dict of task type -> list of 'host:port', "
                f"not {type(cluster).__name__}"
            )
        self._jobs = {}
        seen = {}
        for task_type in TASK_TYPES:  # a fixed order makes printing and TF_CONFIG stable
            if task_type not in cluster:
                continue
            addresses = cluster[task_type]
            if isinstance(addresses, str) or not isinstance(addresses, (list, tuple)):
                raise TFConfigError(
                    f"cluster[{task_type!r}] must be a list of 'host:port' strings, "
                    f"got {addresses!r}"
                )
            if not addresses:
                raise TFConfigError(
                    f"cluster[{task_type!r}] is empty: leave the task type out instead"
                )
            for index, address in enumerate(addresses):
                key = _same_machine_key(address)
                if key in seen:
                    raise TFConfigError(
                        f"address {address} is used by both {seen[key]} and {task_type} {index}: "
                        "every task needs its own host:port"
                    )
                seen[key] = f"{task_type} {index}"
            self._jobs[task_type] = list(addresses)
        unknown = sorted(set(cluster) - set(TASK_TYPES))
        if unknown:
            raise TFConfigError(
                f"unknown task type {unknown[0]!r} in the cluster; "
                f"TF_CONFIG knows {', '.join(TASK_TYPES)}"
            )
        for single in ("chief", "evaluator"):
            if len(self._jobs.get(single, [])) > 1:
                raise TFConfigError(
                    f"a cluster has at most one {single}, got {len(self._jobs[single])}"
                )
        if "ps" in self._jobs and "chief" not in self._jobs:
            raise TFConfigError(
                "a parameter-server cluster needs a 'chief' task: "
                "the coordinator that runs the training loop"
            )
        if "ps" in self._jobs and "worker" not in self._jobs:
            raise TFConfigError(
                "a parameter-server cluster needs at least one 'worker' to run the steps"
            )
        if not {"chief", "worker"} & set(self._jobs):
            raise TFConfigError("a cluster needs at least one 'worker' or a 'chief' to train")

    @classmethod
    def local(cls, workers=2, ps=0, chief=False, host="localhost"):
        """Return a cluster on free ports of this machine: workers, ps and, if asked, a chief."""
        counts = {"chief": int(chief), "worker": workers, "ps": ps}
        ports = iter(free_ports(sum(counts.values())))
        return cls({t: [f"{host}:{next(ports)}" for _ in range(n)] for t, n in counts.items() if n})

    def as_dict(self):
        """The cluster as a plain dict (the ``"cluster"`` part of TF_CONFIG)."""
        return {task_type: list(addresses) for task_type, addresses in self._jobs.items()}

    def tasks(self):
        """Every task as ``(task_type, index, address)``, chief first."""
        return [(t, i, a) for t, addresses in self._jobs.items() for i, a in enumerate(addresses)]

    def is_chief(self, task_type, index):
        """True for the task that saves checkpoints: the chief, or worker 0 if there is none."""
        if "chief" in self._jobs:
            return task_type == "chief"
        return task_type == "worker" and index == 0

    def tf_config(self, task_type, index):
        """Return the TF_CONFIG dict for one task, checking that the task exists in this cluster."""
        if task_type not in TASK_TYPES:
            raise TFConfigError(
                f"unknown task type {task_type!r}; TF_CONFIG knows {', '.join(TASK_TYPES)}"
            )
        if isinstance(index, bool) or not isinstance(index, int):
            raise TFConfigError(f"a task index is an int, got {index!r}")
        # An evaluator may sit outside the training cluster, as TensorFlow allows.
        if task_type not in self._jobs and task_type != "evaluator":
            raise TFConfigError(
                f"task type {task_type!r} is not in this cluster (it has: {', '.join(self._jobs)})"
            )
        count = len(self._jobs.get(task_type, [None]))
        if not 0 <= index < count:
            raise TFConfigError(
                f"{task_type} index {index} is out of range: the cluster has {count} {task_type} "
                f"task{'s' if count != 1 else ''} (indices 0-{count - 1})"
            )
        return {"cluster": self.as_dict(), "task": {"type": task_type, "index": index}}

    def __repr__(self):
        return f"ClusterSpec({self.as_dict()!r})"

    def __str__(self):
        roles = {
            "chief": "the chief: coordinates training and saves checkpoints",
            "worker": "runs training steps on its share of the data",
            "ps": "parameter server: holds variables (or shards of them)",
            "evaluator": "evaluates the checkpoints training writes",
        }
        lines = [f"A cluster of {len(self.tasks())} tasks:"]
        for task_type, index, address in self.tasks():
            role = roles[task_type]
            if task_type == "worker" and self.is_chief(task_type, index):
                role += "; also the chief (no 'chief' task): saves checkpoints"
            lines.append(f"  {f'{task_type} {index}':<11} {address:<22} {role}")
        lines.append(
            'Each process gets TF_CONFIG = {"cluster": <these addresses>, '
            '"task": {"type": ..., "index": ...}}'
        )
        lines.append("with its own task: the same script runs everywhere.")
        return "\n".join(lines)


def tf_config(cluster, task_type, index, as_json=False):
    """Return the TF_CONFIG of task ``(task_type, index)`` in ``cluster`` (a dict or ClusterSpec).

    The result is a dict ``{"cluster": ..., "task": {"type": ..., "index": ...}}``, or its JSON
    string when ``as_json`` is true (what ``os.environ["TF_CONFIG"]`` holds). Raises
    :class:`TFConfigError` naming the problem for any invalid cluster or task.
    """
    config = ClusterSpec(cluster).tf_config(task_type, index)
    return json.dumps(config) if as_json else config


def free_ports(n):
    """Return ``n`` distinct TCP ports that were free a moment ago (the OS picks: bind to 0)."""
    sockets = []
    try:
        for _ in range(n):  # hold every socket until all are picked, so the ports differ
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("", 0))
            sockets.append(s)
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


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
        host, port = _split_address(address)
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


# --------------------------------------------------------------------------------------------
# Worker side: how a script reports to the launcher. Each is a no-op outside the launcher.


def _append_progress(event, epoch):
    path = os.environ.get(PROGRESS_ENV)
    if path:
        with open(path, "a") as f:
            f.write(json.dumps({"event": event, "epoch": int(epoch), "time": time.time()}) + "\n")


def report_start(initial_epoch):
    """Tell the launcher training starts at ``initial_epoch`` (> 0 after a restore)."""
    _append_progress("start", initial_epoch)


def report_epoch(epoch):
    """Tell the launcher ``epoch`` epochs are complete (call after each epoch and its checkpoint).

    In the worker that ``launch_workers(kill=(k, epoch))`` targets, this call then waits for the
    launcher's SIGKILL, so the kill lands right after that epoch however fast training runs.
    """
    _append_progress("epoch", epoch)
    if os.environ.get(KILL_EPOCH_ENV) == str(int(epoch)):
        print(f"epoch {epoch} done: waiting for the launcher to kill this worker", flush=True)
        time.sleep(3600)


def write_result(data):
    """Write ``data`` (a JSON-able dict) as this worker's result; the launcher returns it.

    Returns the path written, or None when the script runs outside the launcher.
    """
    path = os.environ.get(RESULT_ENV)
    if path:
        Path(path).write_text(json.dumps(data))
    return path


def reference_script(name):
    """Path of a reference multi-worker script shipped with the package: "mwms_ctl" or "mwms_fit".

    mwms_ctl: a Keras 3 custom loop with tf.train.CheckpointManager. mwms_fit: ``Model.fit`` with
    BackupAndRestore through tf-keras (launch it with ``legacy_keras=True``).
    """
    if name not in ("mwms_ctl", "mwms_fit"):
        raise ValueError(f"no reference script {name!r}; choose 'mwms_ctl' or 'mwms_fit'")
    return SCRIPTS_DIR / f"{name}.py"


# --------------------------------------------------------------------------------------------
# Supervising child processes

# Lines TensorFlow's C++ runtime writes at start-up that tell a student nothing: absl INFO and
# WARNING lines (TF_CPP_MIN_LOG_LEVEL does not reach those written before absl is initialised),
# the CPU-feature banner, and CUDA probing on machines without a GPU.
_ABSL_LINE = re.compile(r"^([IWEF])\d{4} [\d:.]+\s+\d+ (\S+?):\d+\] ")
_NOISE = re.compile(
    r"All log messages before absl::InitializeLog|To enable the following instructions:|"
    r"rebuild TensorFlow with the appropriate compiler flags|oneDNN custom operations|"
    r"Unable to register cu(DNN|FFT|BLAS) factory|TF-TRT Warning|"
    r"computation placer already registered"
)


def is_log_noise(line):
    """True for TensorFlow log lines hidden from the streamed output (they stay in the full log)."""
    match = _ABSL_LINE.match(line)
    if match:
        level, source = match.groups()
        return level in "IW" or source.startswith(("cuda", "cudart")) or bool(_NOISE.search(line))
    return bool(_NOISE.search(line))


def _death_signal_setter():
    """A function for Popen's preexec_fn that makes the kernel SIGKILL the child if we die first.

    Linux only (prctl PR_SET_PDEATHSIG); None elsewhere. prctl is looked up here, in the parent,
    because loading libraries between fork and exec can deadlock a multi-threaded parent.
    """
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    sigkill = int(signal.SIGKILL)
    return lambda: prctl(1, sigkill)


class _Child:
    """One child process: its own process group, its output lines and when it last spoke."""

    def __init__(self, name, argv, env, cwd, service):
        self.name, self.argv, self.service = name, list(argv), service
        self.lines = collections.deque(maxlen=4000)  # filtered output
        self.full_log = collections.deque(maxlen=4000)  # everything, noise included
        self.last_output = time.monotonic()
        self.expected_exit = False  # set when the supervisor kills it on purpose
        self.proc = subprocess.Popen(
            self.argv,
            env=env,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # own process group: killing the group leaves nothing behind
            preexec_fn=_death_signal_setter(),  # even a crashed notebook kernel leaves no worker
        )

    def kill(self):
        """SIGKILL the whole process group (workers waiting for peers ignore SIGTERM); reap it."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.proc.wait()

    def last_lines(self, n=12):
        return list(self.lines)[-n:] or list(self.full_log)[-n:]


class Supervisor:
    """Runs child processes in their own process groups, streams their output, enforces a deadline.

    Shared by :func:`launch_workers` and :mod:`tfdist_edu.parameter_server`. Use it as a context
    manager: leaving the block (normally, on an error, or on KeyboardInterrupt) SIGKILLs every
    child still running and reaps it, so nothing is orphaned. Output lines are echoed from the
    calling thread as ``[name] line`` (TensorFlow noise filtered), which keeps them in the right
    notebook cell.
    """

    def __init__(self, deadline_s, echo=True):
        self.deadline = time.monotonic() + deadline_s
        self.deadline_s = deadline_s
        self.echo = echo
        self.children = {}
        self._queue = queue.Queue()
        self._readers = []

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        # A second Ctrl-C while killing must not leave children behind: finish, then re-raise it.
        interrupt = None
        for _ in range(3):
            try:
                self.kill_all()
                break
            except KeyboardInterrupt as caught:
                interrupt = caught
        if interrupt is not None and exc_type is None:
            raise interrupt
        return False

    def start(self, name, argv, env=None, cwd=None, service=False):
        """Start child ``name``; a ``service`` child (a server) is not waited for, only killed."""
        child = _Child(name, argv, env, cwd, service)
        self.children[name] = child
        reader = threading.Thread(target=self._read, args=(child,), daemon=True)
        reader.start()
        self._readers.append(reader)
        return child

    def _read(self, child):
        for raw in iter(child.proc.stdout.readline, b""):
            self._queue.put((child, raw.decode("utf-8", "replace").rstrip("\n")))
        child.proc.stdout.close()

    def pump(self):
        """Move output that arrived into each child's log, echoing the lines that are not noise."""
        while True:
            try:
                child, line = self._queue.get_nowait()
            except queue.Empty:
                return
            child.full_log.append(line)
            child.last_output = time.monotonic()
            if not is_log_noise(line):
                child.lines.append(line)
                if self.echo:
                    print(f"[{child.name}] {line}", flush=True)

    def kill(self, name):
        """SIGKILL one child on purpose (its exit is then not an error)."""
        child = self.children[name]
        child.expected_exit = True
        child.kill()

    def kill_all(self):
        """SIGKILL every child still running and wait for their output to drain."""
        for child in self.children.values():
            if child.proc.poll() is None:
                child.expected_exit = True
                child.kill()
        for reader in self._readers:
            reader.join(timeout=5)
        self.pump()

    def wait(self, on_tick=None, run=None):
        """Block until every non-service child has exited with status 0; return their exit codes.

        ``on_tick()`` runs every 0.1 s (the launcher checks progress there). Raises
        :class:`WorkerFailed` when a child exits non-zero (the others are killed), and
        :class:`ClusterTimeout` at the deadline naming the child most likely stuck.
        ``run`` is attached to the error.
        """
        while True:
            self.pump()
            for child in self.children.values():
                code = child.proc.poll()
                if code not in (None, 0) and not child.expected_exit:
                    self.kill_all()
                    raise self._failure(child, code, run)
            if on_tick is not None:
                on_tick()
            waiting = [c for c in self.children.values() if not c.service and c.proc.poll() is None]
            if not waiting:
                self.pump()
                return {name: c.proc.returncode for name, c in self.children.items()}
            if time.monotonic() > self.deadline:
                raise self._timeout(waiting, run)
            time.sleep(0.1)

    def _failure(self, child, code, run):
        how = f"was killed by signal {-code}" if code < 0 else f"exited with status {code}"
        tail = "\n".join(f"  {line}" for line in child.last_lines())
        message = f"{child.name} {how}; the other processes were killed. Its last output:\n{tail}"
        if re.search(
            r"address already in use|could not start grpc server|failed to add port", tail, re.I
        ):
            return PortInUseError(
                message + "\n(its port was probably taken by another process)", run
            )
        return WorkerFailed(message, run)

    def _timeout(self, waiting, run):
        self.pump()
        now = time.monotonic()
        # Peers blocked on a stuck worker wait silently too; the one quiet the longest is the
        # likeliest culprit, so it is named first.
        waiting.sort(key=lambda c: c.last_output)
        parts = []
        for child in waiting:
            tail = "\n".join(f"    {line}" for line in child.last_lines(8)) or "    (no output)"
            parts.append(f"  {child.name} (silent for {now - child.last_output:.0f} s):\n{tail}")
        names = ", ".join(c.name for c in waiting)
        self.kill_all()
        return ClusterTimeout(
            f"deadline of {self.deadline_s:g} s passed: {waiting[0].name} looks stuck "
            f"(still running: {names}; all were killed). Last output:\n" + "\n".join(parts),
            run,
        )


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
