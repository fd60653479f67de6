"""The tiny training job every combination runs: its size, data, model and a weights checksum.

Child side: these functions import TensorFlow and NumPy when called, never at import.
"""

import hashlib

FEATURES, CLASSES, PER_REPLICA_BATCH, STEPS = 8, 4, 16, 3
LEARNING_RATE = 0.1


def data(global_batch):
    """Synthetic, learnable examples (labels from a fixed linear teacher), repeated, in global batches."""
    import numpy as np
    import tensorflow as tf

    rng = np.random.default_rng(0)
    x = rng.normal(size=(512, FEATURES)).astype("float32")
    y = np.argmax(x @ rng.normal(size=(FEATURES, CLASSES)), axis=1).astype("int64")
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(global_batch, drop_remainder=True)
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
    return dataset.with_options(options)


def model(keras_module):
    keras_module.utils.set_random_seed(0)
    return keras_module.Sequential([
        keras_module.Input((FEATURES,)),
        keras_module.layers.Dense(16, activation="relu"),
        keras_module.layers.Dense(CLASSES),
    ])


def checksum(keras_model):
    import numpy as np

    digest = hashlib.sha256()
    for w in keras_model.get_weights():
        digest.update(np.ascontiguousarray(w).tobytes())
    return digest.hexdigest()
