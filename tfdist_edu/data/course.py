"""What ``load`` returns: ``CourseData``, one dataset's pipelines labelled with their origin."""

import dataclasses

from tfdist_edu.data import specs


class DataUnavailableError(RuntimeError):
    """A real source was required (``source="tfds"`` or ``"idx"``) but cannot be had."""


@dataclasses.dataclass(frozen=True)
class CourseData:
    """One course dataset: unbatched train and test pipelines and where they came from.

    ``train`` and ``test`` yield ``(image, label)``: float32 images in [0, 1] of shape
    ``image_shape`` and int64 labels indexing ``class_names``. ``source`` is "tfds",
    "manual_dir", "idx" or "synthetic"; ``reason`` says why that source was used;
    ``location`` is the folder of the IDX files (source "idx").
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
    location: str = ""

    @property
    def origin(self):
        """Where the examples came from: "SYNTHETIC stand-in", or "real (...)" saying how."""
        tfds_name = specs.get(self.name).tfds_name
        return {
            "synthetic": "SYNTHETIC stand-in",
            "idx": f"real (IDX files in {self.location})",
            "tfds": f"real (TFDS {tfds_name})",
            "manual_dir": f"real (TFDS {tfds_name} from manual_dir)",
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


def build(name, spec, train, test, source, reason, location=""):
    """Return ``CourseData`` from uint8-image, integer-label pipelines (scaled to [0, 1] here)."""
    import tensorflow as tf

    def to_float(image, label):
        return tf.image.convert_image_dtype(image, tf.float32), tf.cast(label, tf.int64)

    train, test = (ds.map(to_float, num_parallel_calls=tf.data.AUTOTUNE) for ds in (train, test))
    return CourseData(
        name=name, title=spec.title, train=train, test=test, image_shape=spec.image_shape,
        num_classes=len(spec.class_names), class_names=spec.class_names,
        num_train=int(train.cardinality()), num_test=int(test.cardinality()),
        source=source, reason=reason, location=location)
