"""Start the student-side runner (sandboxed, or trusted), feed it its job, and collect its answer.

The runner gets its job (the notebook and the probes) on stdin and writes its result, plain
JSON, on stdout; its stderr is its log. Both are read with a cap, so a submission that prints
without end costs memory of neither process. At the deadline everything it started is killed:
in the sandbox by ending the PID namespace, trusted by killing its process group and tree with
the cluster launcher's :mod:`tfdist_edu.supervisor` (a process that left both, e.g. a
double-forked daemon, survives that: only the sandbox stops it).
"""

import contextlib
import dataclasses
import os
import subprocess
import sys
import tempfile
import threading
from collections import deque

from tfdist_edu import supervisor
from tfdist_edu.quiet import is_no_driver_line
from tfdist_instructor.grading import sandbox

RESULT_LIMIT = 64 << 20  # bytes of the runner's answer read; more means a broken answer
RUNNER = [sys.executable, "-m", "tfdist_instructor.grading.runner"]
CELL_STARTED = "[grader] running cell "  # the runner's log line as one of the student's cells starts


@dataclasses.dataclass
class Outcome:
    result: bytes  # what the runner wrote on stdout (untrusted data)
    log: list  # its last lines on stderr
    killed: bool  # stopped at the deadline
    returncode: int
    started: bool = False  # whether the runner ever said it started one of the student's cells


def run(job, env, options):
    """Run the runner on ``job`` (bytes) as the run's ``options`` say (a ``GradeOptions``: sandboxed
    or not, the sandbox's limits) for at most ``options.deadline_s`` seconds; return its Outcome."""
    with contextlib.ExitStack() as held:
        scratch = held.enter_context(tempfile.TemporaryDirectory(prefix="tfdist-grade-", ignore_cleanup_errors=True))
        if options.sandboxed:  # a slot of the machine's, held until the sandbox and all it started are gone
            uid = held.enter_context(sandbox.slot())
            command, cwd = sandbox.wrap(RUNNER, options.limits, env, uid), None
        else:
            command, cwd = RUNNER, scratch
            env = {**os.environ, **env, "HOME": scratch, "TMPDIR": scratch}
        proc = supervisor.spawn(command, env, cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        answer, log, seen = bytearray(), deque(maxlen=40), []
        readers = [threading.Thread(target=_read_capped, args=(proc.stdout, answer), daemon=True),
                   threading.Thread(target=_read_lines, args=(proc.stderr, log, seen), daemon=True)]
        for reader in readers:
            reader.start()
        _feed(proc, job)
        try:
            proc.wait(timeout=options.deadline_s)
            killed = False
        except subprocess.TimeoutExpired:
            killed = True
        _kill(proc)
        for reader in readers:
            reader.join(timeout=5)
        return Outcome(bytes(answer[:RESULT_LIMIT]), list(log), killed, proc.returncode, bool(seen))


def _feed(proc, job):
    try:
        proc.stdin.write(job)
        proc.stdin.close()
    except OSError:  # the runner died before reading its job: its exit code says why
        pass


def _read_capped(stream, into):
    for chunk in iter(lambda: stream.read(1 << 16), b""):
        if len(into) <= RESULT_LIMIT:
            into.extend(chunk)


def _read_lines(stream, into, started):
    """The stream's lines into ``into`` (the last ones); ``started`` gets an entry once a student's
    cell starts, which later output cannot push out of the log. TensorFlow's cuInit error 303 (a
    machine without a CUDA driver, the kernel's normal state here) is left out: every other line is
    kept, and the log's last lines are what a run that broke is reported with."""
    for line in stream:
        text = line.decode("utf-8", "replace").rstrip()[:500]
        if is_no_driver_line(text):
            continue
        if not started and CELL_STARTED in text:
            started.append(True)
        into.append(text)


def _kill(proc):
    """Kill the run. Sandboxed, killing bwrap ends its PID namespace and every process in it;
    trusted, the process group goes (the cluster launcher's kill), then any descendant still
    attached that moved to a group of its own."""
    import psutil

    try:
        strays = psutil.Process(proc.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        strays = []
    supervisor.kill_group(proc)
    for p in strays:
        try:
            p.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(strays, timeout=5)
