"""One line naming the machine a stored or published measurement came from.

Read without importing TensorFlow: the CPU model and core count from the OS, the versions from
the installed distributions. Used for stored lesson outputs and the lesson-time table.
"""

import os
import platform
from importlib import metadata


def cpu_model():
    """The CPU's model name (from /proc/cpuinfo on Linux), or the platform's processor string."""
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def versions(names=("tensorflow", "keras")):
    """"TensorFlow 2.21.0, Keras 3.15.1" for whichever of ``names`` are installed."""
    found = []
    for name in names:
        try:
            found.append(f"{name.capitalize().replace('flow', 'Flow')} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            continue
    return ", ".join(found)


def describe():
    """E.g. "2 CPU cores (Intel Xeon ..., Linux x86_64), no GPU, TensorFlow 2.21.0, Keras 3.15.1"."""
    gpus = "no GPU" if not os.path.exists("/dev/nvidia0") else "NVIDIA GPU present"
    return (f"{os.cpu_count()} CPU cores ({cpu_model()}, {platform.system()} "
            f"{platform.machine()}), {gpus}, {versions()}")
