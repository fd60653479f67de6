"""The tour's input: the same shuffled blocks of batches for every arm, cheap to start and stop.

Why not ``data.batches(..., repeat=True)`` with a fresh iterator per block? Measured on 2 CPU
cores, one arm's 117-step blocks then took about 2.6 s, 5.1 s or 10.6 s (x1, x2, x4), for two
reasons in the input pipeline, not in training:

- a new iterator over a shuffled, prefetched, endless pipeline fills a 10,000-example shuffle
  buffer when it starts, and when it is dropped it cancels tf.data's background threads, which
  often took 1.6-2.6 s after the last step ("Local rendezvous is aborting");
- tf.data's autotuned thread pool competes with the training step's own threads for the two
  cores, so a step took about 19 ms or about 32 ms for long stretches.

Here the whole epoch is shuffled once in NumPy (the same order for every arm), each block is
an in-memory slice of it, and its pipeline runs on one private thread with autotuning off,
as do the pipelines a strategy builds from it to feed each device (``data.device_pipelines``).
With a persistent pipeline built that way, the same arm's blocks repeated within about 5%.
"""

import numpy as np

from tfdist_edu.data import device_pipelines
from tfdist_edu.data.pipeline import positive_int


def one_thread_options():
    """tf.data options for a pipeline that runs on one private thread, autotuning off."""
    import tensorflow as tf

    options = tf.data.Options()
    options.threading.private_threadpool_size = 1
    options.threading.max_intra_op_parallelism = 1
    options.autotune.enabled = False
    return options


class BlockData:
    """``dataset(round_)``: the ``steps`` batches of ``global_batch`` examples a round trains on.

    Round r is block ``r % blocks_per_epoch`` of epoch ``r // blocks_per_epoch``; each epoch has
    its own permutation (seeded), so the blocks of one epoch cover distinct examples.
    """

    def __init__(self, course, global_batch, steps, blocks_per_epoch, seed=0):
        self.global_batch = positive_int(global_batch, "global_batch")
        self.steps, self.blocks_per_epoch, self.seed = steps, blocks_per_epoch, seed
        images, labels = next(iter(course.train.batch(course.num_train)))  # once, ~190 MB at most
        self.images, self.labels = images.numpy(), labels.numpy()
        self._options = one_thread_options()
        device_pipelines.turn_off()  # a strategy's per-device pipelines: no tuning thread either

    def indices(self, round_):
        """The example indices of round ``round_``, in training order."""
        epoch, block = divmod(round_, self.blocks_per_epoch)
        order = np.random.default_rng(self.seed + epoch).permutation(len(self.labels))
        size = self.steps * self.global_batch
        return order[block * size:(block + 1) * size]

    def dataset(self, round_):
        """A finite tf.data pipeline of exactly ``steps`` batches for round ``round_``."""
        import tensorflow as tf

        chosen = self.indices(round_)
        ds = tf.data.Dataset.from_tensor_slices((self.images[chosen], self.labels[chosen]))
        return ds.batch(self.global_batch, drop_remainder=True).with_options(self._options)
