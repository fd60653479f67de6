"""The bubblewrap sandbox one submission runs in.

Inside it a submission sees the system read-only (``/usr``, ``/etc``), Python and the course
package read-only, and two size-capped tmpfs (``/sandbox``: its work folder and home; ``/tmp``).
Nothing else of the host exists there: not the repository, ``solutions/``, the questions, other
submissions, the home folder or the host's ``/tmp``. It has its own network namespace (only a
loopback of its own) and its own PID namespace: when the sandbox ends, the kernel kills every
process left in it. It runs as an unprivileged uid, with limits on memory, processes, open
files, file size and CPU time set by ``prlimit``.

As root, each sandbox runs as a uid of its own, taken from a *slot* that is unique on the
machine (as isolate's ``--box-id``): slot ``n`` is uid ``FIRST_UID + n``, held by an exclusive
``flock`` on ``SLOTS_DIR/slot-<n>.lock`` (``/run/tfdist-sandbox``) for as long as the sandbox runs. Two grading runs at
once, by one instructor or two, therefore never share a uid or its process limit; a slot whose
uid still runs a process (left by a grader that predates the slots) is passed over. The kernel
drops the lock when the grader exits, however it exits, so a crashed run leaves no slot taken.
"""

import contextlib
import dataclasses
import errno
import fcntl
import importlib.util
import os
import shutil
import sys
from pathlib import Path

ROOT = "/sandbox"  # the one writable place inside, a tmpfs
WORK = f"{ROOT}/work"
PACKAGES = "/opt/tfdist"  # where the course and runner packages are mounted
FIRST_UID = 2_000_000  # as root, slot n runs as uid FIRST_UID + n
SLOTS = 1000  # sandboxes that can run at once on one machine
SLOTS_DIR = Path("/run/tfdist-sandbox")  # machine-wide: one lock file per slot (root only)
SLOTS_FALLBACK = Path("/tmp/tfdist-sandbox-slots")  # where /run cannot be written


@dataclasses.dataclass(frozen=True)
class Limits:
    """Per-submission limits; memory, file and CPU limits apply to each process."""

    memory_bytes: int = 3 << 30  # RLIMIT_DATA: heap and private mappings (TF reserves far more address space)
    processes: int = 512  # RLIMIT_NPROC: processes and threads of the sandbox's uid (TF runs ~60 threads each)
    open_files: int = 1024
    file_bytes: int = 256 << 20
    disk_bytes: int = 512 << 20  # the size of the tmpfs
    cpu_seconds: int = 3600

    def prlimit(self, processes_already=0):
        processes = self.processes + processes_already
        return ["prlimit", f"--data={self.memory_bytes}", f"--nproc={processes}",
                f"--nofile={self.open_files}", f"--fsize={self.file_bytes}", f"--cpu={self.cpu_seconds}",
                "--core=0", "--"]


def unavailable():
    """None when bubblewrap can sandbox here, else one line saying why not."""
    if not sys.platform.startswith("linux"):
        return f"bubblewrap sandboxes need Linux; this is {sys.platform}"
    missing = [tool for tool in ("bwrap", "prlimit", "setpriv") if shutil.which(tool) is None]
    if missing:
        return f"{', '.join(missing)} not found (Debian: scripts/install_grading_deps.sh installs bubblewrap)"
    return None


def package_mounts():
    """Host folders of the packages the runner and the student's notebook import."""
    return {name: Path(importlib.util.find_spec(name).submodule_search_locations[0])
            for name in ("tfdist_edu", "tfdist_instructor")}


class NoSlot(RuntimeError):
    """Every sandbox slot of the machine is taken (or its lock folder cannot be used)."""


@contextlib.contextmanager
def slot(folder=None):
    """Hold a sandbox slot of this machine for the ``with`` block; yields the uid it runs as
    (None when not root: the sandbox then runs as 65534 in a user namespace, and needs no slot).
    NoSlot, saying why, when none can be had: that is the machine's failure, not a submission's."""
    if os.geteuid() != 0:
        yield None
        return
    folder = _slots_folder(folder)
    for number in range(SLOTS):
        handle = _take(folder / f"slot-{number}.lock")
        if handle is None:
            continue
        uid = FIRST_UID + number
        if _running_as(uid):  # a sandbox of a grader without slots: its processes count against this uid
            os.close(handle)
            continue
        try:
            yield uid
        finally:
            _wait_gone(uid)  # the sandbox's processes are dying with its PID namespace: let them go first
            os.close(handle)  # closing the only descriptor drops the lock
        return
    raise NoSlot(f"all {SLOTS} sandbox slots of this machine are taken ({folder})")


def _slots_folder(folder):
    """The lock folder: ``folder``, else SLOTS_DIR, else (a machine whose /run cannot be written)
    SLOTS_FALLBACK; every grader tries them in that order, so all of them use the same one."""
    tried = [Path(folder)] if folder else [SLOTS_DIR, SLOTS_FALLBACK]
    for candidate in tried:
        try:
            candidate.mkdir(mode=0o755, parents=True, exist_ok=True)
        except OSError as error:
            why = error.strerror or str(error)
            continue
        return candidate
    raise NoSlot(f"cannot make the sandbox slot folder {tried[-1]}: {why}")


