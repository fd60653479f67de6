"""A cost model of one data-parallel training step, fitted from measurements (lesson 5).

step(N, B) = the step's fixed cost + compute of the N replicas + all-reduce of the gradients

- compute: one replica's step on its share B/N, fitted as ``fixed + per_example * b``. On
  real devices the replicas compute at the same time; on logical devices that share the same
  cores, they take turns, so their compute adds up (``shared_cores=True``).
- all-reduce: ``2(N-1)`` latencies plus the bytes the busiest device moves over the link's
  bandwidth: ``2(N-1)/N`` of the gradients in a ring, ``2(N-1)`` times them at the root of
  reduce-to-one-device.

The sum is an upper bound: an all-reduce that starts while the backward pass still runs hides
part of its time. ``StepModel.overlapped_step_s`` is the lower bound, the larger of the two.
Every fit keeps its costs at or above zero (``fitting.nnls``): a time is a sum of costs, so no
prediction can fall below zero. Pure numpy, so the same functions price a real GPU server from
``PUBLISHED`` figures.
"""

import dataclasses

import numpy as np

from tfdist_edu.fitting import nnls
from tfdist_edu.published_figures import PUBLISHED, Figure  # noqa: F401 (lesson 5 and deck 5)


def ring_bytes_per_device(size_bytes, n):
    """Bytes each device sends (and receives) in a ring all-reduce of ``size_bytes``."""
    return 2 * (n - 1) / n * size_bytes


def root_bytes(size_bytes, n):
    """Bytes the root moves in reduce-to-one-device: N-1 tensors in, N-1 sums out."""
    return 2 * (n - 1) * size_bytes


BUSIEST_BYTES = {"ring": ring_bytes_per_device, "one device": root_bytes}

# What lesson 5 aims for: the median error of its predictions of steps it was not fitted to, as
# a fraction of the measured time (its claims test holds the stored run to it).
TARGET_ERROR = 0.15


@dataclasses.dataclass(frozen=True)
class Line:
    """``fixed + slope * x (+ curvature * x**2)``: a fixed cost, a cost per unit (per example, per
    byte) and, where the cost per unit itself grows with x (a batch whose data outgrow the
    caches), a curvature. All three >= 0 when fitted, so the cost is never negative."""

    fixed: float
    slope: float
    curvature: float = 0.0

    def __call__(self, x):
        x = np.asarray(x, dtype=float)
        return self.fixed + self.slope * x + self.curvature * x * x

    def reaches(self, seconds):
        """The smallest x >= 0 at which the cost reaches ``seconds`` (None: never, 0.0: at once)."""
        if seconds <= self.fixed:
            return 0.0
        if self.curvature > 0:
            c, b = self.curvature, self.slope
            return float((-b + np.sqrt(b * b + 4 * c * (seconds - self.fixed))) / (2 * c))
        return float((seconds - self.fixed) / self.slope) if self.slope > 0 else None


def fit_line(x, y, curvature=False):
    """Fit ``Line`` to points with every coefficient >= 0 (``fitting.nnls``), minimising
    *relative* error, so small and large x count alike; ``curvature=True`` adds the x**2 term.
    Needs at least as many points with ``y > 0`` as coefficients."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    columns = 3 if curvature else 2
    if x.shape != y.shape or x.ndim != 1 or len(x) < columns:
        raise ValueError(f"fit_line needs {columns} or more (x, y) pairs, got shapes {x.shape} "
                         f"and {y.shape}")
    if np.any(y <= 0):
        raise ValueError(f"fit_line fits relative errors, so every y must be > 0: got {y.min():g}")
    design = np.stack([np.ones_like(x), x, x * x][:columns], axis=1) / y[:, None]
    return Line(*(float(c) for c in nnls(design, np.ones_like(y))))


@dataclasses.dataclass(frozen=True)
class Link:
    """Links between devices: a latency per message (s), a bandwidth (bytes/s), and the
    all-reduce run over them (a key of ``BUSIEST_BYTES``); 2(N-1) messages either way."""

    latency_s: float
    bandwidth: float
    algorithm: str = "ring"

    def all_reduce_s(self, size_bytes, n):
        """Seconds for an all-reduce of ``size_bytes`` over ``n`` devices (0 for one)."""
        if n <= 1:
            return 0.0
        moved = BUSIEST_BYTES[self.algorithm](size_bytes, n)
        return 2 * (n - 1) * self.latency_s + moved / self.bandwidth


def fit_link(sizes, ns, seconds, algorithm="ring"):
    """Fit a ``Link`` to all-reduce timings: ``seconds[i]`` for ``sizes[i]`` bytes on ``ns[i]``.

    Absolute least squares (timings with a fixed cost taken out can be near zero, or below it
    by noise, so relative errors would explode), with latency and time per byte kept >= 0."""
    sizes, ns, seconds = (np.asarray(a, float) for a in (sizes, ns, seconds))
    design = np.stack([2 * (ns - 1), BUSIEST_BYTES[algorithm](sizes, ns)], axis=1)
    latency, per_byte = nnls(design, seconds)
    return Link(float(latency), 1.0 / max(float(per_byte), 1e-30), algorithm)


@dataclasses.dataclass(frozen=True)
class StepModel:
    """Predicts the time of one training step on N replicas at a global batch B.

    ``compute``: seconds of one replica's work against its batch; ``link``: the all-reduce;
    ``gradient_bytes``: the size of all gradients; ``step_overhead_s``: ``{N: fixed seconds
    of dispatching a step on N replicas}`` (missing N: 0); ``shared_cores``: replicas share
    the same hardware (logical devices) and take turns.
    """

    compute: Line
    link: Link
    gradient_bytes: float
    step_overhead_s: dict = dataclasses.field(default_factory=dict)
    shared_cores: bool = False

    def compute_s(self, n, global_batch):
        """Seconds of compute: one replica's share, or all N shares in turn on shared cores."""
        one_replica = float(self.compute(global_batch / n))
        return n * one_replica if self.shared_cores else one_replica

    def communication_s(self, n):
        """Seconds of the all-reduce of the gradients on n replicas."""
        return self.link.all_reduce_s(self.gradient_bytes, n)

    def step_s(self, n, global_batch):
        """Compute, then communication, then the fixed cost: no overlap (an upper bound)."""
        return (self.compute_s(n, global_batch) + self.communication_s(n)
                + self.step_overhead_s.get(n, 0.0))

    def overlapped_step_s(self, n, global_batch):
        """Communication hidden entirely behind compute, or the reverse (a lower bound)."""
        return (max(self.compute_s(n, global_batch), self.communication_s(n))
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
