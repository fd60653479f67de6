"""Keras 3 on the JAX backend, for lesson 9 (``keras.distribution``): the plumbing only.

The distribution code a student learns (``DeviceMesh``, ``DataParallel``, ``ModelParallel``,
``LayoutMap``, ``jax.distributed.initialize``) stays in the lesson. Nothing here imports
TensorFlow, and nothing imports JAX or Keras at import time: a kernel must choose its backend
(``KERAS_BACKEND``) and its simulated CPU devices (``XLA_FLAGS``) before either starts.

One concern a file:

- ``backend``: ``require_jax`` (one line saying how to install JAX, before any work),
  ``cpu_devices_flag`` (``XLA_FLAGS``), ``cpu_client_threads`` (``PJRT_NPROC``: threads enough
  for an all-reduce across the simulated devices), ``check_started`` (the kernel really runs Keras on JAX with the
  devices asked for)
- ``arrays``: the course's Fashion-MNIST as NumPy arrays, real (IDX files) or the labelled
  stand-in, without tf.data
- ``workers``: ``run_workers``, N JAX processes on one machine under the course's supervisor
  (loopback coordinator, deadline, streamed logs, nothing left behind)
"""

from tfdist_edu.keras_jax.backend import (INSTALL_HINT, BackendError, JaxMissingError,
                                          check_started, cpu_client_threads, cpu_devices_flag,
                                          require_jax)

__all__ = ["INSTALL_HINT", "BackendError", "JaxMissingError", "check_started",
           "cpu_client_threads", "cpu_devices_flag", "require_jax"]
