"""How long a local 2-worker cluster takes to start, and what synchronisation costs per step.

Runs, side by side in one invocation, the same training step (a small dense model on synthetic
data, the same global batch) in one process with the default strategy and in two local worker
processes with MultiWorkerMirroredStrategy, ``--repeats`` times each, alternating. Every run is
a fresh child process; the time to the first step is measured from the moment it is launched.

    python benchmarks/cluster_startup.py [--global-batch 256] [--steps 50] [--repeats 2]

The same file is the worker script (``--worker``), so the two sides run identical code.
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tfdist_edu import cluster, supervisor, worker


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--global-batch", type=int, default=256)
    parser.add_argument("--steps", type=int, default=50, help="timed steps after the first")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--worker", choices=["single", "multi"], help=argparse.SUPPRESS)
    parser.add_argument("--launched-at", type=float, default=None, help=argparse.SUPPRESS)
    return parser.parse_args()


def measure(args):
    """One side of the comparison; writes its timings with worker.write_result."""
    launched = args.launched_at
    import numpy as np
    import tensorflow as tf

    import keras

    imported = time.time()
    strategy = (
        tf.distribute.MultiWorkerMirroredStrategy()
        if args.worker == "multi"
        else tf.distribute.get_strategy()
    )
    joined = time.time()

    rng = np.random.default_rng(0)
    x = rng.normal(size=(8192, 64)).astype("float32")
    y = rng.integers(0, 10, size=8192).astype("int64")
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(args.global_batch)
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
    iterator = iter(strategy.experimental_distribute_dataset(dataset.with_options(options)))
    with strategy.scope():
        model = keras.Sequential(
            [keras.Input((64,)), keras.layers.Dense(256, activation="relu"), keras.layers.Dense(10)]
        )
        optimizer = keras.optimizers.SGD(0.01)
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction=None)

    @tf.function
    def train_step(iterator):
        def step_fn(features, labels):
            with tf.GradientTape() as tape:
                loss = tf.nn.compute_average_loss(
                    loss_fn(labels, model(features)), global_batch_size=args.global_batch
                )
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return loss

        return strategy.reduce("SUM", strategy.run(step_fn, args=next(iterator)), axis=None)

    float(train_step(iterator))  # traces and runs the first step
    first = time.time()
    start = time.perf_counter()
    for _ in range(args.steps):
        float(train_step(iterator))  # float() waits for the step, as a training loop's logging does
    per_step = (time.perf_counter() - start) / args.steps
    worker.write_result(
        {
            "import_s": imported - launched,
            "join_s": joined - imported,
            "first_step_s": first - launched,
            "per_step_s": per_step,
        }
    )


def run_single(args):
    """The baseline: one process, default strategy, all cores."""
    with tempfile.TemporaryDirectory() as tmp:
        result = Path(tmp, "single.json")
        env = {**cluster.worker_env(), worker.RESULT_ENV: str(result)}
        with supervisor.Supervisor(deadline_s=300, echo=False) as sup:
            sup.start(
                "single", [sys.executable, __file__, "--worker=single", *common(args)], env=env
            )
            sup.wait()
        return json.loads(result.read_text())


def run_cluster(args):
    """Two local workers; the chief's timings (both workers step in lock-step)."""
    run = cluster.launch_workers(
        __file__, num_workers=2, args=["--worker=multi", *common(args)], deadline_s=300, echo=False
    )
    return run.results[0]


def common(args):
    return [
        f"--global-batch={args.global_batch}",
        f"--steps={args.steps}",
        f"--launched-at={time.time()}",
    ]


def main():
    args = parse_args()
    if args.worker:
        return measure(args)
    runs = {"1 process, default strategy": [], "2 local workers, MWMS": []}
    for _ in range(args.repeats):  # alternate, so load changes on a shared machine hit both sides
        runs["1 process, default strategy"].append(run_single(args))
        runs["2 local workers, MWMS"].append(run_cluster(args))

    print(
        f"\n{os.cpu_count()} CPU cores; synthetic data; global batch {args.global_batch}; "
        f"dense 64-256-10; {args.steps} timed steps; median of {args.repeats} runs each"
    )
    print(f"{'run':<30}{'import TF':>11}{'join':>8}{'first step':>12}{'per step':>11}")
    medians = {}
    for name, results in runs.items():
        m = {key: statistics.median(r[key] for r in results) for key in results[0]}
        medians[name] = m
        print(
            f"{name:<30}{m['import_s']:>10.1f}s{m['join_s']:>7.1f}s{m['first_step_s']:>11.1f}s"
            f"{m['per_step_s'] * 1000:>9.2f}ms"
        )
    single, multi = medians.values()
    print(f"\nstart-up to first step, 2 workers: {multi['first_step_s']:.1f} s")
    print(
        f"per-step time, 2 workers / 1 process: {multi['per_step_s'] / single['per_step_s']:.2f}x"
    )


if __name__ == "__main__":
    main()
