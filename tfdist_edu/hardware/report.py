"""The report types: ``HardwareReport``, what ``detect()`` returns, with its one-line summary
and its text and HTML tables, and ``GPUInfo`` for each GPU in it."""

import dataclasses
import html


@dataclasses.dataclass
class GPUInfo:
    """One physical GPU as TensorFlow sees it."""

    name: str
    compute_capability: str | None = None
    memory_limits_mb: list[int] = dataclasses.field(default_factory=list)  # per logical GPU
    memory_in_use_mb: float | None = None  # only once the runtime has started

    def __str__(self):
        parts = [self.name]
        if self.compute_capability:
            parts.append(f"compute capability {self.compute_capability}")
        if self.memory_limits_mb:
            limits = ", ".join(f"{mb} MB" for mb in self.memory_limits_mb)
            parts.append(f"split into {len(self.memory_limits_mb)} logical GPUs of {limits}")
        if self.memory_in_use_mb is not None:
            parts.append(f"{self.memory_in_use_mb:.0f} MB in use")
        return ", ".join(parts)


@dataclasses.dataclass
class HardwareReport:
    """What ``detect()`` found. Print it, or leave it last in a notebook cell for a table."""

    platform: str  # "Colab", "Kaggle" or "local"
    python: str
    tensorflow: str
    keras: str
    tpu: str | None  # e.g. "8 TPU cores"; None when there is no TPU
    gpus: list[GPUInfo]
    cpu_cores: int
    logical_devices: list[str]  # e.g. ["/device:CPU:0", "/device:CPU:1"]
    simulated: bool  # True when a CPU or GPU was split into several logical devices
    runtime_started: bool  # False: simulate_devices() can still change the layout
    notes: list[str] = dataclasses.field(default_factory=list)

    def count(self, device_type):
        """Return how many logical devices of ``device_type`` ("CPU", "GPU", "TPU") there are."""
        return sum(1 for name in self.logical_devices if f":{device_type}:" in name)

    def summary(self):
        """Return the one-line hardware label put on timings and figures.

        For example "2 CPU cores, 2 logical CPU devices (simulated), no GPU, no TPU".
        """
        cpus = self.count("CPU")
        parts = [
            _plural(self.cpu_cores, "CPU core"),
            _plural(cpus, "logical CPU device") + (" (simulated)" if cpus > 1 else ""),
        ]
        if self.gpus:
            names = sorted({gpu.name for gpu in self.gpus})
            gpu_text = f"{_plural(len(self.gpus), 'GPU')} ({', '.join(names)})"
            if self.count("GPU") > len(self.gpus):
                gpu_text += f" as {self.count('GPU')} logical GPUs (simulated)"
            parts.append(gpu_text)
        else:
            parts.append("no GPU")
        parts.append(f"TPU: {self.tpu}" if self.tpu else "no TPU")
        return ", ".join(parts)

    def rows(self):
        """Return the (label, value) pairs that the text and HTML tables show."""
        if self.runtime_started:
            runtime = "started (the device layout is fixed until a restart)"
        else:
            runtime = "not started yet (simulate_devices() can still split devices)"
        devices = ", ".join(self.logical_devices) or "none"
        rows = [
            ("Platform", self.platform),
            ("Python", self.python),
            ("TensorFlow", self.tensorflow),
            ("Keras", self.keras),
            ("CPU cores", str(self.cpu_cores)),
            ("GPUs", "; ".join(str(gpu) for gpu in self.gpus) or "none"),
            ("TPU", self.tpu or "none"),
            ("Logical devices", devices + (" (simulated)" if self.simulated else "")),
            ("TensorFlow runtime", runtime),
        ]
        return rows + [("Note", note) for note in self.notes]

    def __str__(self):
        rows = self.rows()
        width = max(len(label) for label, _ in rows)
        return "\n".join(f"{label:<{width}}  {value}" for label, value in rows)

    def _repr_html_(self):
        cells = "".join(
            f"<tr><th style='text-align:left'>{html.escape(label)}</th>"
            f"<td style='text-align:left'>{html.escape(value)}</td></tr>"
            for label, value in self.rows()
        )
        return f"<table><caption>Hardware: {html.escape(self.summary())}</caption>{cells}</table>"


def _plural(n, noun):
    return f"{n} {noun}{'' if n == 1 else 's'}"
