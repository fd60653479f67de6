# Generated from the cell 'mwms-fit-script' of notebooks/07_multi_worker.ipynb by scripts/lesson_scripts.py:
# edit the lesson, not this file.
"""Lesson 7: Model.fit under MultiWorkerMirroredStrategy, through tf-keras.

Run it with TF_USE_LEGACY_KERAS=1, so that tf.keras below is tf-keras (Keras 2).
"""
import hashlib

import numpy as np
import tensorflow as tf

from tfdist_edu import data, worker

args = worker.training_options("--backup-dir")  # the same options as mwms_ctl.py's

strategy = tf.distribute.MultiWorkerMirroredStrategy()
global_batch = args.per_worker_batch * strategy.num_replicas_in_sync
print(f"tf.keras comes from the {tf.keras.__name__.split('.')[0]} package")

# Keras shards the dataset across the workers itself.
course = data.load("fashion_mnist")
dataset = data.batches(course.train, global_batch, repeat=True, drop_remainder=True)

with strategy.scope():
    tf.keras.utils.set_random_seed(0)
    # The course CNN again, written with tf.keras layers: a Keras 3 model cannot train in tf-keras.
    model = tf.keras.Sequential([
        tf.keras.Input(course.image_shape),
        tf.keras.layers.Conv2D(32, 3, activation="relu"),
        tf.keras.layers.MaxPooling2D(),
        tf.keras.layers.Conv2D(64, 3, activation="relu"),
        tf.keras.layers.MaxPooling2D(),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(64, activation="relu"),
        tf.keras.layers.Dense(course.num_classes),
    ])
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-3),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])


class ReportProgress(tf.keras.callbacks.Callback):
    """Tells the launcher the epoch fit starts at, and each epoch it ends (no-ops elsewhere)."""

    def __init__(self):
        super().__init__()
        self.initial_epoch = None

    def on_epoch_begin(self, epoch, logs=None):
        if self.initial_epoch is None:  # after a restart, BackupAndRestore has moved it on
            self.initial_epoch = epoch
            worker.report_start(epoch)

    def on_epoch_end(self, epoch, logs=None):
        worker.report_epoch(epoch + 1)


# BackupAndRestore saves the training state after each epoch; after a restart, fit resumes there.
# It comes first, so an epoch's backup exists before the epoch is reported done.
progress = ReportProgress()
history = model.fit(dataset, epochs=args.epochs, steps_per_epoch=args.steps_per_epoch, verbose=2,
                    callbacks=[tf.keras.callbacks.BackupAndRestore(args.backup_dir), progress])

weights = model.get_weights()
fingerprint = hashlib.sha256(b"".join(w.tobytes() for w in weights)).hexdigest()[:16]  # as in mwms_ctl.py
worker.write_result({"initial_epoch": progress.initial_epoch, "loss": history.history["loss"],
                     "weights_sum": float(sum(np.sum(w, dtype="float64") for w in weights)),
                     "final_weights": fingerprint})
