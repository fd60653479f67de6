"""How much throughput does tfdist_edu cost? Plain TensorFlow vs the package, side by side.

The same model, data and strategy train through two paths:
  plain   hand-written tf.data pipeline, bare Model.fit / a hand-written strategy.run loop
  package data.batches + TimingCallback for fit, training.CustomLoop for the custom loop
Epochs of the two paths alternate in one process, after one warm-up epoch each, so both see
the same machine state. It prints the median examples/s of each and the median of the
per-round throughput ratios (target: the package costs no more than 3%).

    .venv/bin/python benchmarks/package_overhead.py --epochs 7
"""

import argparse
import os
import statistics
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

from tfdist_edu import data, hardware, models, synthetic, timing, training  # noqa: E402


def plain_pipeline(images, labels, batch):
    ds = tf.data.Dataset.from_tensor_slices((images, labels))
    return ds.cache().shuffle(len(labels), seed=0).batch(batch).prefetch(tf.data.AUTOTUNE)


def package_pipeline(images, labels, batch):
    return data.batches(tf.data.Dataset.from_tensor_slices((images, labels)), batch, seed=0)


def compiled_model(strategy):
    with strategy.scope():
        model = models.fashion_cnn()
        model.compile(keras.optimizers.Adam(1e-3),
                      keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                      metrics=["accuracy"])
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
                loss = tf.nn.compute_average_loss(loss_fn(y, model(x, training=True)),
                                                  global_batch_size=batch)
            optimizer.apply(tape.gradient(loss, model.trainable_variables),
                            model.trainable_variables)
            return loss

        return strategy.reduce("SUM", strategy.run(replica_step, args=(images, labels)), None)

    def epoch(ds):
        for images, labels in strategy.experimental_distribute_dataset(ds):
            step(images, labels)

    return epoch


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=7, help="timed epochs per path")
    parser.add_argument("--examples", type=int, default=6144)
    parser.add_argument("--batch", type=int, default=128)
    args = parser.parse_args()

    images, labels = synthetic.fashion_mnist(args.examples, seed=0)
    images = images.astype("float32") / 255.0
    strategy = tf.distribute.get_strategy()
    print(f"{hardware.detect().summary()}; synthetic Fashion-MNIST, {args.examples} examples, "
          f"batch {args.batch}, default strategy; {args.epochs} alternating timed epochs per path")

    plain_ds = plain_pipeline(images, labels, args.batch)
    package_ds = package_pipeline(images, labels, args.batch)
    plain_fit_model, package_fit_model = compiled_model(strategy), compiled_model(strategy)
    run = timing.RunTiming(name="package fit")
    callback = timing.TimingCallback(run)
    plain_loop = plain_ctl(strategy, args.batch)
    with strategy.scope():
        package_loop = training.CustomLoop(strategy, models.fashion_cnn(),
                                           keras.optimizers.Adam(1e-3), args.batch)

    paths = {
        "plain fit": lambda: plain_fit_model.fit(plain_ds, epochs=1, verbose=0),
        "package fit": lambda: package_fit_model.fit(package_ds, epochs=1, verbose=0,
                                                     callbacks=[callback]),
        "plain custom loop": lambda: plain_loop(plain_ds),
        "package custom loop": lambda: package_loop.fit(package_ds, epochs=1, verbose=False),
    }
    seconds = {name: [] for name in paths}
    for round_ in range(args.epochs + 1):
        # Reverse the order every other round so neither path always runs first.
        order = list(paths.items())[::-1 if round_ % 2 else 1]
        for name, train_one_epoch in order:
            start = time.perf_counter()
            train_one_epoch()
            if round_ > 0:  # round 0 is the warm-up: tracing and graph building
                seconds[name].append(time.perf_counter() - start)
        print(f"round {round_}/{args.epochs} done", flush=True)

    throughput = {name: args.examples / statistics.median(s) for name, s in seconds.items()}
    for name, value in throughput.items():
        print(f"{name:22s} {value:9,.0f} examples/s (median of {args.epochs})")
    for method in ("fit", "custom loop"):
        # Paired: each round's package epoch against the plain epoch run beside it, so slow
        # spells of a shared machine hit both sides of a ratio.
        ratios = [plain / package for plain, package in
                  zip(seconds[f"plain {method}"], seconds[f"package {method}"])]
        ratio = statistics.median(ratios)
        print(f"{method}: package / plain throughput = {ratio:.3f} (median of {len(ratios)} "
              f"paired rounds, spread {min(ratios):.2f}-{max(ratios):.2f}; "
              f"{'within' if ratio >= 0.97 else 'OVER'} the 3% budget)")

if __name__ == "__main__":
    main()
