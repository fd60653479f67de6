"""Reference multi-worker script: ``Model.fit`` with BackupAndRestore through tf-keras.

Keras 3's ``fit`` cannot run MultiWorkerMirroredStrategy across workers (keras-team/keras#20585),
and its BackupAndRestore is not worker-aware; tf-keras does both. The launcher runs this script
with ``legacy_keras=True``, which sets ``TF_USE_LEGACY_KERAS=1`` in the worker processes only,
so ``tf.keras`` below is tf-keras. BackupAndRestore saves the training state at the end of each
epoch (each worker into its own directory under ``--backup-dir``); after a restart every worker
restores it and ``fit`` continues from the next epoch. A result JSON (history, weight checksum,
epoch it started from) is written via write_result.
"""

import os

if os.environ.get("TF_USE_LEGACY_KERAS") != "1":
    raise SystemExit(
        "run this script with TF_USE_LEGACY_KERAS=1 (launch_workers(..., legacy_keras=True))"
    )

import tensorflow as tf

from tfdist_edu import worker
from tfdist_edu.scripts import common


class ReportProgress(tf.keras.callbacks.Callback):
    """Tells the launcher the epoch fit starts at (after BackupAndRestore) and each one it ends."""

    def __init__(self):
        super().__init__()
        self.initial_epoch = None

    def on_epoch_begin(self, epoch, logs=None):
        if self.initial_epoch is None:
            self.initial_epoch = epoch
            worker.report_start(epoch)
            print(f"starting at epoch {epoch}")

    def on_epoch_end(self, epoch, logs=None):
        worker.report_epoch(epoch + 1)


def main():
    args = common.parse_args(__doc__.splitlines()[0], "--backup-dir", "backup")
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    resolver = strategy.cluster_resolver
    global_batch = args.per_worker_batch * strategy.num_replicas_in_sync
    print(
        f"{resolver.task_type} {resolver.task_id}: tf.keras is {tf.keras.__name__.split('.')[0]}, "
        f"global batch {global_batch}"
    )

    dataset = common.training_dataset(global_batch)

    with strategy.scope():
        tf.keras.utils.set_random_seed(0)  # the same initial weights on every worker
        model = tf.keras.Sequential(
            [
                tf.keras.Input((common.FEATURES,)),
                tf.keras.layers.Dense(32, activation="relu"),
                tf.keras.layers.Dense(common.CLASSES),
            ]
        )
        model.compile(
            optimizer=tf.keras.optimizers.SGD(args.learning_rate),
            loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
            metrics=["accuracy"],
        )

    progress = ReportProgress()
    history = model.fit(
        dataset,
        epochs=args.epochs,
        steps_per_epoch=args.steps_per_epoch,
        callbacks=[tf.keras.callbacks.BackupAndRestore(args.backup_dir), progress],
        verbose=2,
    )

    worker.write_result(
        {
            "task": [resolver.task_type, resolver.task_id],
            "initial_epoch": progress.initial_epoch,
            "loss": [float(v) for v in history.history["loss"]],
            **common.weights_summary(model.get_weights()),
        }
    )


if __name__ == "__main__":
    main()
