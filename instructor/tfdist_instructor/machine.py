"""One line naming the machine a stored or published measurement came from.

Read without importing TensorFlow: the CPU model and core count from the OS, the versions from
the installed distributions. Used for stored lesson outputs and the lesson-time table.
A version is that of the distribution providing the module (``installed_version``), so
tf-nightly, keras-nightly and tf-keras-nightly (the nightly canary) are read as well.
"""

import functools
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


@functools.lru_cache(maxsize=None)
def _providers():
    return metadata.packages_distributions()


def installed_version(module):
    """The version of the distribution that installs the import package ``module``, or None.

    Whatever its distribution is called: ``keras`` comes from keras or keras-nightly,
    ``tensorflow`` from tensorflow, tensorflow-cpu or tf-nightly, ``tf_keras`` from tf-keras
    or tf-keras-nightly.
    """
    for distribution in _providers().get(module, []):
        try:
            return metadata.version(distribution)
        except metadata.PackageNotFoundError:
            continue
    return None


def versions(names=("tensorflow", "keras")):
    """"TensorFlow 2.21.0, Keras 3.15.1" for whichever of the modules ``names`` are installed."""
    found = [(name, installed_version(name)) for name in names]
    return ", ".join(f"{name.capitalize().replace('flow', 'Flow')} {version}"
                     for name, version in found if version is not None)


def describe():
    """E.g. "2 CPU cores (Intel Xeon ..., Linux x86_64), no GPU, TensorFlow 2.21.0, Keras 3.15.1"."""
    gpus = "no GPU" if not os.path.exists("/dev/nvidia0") else "NVIDIA GPU present"
    return (f"{os.cpu_count()} CPU cores ({cpu_model()}, {platform.system()} "
            f"{platform.machine()}), {gpus}, {versions()}")
