"""The offline stand-in: images drawn by ``tfdist_edu.synthetic``, labelled SYNTHETIC."""

from tfdist_edu.data.course import build


def load(name, spec, sizes, seed, reason):
    """Return ``CourseData`` of the stand-in; a size None draws the official split's size.

    ``seed`` fixes the images; the test split uses a different stream than the train split.
    """
    import tensorflow as tf

    splits = []
    for stream, (size, full) in enumerate(zip(sizes, spec.split_sizes)):
        images, labels = spec.generate(full if size is None else size, seed=(seed, stream))
        splits.append(tf.data.Dataset.from_tensor_slices((images, labels)))
    return build(name, spec, *splits, source="synthetic", reason=reason)
