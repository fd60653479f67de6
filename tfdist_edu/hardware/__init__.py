"""What machine is this: platform, versions, CPUs, GPUs, TPU, and simulated devices.

TensorFlow fixes its device layout when its runtime starts, which happens on the first
operation, the first ``list_logical_devices`` call, the first strategy, or a TPU
initialisation. After that, CPUs or a GPU can no longer be split into logical devices. So:

* call ``simulate_devices(n)`` first, before any other TensorFlow work;
* ``detect()`` is safe to call before it: while the runtime has not started it reads only
  physical devices and the configured split, and it probes for a TPU only when the machine
  shows signs of one (on a TPU machine, starting the runtime is what you want anyway);
* ``connect_tpu()`` starts the runtime, whether or not it finds a TPU.

One concern a file:

- ``report``: ``HardwareReport`` (its ``summary()`` and text and HTML tables) and ``GPUInfo``
- ``detection``: ``detect``, ``is_colab``, ``platform_name``, ``runtime_started`` and what
  ``detect`` reads: logical device names, GPUs, CPU cores
- ``simulated``: ``simulate_devices``, ``RuntimeAlreadyStartedError``
- ``tpu``: ``connect_tpu``, ``NoTPUError``, and the TPU probe ``detect`` uses
"""

import sys

from tfdist_edu import quiet
from tfdist_edu.hardware.detection import detect, is_colab, platform_name, runtime_started
from tfdist_edu.hardware.report import GPUInfo, HardwareReport
from tfdist_edu.hardware.simulated import RuntimeAlreadyStartedError, simulate_devices
from tfdist_edu.hardware.tpu import NoTPUError, connect_tpu

__all__ = [
    "GPUInfo", "HardwareReport",
    "detect", "is_colab", "platform_name", "runtime_started",
    "RuntimeAlreadyStartedError", "simulate_devices",
    "NoTPUError", "connect_tpu",
]

if "tensorflow" in sys.modules:  # a lesson's `import tensorflow as tf` came first: list the
    quiet.probe_devices()  # devices now, before its own call does, without the cuInit E-line
