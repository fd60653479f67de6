"""What machine is this: platform, versions, CPUs, GPUs, TPU, and simulated devices.

TensorFlow fixes its device layout when its runtime starts, which happens on the first
operation, the first ``list_logical_devices`` call, the first strategy, or a TPU
initialisation. After that, CPUs or a GPU can no longer be split into logical devices. So:

* call ``simulate_devices(n)`` first, before any other TensorFlow work;
* ``detect()`` is safe to call before it: while the runtime has not started it reads only
  physical devices and the configured split, and it probes for a TPU only when the machine
  shows signs of one (on a TPU machine, starting the runtime is what you want anyway);
* ``connect_tpu()`` starts the runtime, whether or not it finds a TPU.
"""

import dataclasses
import glob
import html
import importlib.util
import numbers
import os
import platform
import sys

# Set by connect_tpu(): initialising a TPU twice would drop the variables already on it.
_tpu_resolver = None


class NoTPUError(RuntimeError):
    """Raised by ``connect_tpu()`` when this runtime has no TPU."""


class RuntimeAlreadyStartedError(RuntimeError):
    """Raised by ``simulate_devices()`` once TensorFlow has started with another device layout."""


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


def is_colab():
    """True inside a Google Colab runtime."""
    return "google.colab" in sys.modules


def platform_name():
    """Return "Colab", "Kaggle" or "local"."""
    if is_colab():
        return "Colab"
    if "KAGGLE_KERNEL_RUN_TYPE" in os.environ:
        return "Kaggle"
    return "local"


def runtime_started():
    """True once TensorFlow's runtime has started and its device layout is fixed.

    Reads TensorFlow's own flag (a private attribute: there is no public one); it is the
    flag ``tf.config.set_logical_device_configuration`` checks before refusing a change.
    """
    from tensorflow.python.eager import context

    return getattr(context.context(), "_context_handle", None) is not None


def detect(probe_tpu=None):
    """Return a ``HardwareReport`` of this runtime.

    Before the runtime has started, it lists physical devices and the configured split
    only, so ``simulate_devices()`` still works afterwards. ``probe_tpu``: None (default)
    initialises a TPU only when the machine shows signs of one (TensorFlow lists a TPU, TPU
    device files, or the libtpu package); True always tries, which starts the runtime;
    False never does.
    """
    import keras
    import tensorflow as tf

    tpu, notes = _tpu_status(tf, probe_tpu)
    started = runtime_started()
    logical = _logical_device_names(tf, started)
    splittable = ("CPU", "GPU")
    physical = [d for d in tf.config.get_visible_devices() if d.device_type in splittable]
    split = [name for name in logical if name.split(":")[-2] in splittable]
    return HardwareReport(
        platform=platform_name(),
        python=platform.python_version(),
        tensorflow=tf.__version__,
        keras=keras.__version__,
        tpu=tpu,
        gpus=_gpu_infos(tf, started),
        cpu_cores=_cpu_cores(),
        logical_devices=logical,
        simulated=len(split) > len(physical),
        runtime_started=started,
        notes=notes,
    )


def simulate_devices(n, kind="CPU", memory_limit_mb=None):
    """Split the CPU (or the first GPU) into ``n`` logical devices; return their names.

    Call it first, before any other TensorFlow work: it starts the runtime so the names it
    returns are real. A GPU needs a memory limit for each logical GPU (default 1024 MB).
    Calling it again with the same arguments is a harmless no-op. Once the runtime has
    started with a different layout it raises ``RuntimeAlreadyStartedError``.
    """
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"n must be a whole number of devices, at least 1; got {n!r}")
    if str(kind).upper() not in ("CPU", "GPU"):
        raise ValueError(f"kind must be 'CPU' or 'GPU', got {kind!r}")
    kind = str(kind).upper()
    if kind == "CPU" and memory_limit_mb is not None:
        raise ValueError("memory_limit_mb applies to kind='GPU' only: CPU memory cannot be capped")
    import tensorflow as tf

    physical = tf.config.list_physical_devices(kind)
    if not physical:
        raise ValueError(f"TensorFlow sees no {kind} to split; use kind='CPU' on this machine")
    device = physical[0]
    limit = (memory_limit_mb or 1024) if kind == "GPU" else None
    layout = [tf.config.LogicalDeviceConfiguration(memory_limit=limit)] * int(n)
    configured = tf.config.get_logical_device_configuration(device)
    unsplit_cpu = kind == "CPU" and n == 1 and not configured
    if not (runtime_started() and unsplit_cpu):  # one unsplit CPU is already what was asked
        try:
            tf.config.set_logical_device_configuration(device, layout)
        except RuntimeError as err:
            have = len(tf.config.list_logical_devices(kind))
            call = f"simulate_devices({n}" + (", kind='GPU'" if kind == "GPU" else "") + ")"
            raise RuntimeAlreadyStartedError(
                f"TensorFlow has already started with {_plural(have, f'logical {kind} device')}, "
                f"and its device layout cannot change now. Restart the runtime (Colab: Runtime > "
                f"Restart session) and call {call} first, before any other TensorFlow work."
            ) from err
    return [d.name for d in tf.config.list_logical_devices(kind)]


