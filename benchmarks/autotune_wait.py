"""Do `fit` calls wait for tf.data's autotuning thread? The same calls with autotuning on and off.

tf.data's autotuning runs a thread per pipeline that wakes 10 ms after the pipeline starts,
then after 20 ms, 40 ms and so on, each wait twice the last: its wake-ups fall 0.01, 0.03, 0.07,
..., 2.55, 5.11, 10.23, 20.47 s after the start. If a call that read a finite pipeline to its end
waits for the next wake-up before it returns, its time lands on one of those points instead of
where its work ended. This script times the course CNN's `fit` over the same finite pipeline
(lesson 1's timed calls: 120 steps of global batch 128, no shuffle, no cache) under each of
lesson 1's strategies (default, OneDeviceStrategy, MirroredStrategy over 2 logical CPUs), once
with autotuning on (TensorFlow's defaults: on in the input pipeline and in the pipelines a
strategy builds to feed its devices) and once off (`data.batches`: off in both, through
`data.device_pipelines`), all six arms alternated round by round, and prints:

- every call's seconds, and how many calls ended within 0.5 s after a wake-up point (from
  5.11 s on, above every arm's typical call; a strategy's own pipelines start a little after the call);
- for each strategy, `timing.paired` of its two arms: the typical ratio, its 95% interval and
  the verdict.

    .venv/bin/python benchmarks/autotune_wait.py [--rounds 10] [--steps 120]

Run it alone on the machine: it is a timing.
"""

import argparse
import os
import statistics
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

WAKE_UPS = [0.01 * (2 ** k - 1) for k in range(9, 13)]  # 5.11, 10.23, 20.47, 40.95 s


def on_a_wake_up(seconds, tolerance=0.5):
    """The wake-up point ``seconds`` ends just after, or None."""
    return next((w for w in WAKE_UPS if 0 <= seconds - w <= tolerance), None)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10, help="alternated rounds (pairs)")
    parser.add_argument("--steps", type=int, default=120, help="steps of global batch 128 a call")
    args = parser.parse_args(argv)

    from tfdist_edu import quiet

    quiet.import_tensorflow()
    import keras
    import tensorflow as tf

    from tfdist_edu import data, hardware, models, timing
    from tfdist_edu.other_load import OtherLoad

    from tfdist_edu.data import device_pipelines

    hardware.simulate_devices(2, kind="CPU")
    course = data.load("fashion_mnist")
    batch = 128
    strategies = {"default": tf.distribute.get_strategy(),
                  "one_device": tf.distribute.OneDeviceStrategy("/cpu:0"),
                  "mirrored": tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])}

    def arm(strategy, autotune):
        with strategy.scope():
            keras.utils.set_random_seed(0)
            model = models.fashion_cnn()
            model.compile(optimizer=keras.optimizers.Adam(1e-3), jit_compile=False,
                          loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))

        def call():
            pipeline = data.batches(course.train.take(args.steps * batch), batch, shuffle=False,
                                    cache=False, autotune=autotune)
            (device_pipelines.turn_on if autotune else device_pipelines.turn_off)()
            model.fit(pipeline, epochs=1, shuffle=False, verbose=0)
        return call

    arms = {f"{name}, autotuning {'on' if on else 'off'}": arm(strategy, on)
            for name, strategy in strategies.items() for on in (True, False)}
    others = OtherLoad().start()
    started = time.perf_counter()
    seconds = timing.alternate(arms, repeats=args.rounds, warmup=1)
    print(f"{hardware.detect().summary()} | {course.describe().split(' (')[0]} | TensorFlow "
          f"{tf.__version__}, Keras {keras.__version__} | {args.steps} steps of global batch {batch} "
          f"a call, jit_compile=False; 1 untimed round, then {args.rounds} alternated rounds in "
          f"{time.perf_counter() - started:.0f} s; other processes used {others.stop():.2f} of a core")
    for name, times in seconds.items():
        landed = [t for t in times if on_a_wake_up(t) is not None]
        print(f"{name:>26}: {', '.join(f'{t:.2f}' for t in times)}")
        print(f"{'':>26}  median {statistics.median(times):.2f} s; {len(landed)} of {len(times)} "
              f"calls ended within 0.5 s after a wake-up point "
              f"({', '.join(f'{w:.2f}' for w in WAKE_UPS)} s)")
    for name in strategies:
        print(timing.paired(seconds[f"{name}, autotuning off"], seconds[f"{name}, autotuning on"],
                            f"{name}: autotuning on vs off, wall time per call"))


if __name__ == "__main__":
    main()
