# Generated from cells of notebooks/08_parameter_server.ipynb by scripts/lesson_scripts.py,
# joined in this order: ps-part-strategy, ps-part-data, ps-part-model, ps-part-step, ps-part-evaluate, ps-part-loop.
# Edit the lesson, not this file.
"""Lesson 8: the coordinator of a parameter-server cluster, training the course CNN.

It runs as the chief task. The ps and worker tasks run no code of their own: they serve.
"""
import argparse
import time

import keras
import numpy as np
import tensorflow as tf

from tfdist_edu import data, models, worker

parser = argparse.ArgumentParser()
parser.add_argument("--rounds", type=int, default=3)
parser.add_argument("--steps-per-round", type=int, default=20)
parser.add_argument("--per-worker-batch", type=int, default=64)
parser.add_argument("--min-shard-bytes", type=int, default=0, help="0: no partitioning")
parser.add_argument("--by-shard", action="store_true", help="differentiate the shards")
args = parser.parse_args()

# (1) Connect to the cluster that TF_CONFIG describes. Variables created in the strategy's
#     scope go to the parameter servers, cut into shards when there is a partitioner.
resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
num_ps = resolver.cluster_spec().num_tasks("ps")
partitioner = None
if args.min_shard_bytes:
    partitioner = tf.distribute.experimental.partitioners.MinSizePartitioner(
        min_shard_bytes=args.min_shard_bytes, max_shards=num_ps)
strategy = tf.distribute.ParameterServerStrategy(resolver, variable_partitioner=partitioner)
coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)
print(f"coordinator: {resolver.cluster_spec().num_tasks('worker')} workers, {num_ps} ps, "
      f"Keras {keras.__version__}, partitioned: {partitioner is not None}")


# (2) Every worker builds its own input pipeline: the coordinator sends dataset_fn to each
#     worker, which runs it there. The shuffle has no seed, and no global seed is set yet,
#     so each worker draws its own order and the workers do not read the same examples.
def dataset_fn():
    course = data.load("fashion_mnist")
    return (course.train.shuffle(10_000).repeat()
            .batch(args.per_worker_batch, drop_remainder=True).prefetch(2))


per_worker_dataset = coordinator.create_per_worker_dataset(dataset_fn)
per_worker_iterator = iter(per_worker_dataset)


# (3) The model, a Keras 3 optimizer and the training metric, created in the scope: their
#     variables live on the parameter servers.
with strategy.scope():
    keras.utils.set_random_seed(0)
    model = models.fashion_cnn()
    optimizer = keras.optimizers.Adam(1e-3)
    train_accuracy = keras.metrics.SparseCategoricalAccuracy()
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction=None)


def variables_to_train():
    """The model's trainable variables, or with --by-shard every shard of them."""
    if not args.by_shard:
        return model.trainable_variables
    return [shard for v in model.trainable_variables
            for shard in getattr(v.value, "variables", [v.value])]


# (4) One training step. Whichever worker is free runs it: it reads the variables from the
#     parameter servers, computes a gradient on its own batch, and sends the update back.
#     It returns the loss and the index of the worker that ran it.
@tf.function
def train_step(iterator):
    def replica_fn(images, labels):
        variables = variables_to_train()
        with tf.GradientTape() as tape:
            logits = model(images, training=True)
            loss = tf.nn.compute_average_loss(loss_fn(labels, logits))
        grads = tape.gradient(loss, variables)
        optimizer.apply_gradients(zip(grads, variables))
        train_accuracy.update_state(labels, logits)
        return loss

    loss = strategy.run(replica_fn, args=next(iterator))
    return loss, tf.distribute.coordinator.experimental_get_current_worker_index()


# (5) Inline evaluation: between rounds of training, the coordinator evaluates the current
#     variables on the whole test set itself, every test example exactly once.
test = data.batches(data.load("fashion_mnist").test, 256, shuffle=False)


def evaluate():
    accuracy = keras.metrics.SparseCategoricalAccuracy()
    for images, labels in test:
        accuracy.update_state(labels, model(images, training=False))
    return float(accuracy.result())


# (6) The loop: schedule a round of steps (schedule returns at once), wait for all of them
#     with join, read their results with fetch, then evaluate.
record = {"loss": [], "worker": [], "train_accuracy": [], "test_accuracy": []}
start = time.perf_counter()
try:
    for round_ in range(1, args.rounds + 1):
        train_accuracy.reset_state()
        steps = [coordinator.schedule(train_step, args=(per_worker_iterator,))
                 for _ in range(args.steps_per_round)]
        coordinator.join()
        for remote in steps:
            loss, worker_index = remote.fetch()
            record["loss"].append(float(loss))
            record["worker"].append(int(worker_index))
        record["train_accuracy"].append(float(train_accuracy.result()))
        record["test_accuracy"].append(evaluate())
        worker.report_epoch(round_)  # tells the runner a round is done; no-op outside it
        print(f"round {round_}: loss {np.mean(record['loss'][-args.steps_per_round:]):.4f}, "
              f"train accuracy {record['train_accuracy'][-1]:.4f}, "
              f"test accuracy {record['test_accuracy'][-1]:.4f}")
except AttributeError as err:  # what Keras 3 does with a sharded variable: see the lesson
    record["error"] = str(err).strip().splitlines()[-1].strip()  # the last line says it
    print("training failed:", record["error"])
record["seconds"] = time.perf_counter() - start
record["placement"] = [  # where every variable, or every shard of one, lives
    {"variable": v.path, "shard": i, "device": part.device, "shape": list(part.shape)}
    for v in model.variables for i, part in enumerate(getattr(v.value, "variables", [v.value]))]
worker.write_result(record)
