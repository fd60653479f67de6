"""Parameter-server training: the coordinator's side, with a ``ClusterCoordinator`` custom loop.

``--in-process`` starts the whole cluster (ps and worker servers) inside this process first, as
the TensorFlow tutorial does on one machine; otherwise the cluster is read from TF_CONFIG, where
this process is the chief. The coordinator creates the variables on the parameter servers
(optionally sharded by ``MinSizePartitioner``), gives every worker its own dataset, schedules
training steps that whichever worker is free executes, and writes a result JSON: loss per step,
steps each worker ran, and the device of every variable shard.
"""

import argparse
import time

import numpy as np
import tensorflow as tf

import keras
from tfdist_edu import parameter_server, tfconfig, worker


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--in-process", action="store_true")
    parser.add_argument("--num-workers", type=int, default=2)
    parser.add_argument("--num-ps", type=int, default=1)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--learning-rate", type=float, default=0.1)
    parser.add_argument("--min-shard-bytes", type=int, default=0, help="0: no partitioning")
    return parser.parse_args()


def in_process_cluster(num_workers, num_ps):
    """Start worker and ps servers on loopback ports in this process; return their resolver."""
    # No chief here: the coordinator is this process, and it joins the cluster by itself.
    ports = iter(tfconfig.free_ports(num_workers + num_ps))
    jobs = {"worker": num_workers, "ps": num_ps}
    tf_spec = tf.train.ClusterSpec(
        {job: [f"localhost:{next(ports)}" for _ in range(n)] for job, n in jobs.items()}
    )
    for task_type, index in [(job, i) for job, n in jobs.items() for i in range(n)]:
        tf.distribute.Server(
            tf_spec,
            job_name=task_type,
            task_index=index,
            protocol="grpc",
            config=parameter_server.server_config(num_workers) if task_type == "worker" else None,
            start=True,
        )
    return tf.distribute.cluster_resolver.SimpleClusterResolver(tf_spec, rpc_layer="grpc")


def synthetic_dataset(batch, features=20, classes=10, n=4096):
    """Synthetic, learnable data: labels from a fixed random linear teacher (same seed always)."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, features)).astype("float32")
    y = np.argmax(x @ rng.normal(size=(features, classes)), axis=1).astype("int64")
    return tf.data.Dataset.from_tensor_slices((x, y)).shuffle(n).repeat().batch(batch).prefetch(2)


def placement(model):
    """Where each model variable lives: one entry per shard (one shard when not partitioned)."""
    rows = []
    for variable in model.variables:
        tf_variable = variable.value  # the tf.Variable (or ShardedVariable) behind a Keras variable
        shards = getattr(tf_variable, "variables", [tf_variable])
        for shard, part in enumerate(shards):
            rows.append(
                {
                    "variable": variable.path,
                    "shard": shard,
                    "device": part.device,
                    "shape": [int(d) for d in part.shape],
                }
            )
    return rows


def main():
    args = parse_args()
    resolver = (
        in_process_cluster(args.num_workers, args.num_ps)
        if args.in_process
        else tf.distribute.cluster_resolver.TFConfigClusterResolver()
    )
    partitioner = (
        tf.distribute.experimental.partitioners.MinSizePartitioner(
            min_shard_bytes=args.min_shard_bytes, max_shards=args.num_ps
        )
        if args.min_shard_bytes
        else None
    )
    strategy = tf.distribute.ParameterServerStrategy(resolver, variable_partitioner=partitioner)
    coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)
    print(
        f"coordinator: {args.num_workers} workers, {args.num_ps} ps, "
        f"partitioned: {partitioner is not None}"
    )

    with strategy.scope():  # variables are created on the parameter servers
        keras.utils.set_random_seed(0)
        model = keras.Sequential(
            [keras.Input((20,)), keras.layers.Dense(64, activation="relu"), keras.layers.Dense(10)]
        )
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    per_worker_iterator = iter(
        coordinator.create_per_worker_dataset(lambda: synthetic_dataset(args.batch))
    )

    @tf.function
    def train_step(iterator):
        def replica_fn(features, labels):
            with tf.GradientTape() as tape:
                loss = loss_fn(labels, model(features, training=True))
            # Plain SGD on the TensorFlow variables behind the Keras ones, shard by shard: each
            # update runs on the ps that holds the shard. (With TF 2.21 / Keras 3.15 the tape
            # cannot differentiate a sharded Keras variable as a whole: it has no 'handle'.
            # A Keras optimizer can update the shards; lesson 8 does that with Adam.)
            variables = [
                s
                for v in model.trainable_variables
                for s in getattr(v.value, "variables", [v.value])
            ]
            for variable, grad in zip(variables, tape.gradient(loss, variables)):
                variable.assign_sub(args.learning_rate * grad)
            return loss

        loss = strategy.run(replica_fn, args=next(iterator))
        return loss, tf.distribute.coordinator.experimental_get_current_worker_index()

    start = time.perf_counter()
    # schedule() returns at once; any free worker runs the step. join() waits for all of them.
    scheduled = [
        coordinator.schedule(train_step, args=(per_worker_iterator,)) for _ in range(args.steps)
    ]
    coordinator.join()
    seconds = time.perf_counter() - start

    losses, steps_per_worker = [], {f"worker {i}": 0 for i in range(args.num_workers)}
    for remote in scheduled:
        loss, worker_id = remote.fetch()
        losses.append(float(loss))
        steps_per_worker[f"worker {int(worker_id)}"] += 1
    print(
        f"loss {losses[0]:.3f} -> {losses[-1]:.3f} in {args.steps} steps, {seconds:.1f} s; "
        f"steps per worker: {steps_per_worker}"
    )
    worker.write_result(
        {
            "loss": losses,
            "steps_per_worker": steps_per_worker,
            "placement": placement(model),
            "num_workers": args.num_workers,
            "num_ps": args.num_ps,
            "seconds": round(seconds, 3),
        }
    )


if __name__ == "__main__":
    main()