def connect_tpu():
    """Return a ``TPUClusterResolver`` for this machine's TPU, initialised once per process.

    Uses ``TPUClusterResolver(tpu="local")``, the way Colab and Cloud TPU VMs attach their
    TPU. This starts TensorFlow's runtime. Raises ``NoTPUError`` (saying how to get a TPU on
    Colab) when there is none.
    """
    global _tpu_resolver
    if _tpu_resolver is None:
        import tensorflow as tf

        try:
            resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="local")
            tf.tpu.experimental.initialize_tpu_system(resolver)
        # These two are what TensorFlow raises when there is no TPU to attach.
        except (ValueError, tf.errors.NotFoundError) as err:
            raise NoTPUError(_no_tpu_message()) from err
        _tpu_resolver = resolver
    return _tpu_resolver


def _no_tpu_message():
    return (
        "No TPU found: TPUClusterResolver(tpu='local') has no TPU to initialise. "
        "To get one on Colab choose Runtime > Change runtime type > TPU. Colab's TPU runtimes "
        "do not come with TensorFlow: `pip install tensorflow-tpu` (its newest release, which "
        "can be a version behind tensorflow) before the first `import tensorflow`, as lesson 6 "
        "does. Without a TPU, use the GPU or CPU strategies."
    )


def _tpu_status(tf, probe_tpu):
    """Return (TPU description or None, notes) following ``detect``'s probing rule."""
    hint = _tpu_hint(tf)
    if _tpu_resolver is None and not (probe_tpu or (probe_tpu is None and hint)):
        return None, []
    try:
        connect_tpu()
    except NoTPUError as err:
        notes = [f"This machine shows signs of a TPU ({hint}), but: {err}"] if hint else []
        return None, notes
    return _plural(len(tf.config.list_logical_devices("TPU")), "TPU core"), []


def _tpu_hint(tf):
    """Return why this machine may have a TPU, or None, without starting the runtime."""
    if tf.config.list_physical_devices("TPU"):
        return "TensorFlow lists a TPU"
    if glob.glob("/dev/accel[0-9]*") or glob.glob("/dev/vfio/[0-9]*"):
        return "TPU device files in /dev"
    if importlib.util.find_spec("libtpu") is not None:
        return "the libtpu package is installed"
    return None


def _logical_device_names(tf, started):
    """Return the logical device names, predicted from the configuration before a start."""
    if started:
        return [d.name for d in tf.config.list_logical_devices()]
    names, counters = [], {}
    for device in tf.config.get_visible_devices():  # one name per configured split, else one
        for _ in range(len(tf.config.get_logical_device_configuration(device) or [None])):
            index = counters.get(device.device_type, 0)
            counters[device.device_type] = index + 1
            names.append(f"/device:{device.device_type}:{index}")
    return names


def _gpu_infos(tf, started):
    """Return a GPUInfo per visible physical GPU, without starting the runtime."""
    gpus, first_logical = [], 0
    for device in tf.config.get_visible_devices("GPU"):
        details = tf.config.experimental.get_device_details(device)
        capability = details.get("compute_capability")
        layout = tf.config.get_logical_device_configuration(device) or [None]
        in_use = None
        if started:  # memory use is only known to a running runtime
            names = [f"GPU:{first_logical + i}" for i in range(len(layout))]
            used = sum(tf.config.experimental.get_memory_info(n)["current"] for n in names)
            in_use = used / 2**20
        gpus.append(
            GPUInfo(
                name=details.get("device_name", device.name),
                compute_capability=".".join(map(str, capability)) if capability else None,
                memory_limits_mb=[c.memory_limit for c in layout] if len(layout) > 1 else [],
                memory_in_use_mb=in_use,
            )
        )
        first_logical += len(layout)
    return gpus


def _cpu_cores():
    """CPU cores this process may use (fewer than the machine has in a container)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _plural(n, noun):
    return f"{n} {noun}{'' if n == 1 else 's'}"
