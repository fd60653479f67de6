"""Simulated devices: ``simulate_devices()`` splits the CPU or a GPU into logical devices."""

import numbers

from tfdist_edu.hardware.detection import runtime_started
from tfdist_edu.hardware.report import _plural


class RuntimeAlreadyStartedError(RuntimeError):
    """Raised by ``simulate_devices()`` once TensorFlow has started with another device layout."""


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

    from tfdist_edu import quiet

    quiet.probe_devices()
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
