"""Is this machine's memory system steady? Two small computations timed in one-second windows.

On the course's 2-core virtual machines every arm of the tour sometimes ran 10-30% slower for a
few seconds, with as much more CPU time, while nothing else ran. Two probes tell where such a
stretch comes from:

- a cache-resident one (arithmetic on a 200 KB array, which stays in the core's own cache),
- a memory-bound one (copying a 64 MB array, which must go to main memory and back).

When only the memory-bound probe slows, the memory system (shared, on a virtual machine, with
the host's other tenants) slowed down, not the processor: a thread stalled on memory still
counts as running, which is why CPU time rises with wall time. Each probe runs on one thread.
``tfdist-edu doctor`` prints both; the tour runs them before its arms, and a short memory
probe between its rounds, and reports them beside its blocks.
"""

import dataclasses
import statistics
import time

import numpy as np

SLOW = 1.10  # a window over 10% slower than the probe's median window
CACHE_BYTES, MEMORY_BYTES = 200_000, 64 * 2 ** 20


class Work:
    """The two computations, their arrays allocated once: ``cache()`` and ``memory()``."""

    def __init__(self):
        self._small = np.ones(CACHE_BYTES // 8)
        self._small_out = np.empty_like(self._small)
        self._big = np.ones(MEMORY_BYTES // 8)
        self._big_out = np.empty_like(self._big)

    def cache(self):
        for _ in range(20):
            np.multiply(self._small, 1.000001, out=self._small_out)
            np.add(self._small_out, self._small, out=self._small_out)

    def memory(self):
        np.copyto(self._big_out, self._big)

    def memory_rate(self, seconds=0.25):
        """Gigabytes per second copied (read and written) in a burst of about ``seconds``."""
        copies, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            self.memory()
            copies += 1
        return 2 * MEMORY_BYTES * copies / (time.perf_counter() - start) / 1e9


@dataclasses.dataclass
class Probe:
    """One probe's run: how much work each one-second window did."""

    name: str
    window_work: list  # units of work done in each window, all windows of equal length

    @property
    def slowdowns(self):
        """Each window's time per unit of work over the median window's."""
        usual = statistics.median(self.window_work)
        return [usual / w for w in self.window_work]

    @property
    def slow_windows(self):
        return sum(s > SLOW for s in self.slowdowns)

    @property
    def steady(self):
        return self.slow_windows == 0

    def sentence(self):
        return (f"{self.name}: {len(self.window_work)} one-second windows, the slowest "
                f"{max(self.slowdowns):.2f}x the median window, {self.slow_windows} over "
                f"{SLOW:.2f}x")


def _timed(name, unit, seconds, window=1.0):
    counts, start = [], time.perf_counter()
    edge, done = start + window, 0
    while len(counts) < seconds:
        unit()
        done += 1
        if time.perf_counter() >= edge:
            counts.append(done)
            edge, done = edge + window, 0
    return Probe(name, counts)


def probe(seconds=8, work=None):
    """Run both probes, one after the other, for ``seconds`` one-second windows each."""
    work = work or Work()
    return [_timed("cache-resident probe", work.cache, seconds),
            _timed("memory-bound probe", work.memory, seconds)]


def sentence(probes):
    """What the probes say about the machine, in one paragraph."""
    cache, memory = probes
    text = f"Steadiness probe, one thread each: {cache.sentence()}; {memory.sentence()}. "
    if cache.steady and memory.steady:
        return text + "Both ran steadily: the memory system was steady during the probe."
    if cache.steady:
        return text + ("Only the memory-bound probe slowed: the machine's memory system (shared "
                       "with the host's other tenants on a virtual machine) was unsteady, while "
                       "the processor itself was not.")
    return text + ("The cache-resident probe slowed too: the processor itself was taken away "
                   "for a while (another process, or the host).")
