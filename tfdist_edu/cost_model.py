"""A cost model of one data-parallel training step, fitted from measurements (lesson 5).

step(N, B) = the step's fixed cost + compute of the N replicas + all-reduce of the gradients

- compute: one replica's step on its share B/N, fitted as ``fixed + per_example * b``. On
  real devices the replicas compute at the same time; on logical devices that share the same
  cores, they take turns, so their compute adds up (``shared_cores=True``).
- all-reduce: ``2(N-1)`` latencies plus the bytes the busiest device moves over the link's
  bandwidth: ``2(N-1)/N`` of the gradients in a ring, ``2(N-1)`` times them at the root of
  reduce-to-one-device.
Pure numpy, so the same functions price a real GPU server from ``PUBLISHED`` figures.
"""

import dataclasses

import numpy as np


def ring_bytes_per_device(size_bytes, n):
    """Bytes each device sends (and receives) in a ring all-reduce of ``size_bytes``."""
    return 2 * (n - 1) / n * size_bytes


def root_bytes(size_bytes, n):
    """Bytes the root moves in reduce-to-one-device: N-1 tensors in, N-1 sums out."""
    return 2 * (n - 1) * size_bytes


BUSIEST_BYTES = {"ring": ring_bytes_per_device, "one device": root_bytes}


@dataclasses.dataclass(frozen=True)
class Figure:
    """A published number, its unit, what it measures and where it was published."""

    value: float
    unit: str
    what: str
    source: str

    def __str__(self):
        return f"{self.what}: {self.value:g} {self.unit}\n    source: {self.source}"


_HPC = "the HPC lesson's Model.fit logs (this course's reference material)"
_RESNET = "github.com/sandeepkumar-skb/pytorch_experiments, torchvision_exp/README.md"
_V100 = "NVIDIA Tesla V100 datasheet, interconnect bandwidth"
PUBLISHED = {  # the GPU figures lesson 5 and deck 5 read; each value is the source's own
    "cnn_1gpu_step": Figure(8, "ms", "course CNN, Model.fit on one GPU, time per step", _HPC),
    "cnn_1gpu_batch": Figure(320, "examples", "course CNN on one GPU, batch", _HPC),
    "cnn_validation": Figure(0.15, "of the data", "one-GPU run, validation_split", _HPC),
    "fashion_mnist_train": Figure(60000, "examples", "Fashion-MNIST training set, the HPC runs' data",
                                  "Xiao et al. 2017, Fashion-MNIST"),
    "cnn_5gpu_step": Figure(9, "ms", "course CNN, MirroredStrategy on 5 GPUs, time per step", _HPC),
    "cnn_5gpu_batch": Figure(64, "examples per GPU", "course CNN on 5 GPUs, batch", _HPC),
    "resnet50_step": Figure(342.37, "ms", "ResNet-50 step on one V100, FP32, NCHW", _RESNET),
    "resnet50_batch": Figure(128, "examples", "ResNet-50 on one V100, batch", _RESNET),
    "resnet50_params": Figure(25.6, "M parameters", "ResNet-50 size",
                              "Keras Applications table, keras.io/api/applications"),
    "resnet50_macs": Figure(3.8, "G multiply-adds per 224x224 image", "ResNet-50 work",
                            "He et al. 2015, Deep Residual Learning, Table 1"),
    "pcie3": Figure(32, "GB/s", "PCIe Gen3 x16, both directions together", _V100),
    "nvlink_v100": Figure(300, "GB/s", "NVLink on V100, both directions together", _V100),
    "nvlink_a100": Figure(600, "GB/s", "NVLink on A100, both directions together",
                          "NVIDIA A100 datasheet"),
    "nccl_8xa100": Figure(195, "GB/s", "nccl-tests all_reduce bus bandwidth, 8 A100 on NVLink",
                          "github.com/li-plus/playground, cuda/nccl.md"),
    "ring_latency": Figure(10, "us", "latency of one ring step: an assumption, not a figure",
                           "assumed; nccl-tests measures it with small messages"),
}


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

    Plain least squares: timings with a fixed cost taken out can be near zero or below."""
    sizes, ns, seconds = (np.asarray(a, float) for a in (sizes, ns, seconds))
    design = np.stack([2 * (ns - 1), BUSIEST_BYTES[algorithm](sizes, ns)], axis=1)
    latency, per_byte = np.linalg.lstsq(design, seconds, rcond=None)[0]
    return Link(max(float(latency), 0.0), 1.0 / max(float(per_byte), 1e-30), algorithm)


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
