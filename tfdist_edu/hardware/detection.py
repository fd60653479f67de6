"""Detection: the platform, whether the runtime has started, and ``detect()`` itself."""

import os
import platform
import sys

from tfdist_edu.hardware.report import GPUInfo, HardwareReport
from tfdist_edu.hardware.tpu import _tpu_status


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

    from tfdist_edu import quiet

    quiet.probe_devices()
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


def _logical_device_names(tf, started):
    """Return the logical device names, predicted from the configuration before a start."""
    if started:  # this process's own: connected to a cluster, TensorFlow lists every task's
        names = [d.name for d in tf.config.list_logical_devices()]  # devices, its own first
        own = names[0].rsplit("/device:", 1)[0] + "/device:" if names else ""
        return [name for name in names if name.startswith(own)]
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
