"""What the two multi-worker reference scripts share: their options and their data.

Imports TensorFlow only inside training_dataset(), so a script can still set
TF_USE_LEGACY_KERAS before it does.
"""

import argparse
import hashlib
import os
import tempfile

import numpy as np

from tfdist_edu import worker

FEATURES, CLASSES = 16, 4


def parse_args(description, state_dir_option, state_dir_name):
    """Parse the training options, plus ``state_dir_option`` (checkpoints or backups).

    Its default is ``state_dir_name`` inside the run folder the launcher gives the workers.
    """
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--steps-per-epoch", type=int, default=20)
    parser.add_argument("--per-worker-batch", type=int, default=32)
    parser.add_argument("--learning-rate", type=float, default=0.1)
    run_dir = os.environ.get(worker.RUN_DIR_ENV, tempfile.gettempdir())
    parser.add_argument(state_dir_option, default=os.path.join(run_dir, state_dir_name))
    return parser.parse_args()


def synthetic_data(n=2048, features=FEATURES, classes=CLASSES, seed=0):
    """A learnable stand-in (synthetic): labels come from a fixed random linear teacher."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, features)).astype("float32")
    y = np.argmax(x @ rng.normal(size=(features, classes)), axis=1).astype("int64")
    return x, y


def training_dataset(global_batch):
    """The synthetic data as an endless, shuffled pipeline of global batches.

    Every worker builds the same seeded pipeline; DATA sharding gives each its part of
    every global batch.
    """
    import tensorflow as tf

    x, y = synthetic_data()
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(len(x), seed=1)
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
    return dataset.repeat().batch(global_batch).with_options(options)


def weights_summary(weights):
    """A digest of every weight's bytes (equal on two workers only if their weights are) and
    the weights' sum, for a worker's result JSON."""
    digest = hashlib.sha256()
    for w in weights:
        digest.update(np.ascontiguousarray(w).tobytes())
    return {"weights_sha256": digest.hexdigest(),
            "weights_sum": float(sum(np.sum(w, dtype="float64") for w in weights))}