def _take(path):
    """A descriptor holding an exclusive lock on ``path``, or None when another process holds it."""
    try:
        handle = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError as error:
        raise NoSlot(f"cannot open the sandbox slot {path}: {error.strerror or error}") from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        os.close(handle)
        if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            return None
        raise NoSlot(f"cannot lock the sandbox slot {path}: {error.strerror or error}") from None
    return handle


def strays(folder=None):
    """Processes left by a sandbox that has ended: running as the uid of a slot nobody holds (a
    slot that is held belongs to a sandbox still running, this run's or another's)."""
    import psutil

    if os.geteuid() != 0:
        return []
    folder = _slots_folder(folder)
    found = []
    for p in psutil.process_iter(["uids"]):
        uid = p.info["uids"].real if p.info["uids"] else -1
        if FIRST_UID <= uid < FIRST_UID + SLOTS:
            handle = _take(folder / f"slot-{uid - FIRST_UID}.lock")
            if handle is not None:  # free: the sandbox of this uid has ended
                os.close(handle)
                found.append(p)
    return found


def _wait_gone(uid, timeout_s=10):
    import time

    deadline = time.monotonic() + timeout_s
    while _running_as(uid) and time.monotonic() < deadline:
        time.sleep(0.05)


def _running_as(uid):
    import psutil

    return any(p.info["uids"] and p.info["uids"].real == uid for p in psutil.process_iter(["uids"]))


def wrap(inner, limits, env, uid=None):
    """The command running ``inner`` (argv) in a fresh sandbox with ``env`` as its environment.

    ``uid``: as root, the uid of the slot this sandbox holds (:func:`slot`); it is required there."""
    args = ["bwrap", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--die-with-parent", "--new-session", "--clearenv"]
    # /tmp first, as a capped tmpfs of its own: a checkout or venv that lives under the host's
    # /tmp is then bound on top of it, and the host's /tmp stays invisible.
    args += ["--size", str(limits.disk_bytes), "--perms", "1777", "--tmpfs", "/tmp"]
    readable = [Path(sys.prefix), Path(sys.base_prefix)]
    for path in sorted({p.resolve() for p in readable}):
        args += _parents(path) + ["--ro-bind", str(path), str(path)]
    for name, source in package_mounts().items():
        args += _parents(Path(PACKAGES, name)) + ["--ro-bind", str(source), f"{PACKAGES}/{name}"]
    args += ["--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc", "--proc", "/proc", "--dev", "/dev"]
    args += _system_links()
    args += ["--size", str(limits.disk_bytes), "--perms", "1777", "--tmpfs", ROOT]
    for folder in ("work", "home"):
        args += ["--perms", "1777", "--dir", f"{ROOT}/{folder}"]
    args += ["--symlink", "/tmp", "/var/tmp"]
    args += ["--chdir", WORK, "--remount-ro", "/"]
    env = {**env, "HOME": f"{ROOT}/home", "TMPDIR": "/tmp", "PYTHONPATH": PACKAGES}
    for key, value in env.items():
        args += ["--setenv", key, value]
    namespace, prefix, running = _identity(uid)
    return args + namespace + prefix + limits.prlimit(running) + list(inner)


def _parents(path):
    """Make the folders above a mount point traversable (bwrap creates them 0700)."""
    return [arg for parent in reversed(path.parents) if str(parent) != "/"
            for arg in ("--perms", "0755", "--dir", str(parent))]


def _system_links():
    """/bin, /lib, ... as on the host: symlinks into /usr on merged-/usr systems, else mounts."""
    args = []
    for name in ("bin", "sbin", "lib", "lib32", "lib64"):
        path = Path("/", name)
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    return args


def _identity(uid):
    """(bwrap options, command prefix, processes the uid already runs) for an unprivileged uid.

    As root: ``uid``, the uid of this sandbox's slot, unique on the machine while it runs, so
    the process limit counts only this sandbox (root itself is exempt from RLIMIT_NPROC).
    Otherwise: uid 65534 in a user namespace, which is still the instructor's uid outside, so
    the limit is raised by the threads the instructor runs now.
    """
    if os.geteuid() != 0:
        import psutil

        mine = sum(p.info["num_threads"] or 0 for p in psutil.process_iter(["uids", "num_threads"])
                   if p.info["uids"] and p.info["uids"].real == os.getuid())
        return ["--unshare-user", "--uid", "65534", "--gid", "65534"], [], mine
    if uid is None:
        raise ValueError("as root a sandbox needs the uid of a slot it holds: run it inside sandbox.slot()")
    caps = ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]  # used by setpriv, then dropped
    return caps, ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--inh-caps=-all",
                  "--bounding-set=-all", "--"], 0
