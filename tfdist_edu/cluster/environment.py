"""The environment of a TensorFlow child process: the workers of :func:`launch_workers` get it,
and so do the parameter-server tasks and the instructor's compatibility runs."""

import os
from pathlib import Path


def worker_env(base=None, threads=None, legacy_keras=False):
    """Return the environment for a TensorFlow child process.

    Quiet C++ logs, unbuffered output, this package importable, GPU memory grown on demand (so
    several processes can share one GPU), ``threads`` intra-op threads (defaults to this
    machine's cores shared among the workers by the caller), and ``TF_USE_LEGACY_KERAS=1`` only
    when ``legacy_keras`` is true, so tf.keras means tf-keras in that child alone.
    """
    env = dict(os.environ if base is None else base)
    env.pop("TF_CONFIG", None)  # a stale TF_CONFIG from the notebook must not leak into children
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    env["PYTHONUNBUFFERED"] = "1"
    env.setdefault("TF_FORCE_GPU_ALLOW_GROWTH", "true")
    package_root = str(Path(__file__).resolve().parents[2])  # the directory holding tfdist_edu/
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    if threads:
        env["TF_NUM_INTRAOP_THREADS"] = str(threads)
        env["OMP_NUM_THREADS"] = str(threads)
        env["TF_NUM_INTEROP_THREADS"] = str(max(2, threads))
    if legacy_keras:
        env["TF_USE_LEGACY_KERAS"] = "1"
    else:
        env.pop("TF_USE_LEGACY_KERAS", None)
    return env
