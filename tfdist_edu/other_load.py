"""How busy other processes kept the CPU while the tour (or a lesson run) worked, in cores.

The 1-minute load average cannot tell: right after `make demo` installs the course it still
counts pip. On Linux, /proc/stat gives the machine's busy CPU time; the CPU time of this
process and of every process it started (live ones read from /proc, finished ones from the
times their parents collected) is subtracted, and the rest, divided by the wall time, is what
others used. Elsewhere the load average is the fallback. ``SampledLoad`` looks every half
second instead, for work whose processes are never waited for by this one (a sandbox's).
"""

import os
import threading
import time


def _machine_busy_s():
    with open("/proc/stat") as stat:
        fields = [int(v) for v in stat.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def _snapshot(waited=False):
    """{pid: (ppid, CPU ticks)} of every live process: its own time, plus with ``waited`` the
    time of the children it has waited for."""
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue  # it ended while we looked
            stats[int(entry)] = (int(fields[1]), sum(int(v) for v in fields[11:15 if waited else 13]))
    return stats


def _descendants(stats, root):
    """``root`` and every pid below it in ``stats``."""
    children = {}
    for pid, (ppid, _) in stats.items():
        children.setdefault(ppid, []).append(pid)
    found, todo = [], [root]
    while todo:
        found.append(pid := todo.pop())
        todo += children.get(pid, [])
    return found


def _tree_s(root=None):
    """CPU seconds of process ``root`` (default: this one) and all its live descendants,
    each with the time of the children it has waited for."""
    stats = _snapshot(waited=True)
    ticks = sum(stats.get(pid, (0, 0))[1] for pid in _descendants(stats, root or os.getpid()))
    return ticks / os.sysconf("SC_CLK_TCK")


class OtherLoad:
    """``start()`` before the work, ``cores()`` after it: others' average use in cores.

    ``add(other)`` sums several measured stretches (e.g. the cells of one notebook).
    """

    def __init__(self):
        self.others_s, self.wall_s, self._busy, self._wall = 0.0, 0.0, None, None

    def start(self):
        self._wall = time.monotonic()
        try:
            self._busy, self._own = _machine_busy_s(), _tree_s()
        except (OSError, ValueError, IndexError):
            self._busy = None
        return self

    def stop(self):
        """End the stretch started by ``start()``; return others' cores over it."""
        wall = max(time.monotonic() - self._wall, 1e-6)
        if self._busy is None:
            others = os.getloadavg()[0] * wall
        else:
            others = max((_machine_busy_s() - self._busy) - (_tree_s() - self._own), 0.0)
        self.others_s += others
        self.wall_s += wall
        self._wall = None
        return others / wall

    def cores(self):
        """Others' average cores over every stretch so far (stopping a running one)."""
        if self._wall is not None:
            self.stop()
        return self.others_s / self.wall_s if self.wall_s else 0.0



class SampledLoad(threading.Thread):
    """Others' CPU for work whose processes leave this one's tree of waited-for children (a
    sandbox that starts its own session and PID namespace): every ``interval`` seconds, the CPU
    each live descendant used since the last look counts as ours, the rest of the machine's busy
    time as others'. A descendant that starts and ends between two looks counts as others'.
    ``start()`` before the work, ``cores()`` after it."""

    def __init__(self, interval=0.5):
        super().__init__(daemon=True)
        self.interval, self._done = interval, threading.Event()
        self.busy_s, self.mine_s, self.wall_s = 0.0, 0.0, 0.0

    def run(self):
        self._wall = time.monotonic()
        self.first_look()
        while not self._done.wait(self.interval):
            self.look()
        self.look()
        self.wall_s = time.monotonic() - self._wall

    def first_look(self):
        self._busy, self._seen = _machine_busy_s(), _snapshot()

    def look(self):
        """Add the machine's busy time and our descendants' CPU since the last look."""
        busy, now = _machine_busy_s(), _snapshot()
        mine = sum(now[pid][1] - self._seen.get(pid, (0, 0))[1]
                   for pid in _descendants(now, os.getpid()) if pid in now)
        self.busy_s += busy - self._busy
        self.mine_s += mine / os.sysconf("SC_CLK_TCK")
        self._busy, self._seen = busy, now

    def cores(self):
        """Others' average cores from ``start()`` until now (the sampling stops)."""
        self._done.set()
        self.join()
        return max(self.busy_s - self.mine_s, 0.0) / self.wall_s if self.wall_s else 0.0
