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

    Each simulated device then computes on one thread (``--xla_cpu_multi_thread_eigen=false``):
    with the devices sharing XLA's pool of threads, an all-reduce can wait for a device whose
    work never gets a thread. XLA aborts a process whose all-reduce waited 40 s (seen with jax
    0.10.2: 4 devices on 2 cores, and 2 devices on a 2-core machine busy with other jobs), so
    where jaxlib has the flags (0.9 and newer) the wait is raised to ``PATIENCE_S``.
    Earlier values of these flags are replaced; other flags are kept.
    """
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(f"count must be a positive integer, got {count!r}")
    kept = _DEVICE_FLAG.sub("", os.environ.get("XLA_FLAGS", "") if flags is None else flags)
    kept = _TIMEOUT_FLAG.sub("", _EIGEN_FLAG.sub("", kept))
    flags = [*kept.split(), f"--xla_force_host_platform_device_count={count}",
             "--xla_cpu_multi_thread_eigen=false"]
    if _jaxlib_version() >= (0, 9):  # older XLA lacks the flags (openxla/xla#32115) and would abort
        flags += [f"--xla_cpu_collective_call_warn_stuck_timeout_seconds={PATIENCE_S}",
                  f"--xla_cpu_collective_call_terminate_timeout_seconds={PATIENCE_S}"]
    return " ".join(flags)


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
