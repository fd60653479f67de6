"""The real data through TensorFlow Datasets: a prepared copy, a manual_dir, or a download."""

from tfdist_edu.data.course import build


def prepared(spec, data_dir):
    """Return (is the dataset prepared in TFDS's data folder?, that folder)."""
    import tensorflow_datasets as tfds

    builder = tfds.builder(spec.tfds_name, data_dir=data_dir)
    return builder.is_prepared(), builder.data_dir


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
