"""Child processes that cannot be left behind. The cluster launcher and the parameter-server
runner run theirs under :class:`Supervisor`; the instructors' grader starts and kills its runner
with the same :func:`spawn` and :func:`kill_group`.

Each child runs in its own process group and is SIGKILLed as a group (TensorFlow workers waiting
for their peers ignore SIGINT and SIGTERM), dies with its parent on Linux, has its output
streamed as ``[name] line`` with TensorFlow's start-up noise filtered, and is bounded by a
deadline that names the child most likely stuck.
"""

import collections
import ctypes
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time

from tfdist_edu.quiet import is_log_noise  # the stream filter


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


def spawn(argv, env=None, cwd=None, **streams):
    """Start ``argv`` in its own process group, which the kernel kills if this process dies first.

    ``streams`` are Popen's stdin/stdout/stderr. The grader starts its runner with this too.
    """
    return subprocess.Popen(
        argv,
        env=env,
        cwd=cwd,
        start_new_session=True,  # own process group: killing the group leaves nothing behind
        preexec_fn=_death_signal_setter(),  # even a crashed notebook kernel leaves no worker
        **streams,
    )


def kill_group(proc):
    """SIGKILL the process group of ``proc`` (workers waiting for peers ignore SIGTERM); reap it."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()


class _Child:
    """One child process: its own process group, its output lines and when it last spoke."""

    def __init__(self, name, argv, env, cwd, service):
        self.name, self.argv, self.service = name, list(argv), service
        self.lines = collections.deque(maxlen=4000)  # filtered output
        self.full_log = collections.deque(maxlen=4000)  # everything, noise included
        self.last_output = time.monotonic()
        self.expected_exit = False  # set when the supervisor kills it on purpose
        self.proc = spawn(
            self.argv, env, cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )

    def kill(self):
        kill_group(self.proc)

    def last_lines(self, n=12, full=False):
        """The last ``n`` streamed lines (all lines, noise included, when ``full``)."""
        return (list(self.full_log) if full else list(self.lines))[-n:] or list(self.full_log)[-n:]


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
        tail = "\n".join(f"  {line}" for line in child.last_lines(16, full=True))
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
