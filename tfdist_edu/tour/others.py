"""How busy other processes kept the CPU while the tour trained, in cores.

The 1-minute load average cannot tell: right after `make demo` installs the course it still
counts pip. On Linux, /proc/stat gives the machine's busy CPU time; this process's own (and its
children's) CPU time is subtracted, and the rest, divided by the wall time, is what others used.
Elsewhere the load average is the fallback.
"""

import os
import time


def _machine_busy_s():
    with open("/proc/stat") as stat:
        fields = [int(v) for v in stat.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def _own_s():
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


class OtherLoad:
    """``start()`` before the work, ``cores()`` after it: others' average use in cores."""

    def start(self):
        self._wall = time.monotonic()
        try:
            self._busy, self._own = _machine_busy_s(), _own_s()
        except (OSError, ValueError, IndexError):
            self._busy = None
        return self

    def cores(self):
        if self._busy is None:
            return os.getloadavg()[0]
        wall = max(time.monotonic() - self._wall, 1e-6)
        others = (_machine_busy_s() - self._busy) - (_own_s() - self._own)
        return max(others, 0.0) / wall
