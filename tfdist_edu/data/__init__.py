"""The course datasets, Fashion-MNIST and SVHN, as tf.data pipelines: real or synthetic.

``load()`` decides where the data comes from, in a few seconds and in this order:

1. a copy that TensorFlow Datasets (TFDS) already prepared in ``data_dir``;
2. Fashion-MNIST's real IDX files on disk: ``manual_dir``, the folder in
   ``TFDIST_EDU_FASHION_MNIST_DIR``, Keras's cache, or Debian's package
   (``apt-get install dataset-fashion-mnist``), each file checked by its content;
   for SVHN, TFDS's official files in ``manual_dir``;
3. a TFDS download, when the network answers;
4. otherwise the synthetic stand-in of the ``synthetic`` package, with a printed message.

It never lets TFDS start a download it cannot finish: offline, TFDS retries for minutes.
Every ``CourseData`` says which source it got and why; lessons print ``describe()``.
TensorFlow is imported inside the functions that need it, so ``import tfdist_edu.data``
(e.g. for ``NAMES`` in the command-line parser) stays instant.

One concern a file:

- ``specs``: ``NAMES`` and what each dataset is, its IDX files' shapes and content hashes
- ``course``: ``CourseData`` (``describe()``, ``label``, ``origin``), ``DataUnavailableError``
- ``locate``: the decision between the sources; ``network``: the fast network probe
- ``idx``: reading and checking one IDX file; ``idx_source``: the folders, the real data
- ``tfds_source``, ``synthetic_source``: the other two sources
- ``pipeline``: ``batches`` and the split sizes (``FAST_SIZES``); ``device_pipelines``: the
  strategies' own per-device pipelines without tf.data's autotuning thread
"""

from tfdist_edu import settings
from tfdist_edu.data import idx_source, locate, synthetic_source, tfds_source
from tfdist_edu.data.course import CourseData, DataUnavailableError
from tfdist_edu.data.network import available as network_available
from tfdist_edu.data.pipeline import FAST_SIZES, SHUFFLE_BUFFER, batches, sizes
from tfdist_edu.data.specs import NAMES, get as _spec

__all__ = ["NAMES", "FAST_SIZES", "SHUFFLE_BUFFER", "CourseData", "DataUnavailableError",
           "available_source", "batches", "load", "network_available"]


def load(name, source=None, data_dir=None, manual_dir=None, num_train=None, num_test=None,
         seed=0):
    """Return a ``CourseData`` for ``name`` (one of ``NAMES``).

    ``source``: "auto", "idx", "tfds" or "synthetic"; None reads ``TFDIST_EDU_DATA`` (default
    "auto"). "auto" takes the first real source that works (see the module's docstring) and
    the synthetic stand-in otherwise, printing why. "idx" and "tfds" raise
    ``DataUnavailableError`` at once, in one line, when that source cannot be had.
    ``num_train``/``num_test`` cap the splits; by default fast mode (``TFDIST_EDU_FAST``) takes
    4096/1024 examples and normal mode the full splits (the stand-in has the real sizes).
    ``seed`` fixes the synthetic images (the test split uses a different stream).
    """
    spec = _spec(name)
    source, forced_by = _source(source)
    split_sizes = sizes(num_train, num_test)
    if source == "synthetic":
        return synthetic_source.load(name, spec, split_sizes, seed, f"forced by {forced_by}")
    choice = locate.choose(spec, source, forced_by, data_dir, manual_dir)
    if choice.source == "idx":
        return idx_source.load(name, spec, choice.arrays, split_sizes, choice.reason,
                               choice.location)
    reason = choice.reason
    if not choice.source and source == "tfds":
        raise DataUnavailableError(
            f"{spec.title} is required from TFDS ({forced_by}) but cannot be had: "
            f"{reason}. Connect to the internet, pass data_dir= with a prepared copy, put "
            f"{', '.join(spec.official_files)} in manual_dir=, or use source='synthetic'.")
    if choice.source:
        try:
            return tfds_source.load(name, spec, data_dir, manual_dir, split_sizes,
                                    choice.source, reason)
        except Exception as error:  # auto mode: a failed download must not stop a lesson
            if source == "tfds":
                raise
            reason = f"TFDS failed: {type(error).__name__}: {str(error).splitlines()[0][:200]}"
    print(f"{spec.title}: the real data is not available here ({reason}); "
          f"using the SYNTHETIC stand-in instead.")
    return synthetic_source.load(name, spec, split_sizes, seed, reason)


def available_source(name, data_dir=None, manual_dir=None):
    """Return one line saying where ``load(name)`` in auto mode would get its data, and why."""
    choice = locate.choose(_spec(name), "auto", "auto", data_dir, manual_dir)
    where = f" in {choice.location}" if choice.location else ""
    return f"{choice.source or 'synthetic'}{where} ({choice.reason})"


def _source(source):
    """Return (source, what forced it), reading ``TFDIST_EDU_DATA`` when ``source`` is None."""
    if source is None:
        source = settings.data_source()
        return source, f"TFDIST_EDU_DATA={source}"
    if source in settings.DATA_SOURCES:
        return source, f"source={source!r}"
    raise ValueError(f"source={source!r} is not a data source; use one of "
                     f"{', '.join(settings.DATA_SOURCES)} (or None for TFDIST_EDU_DATA)")
