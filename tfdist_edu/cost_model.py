"""A cost model of one data-parallel training step, fitted from measurements (lesson 5).

step(N, B) = compute of the N replicas + all-reduce of the gradients + the step's fixed cost

- compute: one replica's step on its share B/N, fitted as ``fixed + per_example * b``. On
  real devices the replicas compute at the same time; on logical devices that share the same
  cores, they take turns, so their compute adds up (``shared_cores=True``).
- all-reduce: the ring's cost, ``2(N-1)`` latencies plus ``2(N-1)/N`` of the gradient bytes
  over the link's bandwidth.
Pure numpy, so the same functions price a real GPU server from published figures.
"""

import dataclasses

import numpy as np


def ring_bytes_per_device(size_bytes, n):
    """Bytes each device sends (and receives) in a ring all-reduce of ``size_bytes``."""
    return 2 * (n - 1) / n * size_bytes


@dataclasses.dataclass(frozen=True)
class Line:
    """``fixed + slope * x``: a fixed cost plus a cost per unit (per example, per byte)."""

    fixed: float
    slope: float

    def __call__(self, x):
        return self.fixed + self.slope * np.asarray(x, dtype=float)


def fit_line(x, y):
    """Fit ``Line`` to points, minimising *relative* error, so small and large x count alike."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    design = np.stack([np.ones_like(x), x], axis=1) / y[:, None]
    fixed, slope = np.linalg.lstsq(design, np.ones_like(y), rcond=None)[0]
    return Line(float(fixed), float(slope))


@dataclasses.dataclass(frozen=True)
class Link:
    """A link between devices: a latency per ring step (s) and a bandwidth (bytes/s)."""

    latency_s: float
    bandwidth: float

    def all_reduce_s(self, size_bytes, n):
        """Seconds for a ring all-reduce of ``size_bytes`` over ``n`` devices (0 for one)."""
        if n <= 1:
            return 0.0
        return 2 * (n - 1) * self.latency_s + ring_bytes_per_device(size_bytes, n) / self.bandwidth


def fit_link(sizes, ns, seconds):
    """Fit a ``Link`` to all-reduce timings: ``seconds[i]`` for ``sizes[i]`` bytes on ``ns[i]``."""
    sizes, ns, seconds = (np.asarray(a, float) for a in (sizes, ns, seconds))
    design = np.stack([2 * (ns - 1), ring_bytes_per_device(sizes, ns)], axis=1) / seconds[:, None]
    latency, per_byte = np.linalg.lstsq(design, np.ones_like(seconds), rcond=None)[0]
    return Link(max(float(latency), 0.0), 1.0 / max(float(per_byte), 1e-30))


@dataclasses.dataclass(frozen=True)
class StepModel:
    """Predicts the time of one training step on N replicas at a global batch B.

    ``compute``: seconds of one replica's step against its batch; ``link``: the all-reduce;
    ``gradient_bytes``: the size of all gradients; ``step_overhead_s``: ``{N: extra fixed
    seconds a step on N replicas costs}`` (missing N: 0); ``shared_cores``: replicas share
    the same hardware (logical devices) and take turns.
    """

    compute: Line
    link: Link
    gradient_bytes: float
    step_overhead_s: dict = dataclasses.field(default_factory=dict)
    shared_cores: bool = False

    def step_s(self, n, global_batch):
        one_replica = float(self.compute(global_batch / n))
        compute = n * one_replica if self.shared_cores else one_replica
        return (compute + self.link.all_reduce_s(self.gradient_bytes, n)
                + self.step_overhead_s.get(n, 0.0))

    def throughput(self, n, global_batch):
        """Examples per second."""
        return global_batch / self.step_s(n, global_batch)

    def speedup(self, n, per_device_batch):
        """How many times faster n devices run a global batch of ``n * per_device_batch`` than
        one device running the same batch alone (the same work: the HPC lesson's comparison)."""
        batch = n * per_device_batch
        return self.step_s(1, batch) / self.step_s(n, batch)

    def efficiency(self, n, per_device_batch):
        """Speed-up divided by n: 1.0 is perfect scaling."""
        return self.speedup(n, per_device_batch) / n

    def smallest_batch(self, n, efficiency=0.0, batches=tuple(2**k for k in range(17))):
        """The smallest per-device batch in ``batches`` at which n devices beat one device with
        an efficiency above ``efficiency`` (0: any speed-up over one), or None."""
        return next((b for b in batches if self.speedup(n, b) > max(1.0, efficiency * n)), None)


def relative_errors(predicted, measured):
    """``(predicted - measured) / measured`` for paired sequences."""
    predicted, measured = np.asarray(predicted, float), np.asarray(measured, float)
    return (predicted - measured) / measured
