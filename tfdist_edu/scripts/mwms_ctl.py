# Generated from the cell 'mwms-ctl-script' of notebooks/07_multi_worker.ipynb by scripts/lesson_scripts.py:
# edit the lesson, not this file.
"""Lesson 7: train the course CNN with a Keras 3 custom loop under MultiWorkerMirroredStrategy.

Every worker runs this same file. Only the TF_CONFIG environment variable differs.
"""
import hashlib
import os
import shutil
import tempfile

import keras
import numpy as np
import tensorflow as tf

from tfdist_edu import data, models, worker


def is_chief(strategy):
    """True for the process that keeps the checkpoints: the chief task, else worker 0."""
    resolver = strategy.cluster_resolver
    if resolver is None or resolver.task_type is None:  # one process, no cluster
        return True
    if "chief" in resolver.cluster_spec().jobs:
        return resolver.task_type == "chief"
    return resolver.task_type == "worker" and resolver.task_id == 0


def fingerprint(model):
    """A short hash of every weight, bit for bit: equal hashes mean identical weights."""
    return hashlib.sha256(b"".join(w.tobytes() for w in model.get_weights())).hexdigest()[:16]


def train(strategy, course, epochs, steps_per_epoch, per_replica_batch, checkpoint_dir):
    """Train from the latest checkpoint in checkpoint_dir; return what the lesson compares."""
    global_batch = per_replica_batch * strategy.num_replicas_in_sync
    # First of all: the seed decides the shuffle order of (1), so a restarted worker reads the
    # same batches as before, and the comparison with one machine draws the same numbers.
    keras.utils.set_random_seed(0)

    # (1) The same pipeline on every worker. Auto-sharding gives each worker its own part of
    #     every global batch.
    dataset = data.batches(course.train, global_batch, repeat=True, drop_remainder=True)
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
    iterator = iter(strategy.experimental_distribute_dataset(dataset.with_options(options)))

    # (2) Everything with state is created in the scope: mirrored across all workers, each
    #     variable starting from the chief's initial value, which the strategy broadcasts.
    with strategy.scope():
        model = models.fashion_cnn()
        optimizer = keras.optimizers.Adam(1e-3)
        optimizer.build(model.trainable_variables)
        epoch = tf.Variable(0, dtype=tf.int64, trainable=False)
    initial_weights = fingerprint(model)
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction=None)

    # (3) Saving is a collective step, so every worker saves; only the chief's copy is kept.
    #     After a restart, every worker restores the chief's latest checkpoint.
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer, epoch=epoch)
    save_dir = checkpoint_dir if is_chief(strategy) else tempfile.mkdtemp()
    manager = tf.train.CheckpointManager(checkpoint, save_dir, max_to_keep=2)
    latest = tf.train.latest_checkpoint(checkpoint_dir)
    if latest:
        checkpoint.restore(latest)
    initial_epoch = int(epoch.numpy())
    worker.report_start(initial_epoch)  # tells the launcher; does nothing outside it
    print(f"starting at epoch {initial_epoch}")

    # (4) One training step: each replica scales its loss by the global batch, the
    #     gradients are all-reduced across the workers, every copy gets the same update.
    @tf.function
    def train_step(iterator):
        def step_fn(images, labels):
            with tf.GradientTape() as tape:
                per_example_loss = loss_fn(labels, model(images, training=True))
                loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=global_batch)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return loss

        per_replica_loss = strategy.run(step_fn, args=next(iterator))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_loss, axis=None)

    history, step_losses = [], []
    for e in range(initial_epoch, epochs):
        losses = [float(train_step(iterator)) for _ in range(steps_per_epoch)]
        step_losses += losses
        history.append(float(np.mean(losses)))
        epoch.assign(e + 1)
        manager.save()
        worker.report_epoch(e + 1)
        print(f"epoch {e + 1}/{epochs}: loss {history[-1]:.4f}")

    if save_dir != checkpoint_dir:
        shutil.rmtree(save_dir, ignore_errors=True)
    weights_sum = float(sum(np.sum(w, dtype="float64") for w in model.get_weights()))
    return {"initial_epoch": initial_epoch, "loss": history, "step_loss": step_losses,
            "weights_sum": weights_sum, "initial_weights": initial_weights,
            "final_weights": fingerprint(model),
            # launch_workers shares the cores among the workers: this many threads per op
            "threads_per_op": os.environ.get("TF_NUM_INTRAOP_THREADS", "default")}


if __name__ == "__main__":
    # --epochs, --steps-per-epoch, --per-worker-batch, and the folder for the checkpoints
    args = worker.training_options("--checkpoint-dir")

    # (5) The strategy reads TF_CONFIG and waits here until every worker has joined.
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    task = f"{strategy.cluster_resolver.task_type} {strategy.cluster_resolver.task_id}"
    print(f"{task}: {strategy.num_replicas_in_sync} replicas in sync, chief: {is_chief(strategy)}")
    course = data.load("fashion_mnist")
    try:
        result = train(strategy, course, args.epochs, args.steps_per_epoch, args.per_worker_batch,
                       args.checkpoint_dir)
    except tf.errors.UnavailableError:
        # A peer is gone. The others cannot go on without it: exit, and let the job restart.
        raise SystemExit(f"{task}: lost contact with a peer worker; exiting so the job can restart")
    worker.write_result({"task": task, **result})  # hands the result to the launcher
