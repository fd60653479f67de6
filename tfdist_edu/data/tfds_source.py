"""The real data through TensorFlow Datasets: a prepared copy, a manual_dir, or a download."""

import os

from tfdist_edu.data.course import build


def prepared(spec, data_dir):
    """Return (is the dataset prepared in TFDS's data folder?, that folder).

    A prepared folder holds the ``dataset_info.json`` that TFDS writes last. We look for it
    ourselves: ``builder.is_prepared()`` logs "WARNING:absl:Variant folder ... has no
    dataset_info.json" for every folder it finds unprepared, even one that does not exist, and
    every lesson asks this once per process before it reads the IDX files.
    """
    import tensorflow_datasets as tfds

    builder = tfds.builder(spec.tfds_name, data_dir=data_dir)
    return os.path.isfile(os.path.join(builder.data_dir, "dataset_info.json")), builder.data_dir


def load(name, spec, data_dir, manual_dir, sizes, source, reason):
    """Return ``CourseData`` from ``tfds.load`` (which downloads and prepares when needed)."""
    import tensorflow_datasets as tfds

    splits = [split if size is None else f"{split}[:{size}]"
              for split, size in zip(("train", "test"), sizes)]
    train, test = tfds.load(
        spec.tfds_name, split=splits, as_supervised=True, data_dir=data_dir, download=True,
        download_and_prepare_kwargs={
            "download_config": tfds.download.DownloadConfig(manual_dir=manual_dir)})
    return build(name, spec, train, test, source=source, reason=reason)
