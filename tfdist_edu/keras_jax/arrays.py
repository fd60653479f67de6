"""The course's Fashion-MNIST as NumPy arrays, for a kernel that runs Keras on JAX.

``data.load`` builds tf.data pipelines, which would start TensorFlow beside JAX. This reads
the same sources without TensorFlow, in this order: the real IDX files on disk (the folders
``tfdist_edu.data`` checks, contents checked); with a network, ``keras.datasets``'s download
into Keras's cache, read from there the same way; otherwise the labelled synthetic stand-in.
``TFDIST_EDU_DATA`` forces "idx" or "synthetic" as it does for ``data.load``.
"""

import dataclasses

import numpy as np

from tfdist_edu import settings
from tfdist_edu.data import locate, network, pipeline, specs
from tfdist_edu.data.course import DataUnavailableError


@dataclasses.dataclass(frozen=True)
class CourseArrays:
    """Images as float32 in [0, 1] of shape (n, 28, 28, 1), labels as int32, and their origin."""

    title: str
    x_train: np.ndarray
    y_train: np.ndarray
    x_test: np.ndarray
    y_test: np.ndarray
    class_names: tuple
    source: str  # "idx" or "synthetic"
    reason: str
    location: str = ""

    @property
    def origin(self):
        return ("SYNTHETIC stand-in" if self.source == "synthetic"
                else f"real (IDX files in {self.location})")

    def describe(self):
        """One line for a lesson to print, as ``CourseData.describe`` words it."""
        shape = "x".join(str(d) for d in self.x_train.shape[1:])
        return (f"{self.title}: {self.origin} ({self.reason}), {len(self.x_train)} train / "
                f"{len(self.x_test)} test, {shape}, {len(self.class_names)} classes")


def load(num_train=None, num_test=None, source=None, seed=0):
    """Return ``CourseArrays`` of Fashion-MNIST; sizes as ``data.load`` takes them (fast mode cuts)."""
    spec = specs.get("fashion_mnist")
    source = source or settings.data_source()
    if source not in ("auto", "idx", "synthetic"):
        raise ValueError(f"source={source!r}: the NumPy loader reads 'auto', 'idx' or 'synthetic' "
                         f"(TFDS needs TensorFlow; use data.load in a TensorFlow kernel)")
    sizes = pipeline.sizes(num_train, num_test)
    if source == "synthetic":
        return _synthetic(spec, sizes, seed, "forced by TFDIST_EDU_DATA=synthetic or source=")
    if source == "idx":
        choice = locate.choose(spec, "idx", "source='idx'")
        return _real(spec, choice, sizes)
    checked = []
    choice = locate._first_idx(spec, None, checked)
    if choice is None and network.available():
        import keras

        keras.datasets.fashion_mnist.load_data()  # downloads into Keras's cache, read below
        choice = locate._first_idx(spec, None, checked)
    if choice is None:
        reason = "; ".join(checked) or "no IDX files found"
        print(f"{spec.title}: the real data is not available here ({reason}); using the "
              f"SYNTHETIC stand-in instead.")
        return _synthetic(spec, sizes, seed, reason)
    return _real(spec, choice, sizes)


def _scaled(images, labels, size):
    images = images[:size, ..., None].astype("float32") / 255.0
    return images, labels[:size].astype("int32")


def _real(spec, choice, sizes):
    if not choice.arrays:
        raise DataUnavailableError(f"{spec.title}: {choice.reason}")
    train, test = (_scaled(*pair, size) for pair, size in
                   zip((choice.arrays[:2], choice.arrays[2:]), sizes))
    return CourseArrays(spec.title, *train, *test, spec.class_names, "idx", choice.reason,
                        choice.location)


def _synthetic(spec, sizes, seed, reason):
    splits = []
    for stream, (size, full) in enumerate(zip(sizes, spec.split_sizes)):
        images, labels = spec.generate(full if size is None else size, seed=(seed, stream))
        splits += _scaled(images.reshape(len(images), 28, 28), labels, None)
    return CourseArrays(spec.title, *splits, spec.class_names, "synthetic", reason)
