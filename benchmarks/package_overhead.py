"""How much throughput does tfdist_edu cost? Plain TensorFlow vs the package, side by side.

The same model, data and strategy train through two paths:
  plain   a hand-written tf.data pipeline, bare Model.fit / a hand-written strategy.run loop
  package data.batches + TimingCallback for fit, training.CustomLoop for the custom loop
          (once silent, once with its progress bar on, written to /dev/null)

On a shared 2-core machine whole epochs drift too much to resolve a few percent, so each package
path runs in short blocks of a few dozen steps right beside its plain twin (in a random order),
and the ratio of the two blocks is one measurement. Each comparison is the course's one verdict
(``timing.paired``: the typical paired throughput ratio and its 95% interval) with the 3% budget
as its threshold, wall and CPU time side by side; a path is shown within budget when the
interval lies above 1/1.03 (within 3%, or faster). CPU time measures the work a path adds; wall
time on a shared machine also counts other programs, so it may need more rounds to decide.

    .venv/bin/python benchmarks/package_overhead.py --rounds 100 --block 64
"""

import argparse
import contextlib
import os
import random
import statistics
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

from tfdist_edu import data, hardware, models, synthetic, timing, training  # noqa: E402

BUDGET = 0.97  # the package may cost at most 3% of plain TensorFlow's throughput


def compiled_model(strategy):
    with strategy.scope():
        model = models.fashion_cnn()
        model.compile(keras.optimizers.Adam(1e-3),
                      keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
    return model


def plain_ctl(strategy, batch):
    """A hand-written custom loop: the code a student would write without the package."""
    with strategy.scope():
        model = models.fashion_cnn()
        optimizer = keras.optimizers.Adam(1e-3)
        loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction=None)

    @tf.function
    def step(images, labels):
        def replica_step(x, y):
            with tf.GradientTape() as tape:
                loss = tf.nn.compute_average_loss(loss_fn(y, model(x, training=True)), global_batch_size=batch)
            optimizer.apply(tape.gradient(loss, model.trainable_variables), model.trainable_variables)
            return loss

        return strategy.reduce("SUM", strategy.run(replica_step, args=(images, labels)), None)

    def run(ds):
        for images, labels in strategy.experimental_distribute_dataset(ds):
            step(images, labels)

    return run


def quietly(func):
    """``func`` with its printing sent to /dev/null: progress is drawn, nobody reads it."""
    def run():
        with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
            func()
    return run


def build_paths(images, labels, batch, block):
    strategy = tf.distribute.get_strategy()
    slices = tf.data.Dataset.from_tensor_slices((images, labels))
    plain = slices.cache().shuffle(len(labels), seed=0).batch(batch).prefetch(tf.data.AUTOTUNE).repeat().take(block)
    package = data.batches(slices, batch, seed=0).repeat().take(block)
    plain_fit, package_fit = compiled_model(strategy), compiled_model(strategy)
    callback = timing.TimingCallback(timing.RunTiming(name="package fit"))
    plain_loop = plain_ctl(strategy, batch)
    with strategy.scope():
        loop = training.CustomLoop(strategy, models.fashion_cnn(), keras.optimizers.Adam(1e-3), batch)
    return {
        "plain fit": lambda: plain_fit.fit(plain, epochs=1, verbose=0),
        "package fit": lambda: package_fit.fit(package, epochs=1, verbose=0, callbacks=[callback]),
        "plain custom loop": lambda: plain_loop(plain),
        "package custom loop": lambda: loop.fit(package, epochs=1, verbose=False),
        "package custom loop, progress bar": quietly(lambda: loop.fit(package, epochs=1, verbose=True)),
    }


# Each package path is compared with the plain path that does the same work.
PAIRS = (("package fit", "plain fit"), ("package custom loop", "plain custom loop"),
         ("package custom loop, progress bar", "plain custom loop"))


def timed(path):
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    path()
    return time.perf_counter() - start_wall, time.process_time() - start_cpu


def measure(paths, rounds, seed):
    """Per pair, the plain/package ratios of wall and of CPU seconds, one per round.

    The two blocks of a pair run back to back, in a random order, so a slow spell of the
    machine hits both; the pairs run in a new random order every round. Round 0 warms up.
    """
    ratios = {pair: {"wall": [], "CPU": []} for pair in PAIRS}
    seconds = {name: [] for name in paths}
    rng = random.Random(seed)
    for round_ in range(rounds + 1):
        for package, plain in rng.sample(PAIRS, len(PAIRS)):
            first, second = rng.sample((package, plain), 2)
            times = {first: timed(paths[first]), second: timed(paths[second])}
            if round_:
                for clock, i in (("wall", 0), ("CPU", 1)):
                    ratios[package, plain][clock].append(times[plain][i] / times[package][i])
                for name in (package, plain):
                    seconds[name].append(times[name][0])
        if round_ % 10 == 0:
            print(f"round {round_}/{rounds}", flush=True)
    return ratios, seconds


def report(ratios, seconds, examples_per_block):
    """Print every comparison; return {clock: True when every package path is shown within budget}."""
    for name, times in seconds.items():
        print(f"  {name:36s} {examples_per_block / statistics.median(times):9,.0f} examples/s (median block)")
    verdicts = {"CPU": True, "wall": True}
    for (package, plain), clocks in ratios.items():
        for clock, values in clocks.items():
            result = timing.Paired(f"{package} vs {plain}, {clock}", tuple(values), 1 / BUDGET - 1)
            inside = result.verdict in (timing.WITHIN, timing.FASTER)
            verdicts[clock] &= inside
            print(f"{result} {'Within' if inside else 'NOT shown within'} the 3% budget.")
    return verdicts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40, help="timed pairs per comparison")
    parser.add_argument("--block", type=int, default=32, help="training steps per block")
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    images, labels = synthetic.fashion_mnist(args.batch * args.block, seed=0)
    images = images.astype("float32") / 255.0
    print(f"{hardware.detect().summary()}; synthetic Fashion-MNIST stand-in, batch {args.batch}, "
          f"default strategy; {args.rounds} rounds of {args.block}-step blocks per path")
    ratios, seconds = measure(build_paths(images, labels, args.batch, args.block), args.rounds, args.seed)
    verdicts = report(ratios, seconds, args.batch * args.block)
    for clock, what in (("CPU", "CPU time, the work each path does"),
                        ("wall", "wall clock, which also counts every other program on the machine")):
        print(f"verdict on {what}: " + ("every package path within the 3% budget" if verdicts[clock] else
              "not shown within budget (an interval reaches below 1/1.03)"))


if __name__ == "__main__":
    main()
