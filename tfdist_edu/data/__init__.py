"""The course datasets, Fashion-MNIST and SVHN, as tf.data pipelines: real or synthetic.

``load()`` decides where the data comes from, in a few seconds and in this order:

1. a copy that TensorFlow Datasets (TFDS) already prepared in ``data_dir``;
2. the official files, under their official names, in a ``manual_dir``;
3. a TFDS download, when the network answers;
4. otherwise the synthetic stand-in of the ``synthetic`` package, with a printed message.

It never lets TFDS start a download it cannot finish: offline, TFDS retries for minutes.
Every ``CourseData`` says which source it got and why; lessons print ``describe()``.
TensorFlow is imported inside the functions that need it, so ``import tfdist_edu.data``
(e.g. for ``NAMES`` in the command-line parser) stays instant.
"""

import dataclasses
import numbers
import os
import socket
import ssl
import threading
import time
from typing import Callable

from tfdist_edu import settings, synthetic

NAMES = ("fashion_mnist", "svhn")
FAST_SIZES = (4096, 1024)  # (train, test) examples in fast mode, unless asked otherwise
SHUFFLE_BUFFER = 10_000  # examples; a full shuffle of SVHN would hold ~900 MB
# TFDS keeps its prepared datasets here; if a TLS handshake with it succeeds, downloads work.
PROBE_HOST = "storage.googleapis.com"
PROBE_TIMEOUT = 2.0  # seconds


@dataclasses.dataclass(frozen=True)
class _Spec:
    title: str
    tfds_name: str
    image_shape: tuple
    class_names: tuple
    split_sizes: tuple  # (train, test) of the official splits; the stand-in matches them
    official_files: tuple  # what TFDS looks for in a manual_dir (checksums are verified)
    generate: Callable  # the stand-in: (n, seed) -> (uint8 images, int64 labels)


_SPECS = {
    "fashion_mnist": _Spec(
        "Fashion-MNIST", "fashion_mnist", (28, 28, 1), synthetic.FASHION_CLASSES, (60_000, 10_000),
        ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz",
         "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"),
        synthetic.fashion_mnist),
    "svhn": _Spec(
        "SVHN", "svhn_cropped", (32, 32, 3), synthetic.SVHN_CLASSES, (73_257, 26_032),
        # TFDS prepares the 'extra' split too, so it needs all three files.
        ("train_32x32.mat", "test_32x32.mat", "extra_32x32.mat"),
        synthetic.svhn),
}


class DataUnavailableError(RuntimeError):
    """TFDS was required (``source="tfds"``) but no way to get the data was found."""


@dataclasses.dataclass(frozen=True)
class CourseData:
    """One course dataset: unbatched train and test pipelines and where they came from.

    ``train`` and ``test`` yield ``(image, label)``: float32 images in [0, 1] of shape
    ``image_shape`` and int64 labels indexing ``class_names``. ``source`` is "tfds",
    "manual_dir" or "synthetic"; ``reason`` says why that source was used.
    """

    name: str
    title: str
    train: "tf.data.Dataset"
    test: "tf.data.Dataset"
    image_shape: tuple
    num_classes: int
    class_names: tuple
    num_train: int
    num_test: int
    source: str
    reason: str

    @property
    def origin(self):
        """Where the examples came from, e.g. "SYNTHETIC stand-in" or "TFDS fashion_mnist"."""
        return {
            "synthetic": "SYNTHETIC stand-in",
            "tfds": f"TFDS {_SPECS[self.name].tfds_name}",
            "manual_dir": f"TFDS {_SPECS[self.name].tfds_name} from manual_dir",
        }[self.source]

    @property
    def label(self):
        """A short label for figures and tables: title, origin and training-set size."""
        return f"{self.title}, {self.origin}, {self.num_train} train examples"

    def describe(self):
        """Return one line for a lesson to print: the data, its origin and its sizes."""
        shape = "x".join(str(d) for d in self.image_shape)
        return (f"{self.title}: {self.origin} ({self.reason}), {self.num_train} train / "
                f"{self.num_test} test, {shape}, {self.num_classes} classes")


