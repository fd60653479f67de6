"""Choosing Keras's backend and JAX's devices for one process, with clear messages.

Keras reads ``KERAS_BACKEND`` once, when it is first imported; JAX reads ``XLA_FLAGS`` once,
when its first computation starts its CPU backend. A kernel that already did either keeps what
it got until it restarts, so the checks here say so in one line instead of training on the
wrong backend or the wrong devices.
"""

import importlib.util
import os
from importlib import metadata
import re
import sys

INSTALL_HINT = ("pip install 'jax[cpu]' (or, in a clone of the course: pip install -e '.[jax]'; "
                "Colab has JAX already), then restart the kernel")
_DEVICE_FLAG = re.compile(r"--xla_force_host_platform_device_count=\S*")
_EIGEN_FLAG = re.compile(r"--xla_cpu_multi_thread_eigen=\S*")
_TIMEOUT_FLAG = re.compile(r"--xla_cpu_collective_call_(warn_stuck_timeout|terminate_timeout)_seconds=\S*")
PATIENCE_S = 600  # how long an all-reduce may wait for a slow simulated device


class JaxMissingError(ImportError):
    """JAX is not installed in this Python; the message says how to install it."""


class BackendError(RuntimeError):
    """This process started Keras or JAX otherwise than asked; the message says what to do."""


def require_jax(what="This lesson"):
    """Raise ``JaxMissingError`` in one line when JAX cannot be imported here; else return None.

    Checks without importing anything, so it can run before the backend is chosen.
    """
    if importlib.util.find_spec("jax") is None:
        raise JaxMissingError(f"{what} runs Keras on JAX, which is not installed in "
                              f"{sys.executable}: {INSTALL_HINT}.")


def cpu_devices_flag(count, flags=None):
    """``XLA_FLAGS`` (``flags``, default the environment's) asking JAX for ``count`` CPU devices.

    Each simulated device then computes on one thread (``--xla_cpu_multi_thread_eigen=false``),
    as a real device computes on its own. Where jaxlib has the flags (0.9 and newer), an
    all-reduce may wait ``PATIENCE_S`` for a slow device before XLA aborts the process (40 s
    otherwise). Earlier values of these flags are replaced; other flags are kept. The threads
    that run the devices are set apart, by ``cpu_client_threads``.
    """
    _check_count(count)
    kept = _DEVICE_FLAG.sub("", os.environ.get("XLA_FLAGS", "") if flags is None else flags)
    kept = _TIMEOUT_FLAG.sub("", _EIGEN_FLAG.sub("", kept))
    flags = [*kept.split(), f"--xla_force_host_platform_device_count={count}",
             "--xla_cpu_multi_thread_eigen=false"]
    if _jaxlib_version() >= (0, 9):  # older XLA lacks the flags (openxla/xla#32115) and would abort
        flags += [f"--xla_cpu_collective_call_warn_stuck_timeout_seconds={PATIENCE_S}",
                  f"--xla_cpu_collective_call_terminate_timeout_seconds={PATIENCE_S}"]
    return " ".join(flags)


def cpu_client_threads(count, cores=None):
    """``PJRT_NPROC`` for ``count`` simulated CPU devices: ``max(cores, 2 * count)``, as a string.

    JAX's CPU client runs every device's part of a multi-device step on one pool of threads,
    of ``PJRT_NPROC`` threads (default: the number of cores, ``cores``). A step with an
    all-reduce needs ``count`` of them at once, one per device, waiting for each other. With
    jaxlib 0.10, while steps are queued ahead (Keras's ``fit`` and ``evaluate`` do not wait for
    each step), up to ``count`` more threads wait to queue the next step on a device that has
    its fill of queued steps. With ``count`` threads or fewer the all-reduce then never gets
    its last device and the process hangs; ``2 * count`` leaves a thread for every waiter.
    Never fewer than the cores, so a machine with many keeps its default.
    """
    _check_count(count)
    cores = (os.cpu_count() or 1) if cores is None else cores
    return str(max(cores, 2 * count))


def _check_count(count):
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(f"count must be a positive integer, got {count!r}")


def _jaxlib_version():
    try:
        return tuple(int(part) for part in metadata.version("jaxlib").split(".")[:2])
    except (metadata.PackageNotFoundError, ValueError):
        return (0, 0)


def check_started(cpu_devices):
    """Return ``(keras backend, jax.devices(), jax.devices("cpu"))`` once both have started.

    Raises ``BackendError`` when Keras runs another backend (it was imported before
    ``KERAS_BACKEND`` was set) or when JAX has a different number of CPU devices than
    ``cpu_devices`` (it started before ``XLA_FLAGS`` was set): both need a kernel restart.
    """
    import jax
    import keras

    if keras.backend.backend() != "jax":
        raise BackendError(f"Keras runs on {keras.backend.backend()}, not JAX: it was imported "
                           f"before KERAS_BACKEND=jax was set. Restart the kernel and run the "
                           f"cells from the top.")
    cpus = jax.devices("cpu")
    if len(cpus) != cpu_devices:
        raise BackendError(f"JAX has {len(cpus)} CPU device(s), not {cpu_devices}: it started "
                           f"before XLA_FLAGS asked for {cpu_devices}. Restart the kernel and "
                           f"run the cells from the top.")
    return keras.backend.backend(), jax.devices(), cpus
