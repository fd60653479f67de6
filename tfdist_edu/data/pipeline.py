"""From examples to batches: ``batches``, and the split sizes ``load`` takes."""

import numbers

from tfdist_edu import settings

FAST_SIZES = (4096, 1024)  # (train, test) examples in fast mode, unless asked otherwise
SHUFFLE_BUFFER = 10_000  # examples; a full shuffle of SVHN would hold ~900 MB


def batches(ds, global_batch, shuffle=True, seed=0, cache=True, drop_remainder=False,
            repeat=False, autotune=False):
    """Return ``ds`` as a pipeline of ``global_batch``-sized batches, prefetched.

    The order matters: ``cache`` keeps the decoded examples in memory after the first pass,
    ``shuffle`` then draws a fresh order every epoch (from ``seed`` and TensorFlow's global
    seed: set that one first, with ``keras.utils.set_random_seed``, or a pipeline built before
    it shuffles in another order than one built after), ``repeat`` makes it
    endless (for ``steps_per_epoch``), and batching comes last so a batch is the *global*
    batch that a strategy splits across replicas. ``drop_remainder`` drops a short last batch.

    tf.data's autotuning is off unless ``autotune``: the examples are in memory and the
    prefetch sizes its buffer by itself, so there is nothing to tune, and the tuning thread can
    hold a call that has finished until its next wake-up (lesson 1). The same goes for the
    pipelines a strategy builds from this one to feed each device: ``device_pipelines``.
    """
    import tensorflow as tf

    from tfdist_edu.data import device_pipelines

    global_batch = positive_int(global_batch, "global_batch")
    if not autotune:
        device_pipelines.turn_off()
    if cache:
        ds = ds.cache()
    if shuffle:
        known = int(ds.cardinality())
        buffer = min(known, SHUFFLE_BUFFER) if known > 0 else SHUFFLE_BUFFER
        ds = ds.shuffle(buffer, seed=seed, reshuffle_each_iteration=True)
    if repeat:
        ds = ds.repeat()
    options = tf.data.Options()
    options.autotune.enabled = bool(autotune)
    return (ds.batch(global_batch, drop_remainder=drop_remainder).prefetch(tf.data.AUTOTUNE)
            .with_options(options))


def sizes(num_train, num_test):
    """Return the requested (train, test) sizes; None means the whole split.

    By default fast mode (``TFDIST_EDU_FAST``) takes ``FAST_SIZES`` and normal mode everything.
    """
    defaults = FAST_SIZES if settings.fast_mode() else (None, None)
    return tuple(default if size is None else positive_int(size, label)
                 for size, default, label in zip((num_train, num_test), defaults,
                                                 ("num_train", "num_test")))


def positive_int(value, label):
    """Return ``value`` as an int, or raise ValueError when it is not a positive integer."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"{label} must be a positive integer, got {value!r}")
    return int(value)