def load(name, source=None, data_dir=None, manual_dir=None, num_train=None, num_test=None,
         seed=0):
    """Return a ``CourseData`` for ``name`` (one of ``NAMES``).

    ``source``: "auto", "tfds" or "synthetic"; None reads ``TFDIST_EDU_DATA`` (default "auto").
    "auto" uses TFDS when the data is prepared in ``data_dir``, its official files are in
    ``manual_dir`` or the network answers, and the synthetic stand-in otherwise (printing why).
    "tfds" raises ``DataUnavailableError`` at once when none of the three holds.
    ``num_train``/``num_test`` cap the splits; by default fast mode (``TFDIST_EDU_FAST``) takes
    4096/1024 examples and normal mode the full splits (the stand-in has the real sizes).
    ``seed`` fixes the synthetic images (the test split uses a different stream).
    """
    spec = _spec(name)
    if source is None:
        source = settings.data_source()
        forced_by = f"TFDIST_EDU_DATA={source}"
    elif source in settings.DATA_SOURCES:
        forced_by = f"source={source!r}"
    else:
        raise ValueError(f"source={source!r} is not a data source; use one of "
                         f"{', '.join(settings.DATA_SOURCES)} (or None for TFDIST_EDU_DATA)")
    num_train, num_test = _sizes(num_train, num_test)

    if source == "synthetic":
        return _load_synthetic(name, spec, num_train, num_test, seed,
                               reason=f"forced by {forced_by}")
    origin, reason = _locate(spec, data_dir, manual_dir)
    if origin is None and source == "tfds":
        raise DataUnavailableError(
            f"{spec.title} is required from TFDS ({forced_by}) but cannot be had: "
            f"{reason}. Connect to the internet, pass data_dir= with a prepared copy, put "
            f"{', '.join(spec.official_files)} in manual_dir=, or use source='synthetic'.")
    if origin is not None:
        try:
            return _load_tfds(name, spec, data_dir, manual_dir, num_train, num_test, origin,
                              reason)
        except Exception as error:  # auto mode: a failed download must not stop a lesson
            if source == "tfds":
                raise
            reason = f"TFDS failed: {type(error).__name__}: {str(error).splitlines()[0][:200]}"
    print(f"{spec.title}: the real data is not available here ({reason}); "
          f"using the SYNTHETIC stand-in instead.")
    return _load_synthetic(name, spec, num_train, num_test, seed, reason)


def available_source(name, data_dir=None, manual_dir=None):
    """Return one line saying where ``load(name)`` in auto mode would get its data, and why."""
    origin, reason = _locate(_spec(name), data_dir, manual_dir)
    return f"{origin or 'synthetic'} ({reason})"


def network_available(host=None, port=443, timeout=PROBE_TIMEOUT):
    """Return True when a TLS handshake with ``host`` (default ``PROBE_HOST``) succeeds.

    The whole check, name lookup included, takes at most ``timeout`` seconds. A handshake
    with a verified certificate, not just an open TCP port, shows the internet is really there
    (some sandboxes accept every connection).
    """
    host = host or PROBE_HOST
    reached = []

    def probe():
        try:
            with socket.create_connection((host, port), timeout=timeout) as connection:
                with ssl.create_default_context().wrap_socket(connection, server_hostname=host):
                    reached.append(True)
        except OSError:  # includes DNS failures, timeouts and certificate errors
            pass

    # A daemon thread bounds the name lookup too, which socket timeouts do not cover.
    thread = threading.Thread(target=probe, daemon=True)
    thread.start()
    thread.join(timeout)
    return bool(reached)


