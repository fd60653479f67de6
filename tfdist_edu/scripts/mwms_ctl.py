"""Reference multi-worker script: a Keras 3 custom training loop under MultiWorkerMirroredStrategy.

Run it through ``tfdist_edu.cluster.launch_workers(reference_script("mwms_ctl"), ...)`` or, on
real machines, once per host with that host's TF_CONFIG. Every worker runs the same code:

* the strategy reads TF_CONFIG and waits until all workers have joined;
* each worker reads its shard of the global batch (same seeded data everywhere);
* gradients are all-reduced, so every worker ends with the same weights;
* every worker saves a checkpoint each epoch (saving is a collective step), the chief into
  ``--checkpoint-dir``, the others into throw-away directories; after a restart all workers
  restore the chief's latest checkpoint and resume at the epoch it recorded.

It writes a result JSON (history, weight checksum, epoch it started from) via write_result.
"""

import os
import shutil
import tempfile

import tensorflow as tf

import keras
from tfdist_edu import worker
from tfdist_edu.scripts import common


def main():
    args = common.parse_args(__doc__.splitlines()[0], "--checkpoint-dir", "ckpt")
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    resolver = strategy.cluster_resolver
    is_chief = resolver.task_type == "chief" or (
        resolver.task_type == "worker"
        and resolver.task_id == 0
        and "chief" not in resolver.cluster_spec().jobs
    )
    global_batch = args.per_worker_batch * strategy.num_replicas_in_sync
    print(
        f"{resolver.task_type} {resolver.task_id}: {strategy.num_replicas_in_sync} replicas, "
        f"global batch {global_batch}"
    )

    dataset = common.training_dataset(global_batch)
    iterator = iter(strategy.experimental_distribute_dataset(dataset))

    with strategy.scope():
        keras.utils.set_random_seed(0)  # the same initial weights on every worker
        model = keras.Sequential(
            [
                keras.Input((common.FEATURES,)),
                keras.layers.Dense(32, activation="relu"),
                keras.layers.Dense(common.CLASSES),
            ]
        )
        optimizer = keras.optimizers.SGD(args.learning_rate)
        epoch = tf.Variable(0, dtype=tf.int64, trainable=False)
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction=None)

    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer, epoch=epoch)
    write_dir = args.checkpoint_dir if is_chief else tempfile.mkdtemp(prefix="worker-ckpt-")
    manager = tf.train.CheckpointManager(checkpoint, write_dir, max_to_keep=2)
    latest = tf.train.latest_checkpoint(args.checkpoint_dir)  # everyone restores the chief's copy
    if latest:
        checkpoint.restore(latest)
    initial_epoch = int(epoch.numpy())
    worker.report_start(initial_epoch)
    print(f"starting at epoch {initial_epoch}"  # the checkpoint by name: its folder is temporary
          + (f" (restored {os.path.basename(latest)} from --checkpoint-dir)" if latest else ""))

    @tf.function
    def train_step(iterator):
        def step_fn(features, labels):
            with tf.GradientTape() as tape:
                per_example = loss_fn(labels, model(features, training=True))
                loss = tf.nn.compute_average_loss(per_example, global_batch_size=global_batch)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return loss

        per_replica = strategy.run(step_fn, args=next(iterator))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)

    history = []
    for e in range(initial_epoch, args.epochs):
        total = 0.0
        for _ in range(args.steps_per_epoch):
            total += float(train_step(iterator))
        history.append(total / args.steps_per_epoch)
        epoch.assign(e + 1)
        manager.save()
        worker.report_epoch(e + 1)
        print(f"epoch {e + 1}/{args.epochs}: loss {history[-1]:.4f}")

    if not is_chief:
        shutil.rmtree(write_dir, ignore_errors=True)
    worker.write_result(
        {
            "task": [resolver.task_type, resolver.task_id],
            "initial_epoch": initial_epoch,
            "loss": history,
            **common.weights_summary(model.get_weights()),
        }
    )


if __name__ == "__main__":
    main()
