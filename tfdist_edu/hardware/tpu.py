"""The TPU: ``connect_tpu()`` attaches and initialises it once per process, and ``detect()``
asks ``_tpu_status`` about it, probing only when the machine shows signs of one."""

import glob
import importlib.util

from tfdist_edu.hardware.report import _plural

# Set by connect_tpu(): initialising a TPU twice would drop the variables already on it.
_tpu_resolver = None


class NoTPUError(RuntimeError):
    """Raised by ``connect_tpu()`` when this runtime has no TPU."""


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