def batches(ds, global_batch, shuffle=True, seed=0, cache=True, drop_remainder=False,
            repeat=False):
    """Return ``ds`` as a pipeline of ``global_batch``-sized batches, prefetched.

    The order matters: ``cache`` keeps the decoded examples in memory after the first pass,
    ``shuffle`` then draws a fresh order every epoch (from ``seed``), ``repeat`` makes it
    endless (for ``steps_per_epoch``), and batching comes last so a batch is the *global*
    batch that a strategy splits across replicas. ``drop_remainder`` drops a short last batch.
    """
    import tensorflow as tf

    global_batch = _positive_int(global_batch, "global_batch")
    if cache:
        ds = ds.cache()
    if shuffle:
        known = int(ds.cardinality())
        buffer = min(known, SHUFFLE_BUFFER) if known > 0 else SHUFFLE_BUFFER
        ds = ds.shuffle(buffer, seed=seed, reshuffle_each_iteration=True)
    if repeat:
        ds = ds.repeat()
    return ds.batch(global_batch, drop_remainder=drop_remainder).prefetch(tf.data.AUTOTUNE)


def _spec(name):
    if name not in _SPECS:
        raise ValueError(f"unknown dataset {name!r}; choose one of {', '.join(NAMES)}")
    return _SPECS[name]


def _sizes(num_train, num_test):
    """Return the requested (train, test) sizes; None means the whole split."""
    defaults = FAST_SIZES if settings.fast_mode() else (None, None)
    return tuple(default if size is None else _positive_int(size, label)
                 for size, default, label in zip((num_train, num_test), defaults,
                                                 ("num_train", "num_test")))


def _positive_int(value, label):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"{label} must be a positive integer, got {value!r}")
    return int(value)


def _locate(spec, data_dir, manual_dir):
    """Return (origin, reason): origin "tfds", "manual_dir", or None when nothing works."""
    import tensorflow_datasets as tfds

    builder = tfds.builder(spec.tfds_name, data_dir=data_dir)
    if builder.is_prepared():
        return "tfds", f"prepared copy in {builder.data_dir}"
    missing = []
    if manual_dir is not None:
        missing = [file for file in spec.official_files
                   if not os.path.isfile(os.path.join(manual_dir, file))]
        if not missing:
            return "manual_dir", f"official files in {manual_dir}"
    start = time.perf_counter()
    if network_available():
        return "tfds", f"network reachable, downloading to {builder.data_dir}"
    checked = [f"nothing prepared in {builder.data_dir}"]
    if missing:
        checked.append(f"manual_dir lacks {', '.join(missing)}")
    return None, (f"offline: {PROBE_HOST} not reached in {time.perf_counter() - start:.1f} s; "
                  + "; ".join(checked))


def _load_tfds(name, spec, data_dir, manual_dir, num_train, num_test, origin, reason):
    import tensorflow_datasets as tfds

    splits = [split if size is None else f"{split}[:{size}]"
              for split, size in (("train", num_train), ("test", num_test))]
    train, test = tfds.load(
        spec.tfds_name, split=splits, as_supervised=True, data_dir=data_dir, download=True,
        download_and_prepare_kwargs={
            "download_config": tfds.download.DownloadConfig(manual_dir=manual_dir)})
    return _course_data(name, spec, train, test, origin, reason)


def _load_synthetic(name, spec, num_train, num_test, seed, reason):
    import tensorflow as tf

    splits = []
    for stream, (size, full) in enumerate(zip((num_train, num_test), spec.split_sizes)):
        images, labels = spec.generate(full if size is None else size, seed=(seed, stream))
        splits.append(tf.data.Dataset.from_tensor_slices((images, labels)))
    return _course_data(name, spec, *splits, "synthetic", reason)


def _course_data(name, spec, train, test, source, reason):
    import tensorflow as tf

    def to_float(image, label):
        return tf.image.convert_image_dtype(image, tf.float32), tf.cast(label, tf.int64)

    train, test = (ds.map(to_float, num_parallel_calls=tf.data.AUTOTUNE) for ds in (train, test))
    return CourseData(
        name=name, title=spec.title, train=train, test=test, image_shape=spec.image_shape,
        num_classes=len(spec.class_names), class_names=spec.class_names,
        num_train=int(train.cardinality()), num_test=int(test.cardinality()),
        source=source, reason=reason)
