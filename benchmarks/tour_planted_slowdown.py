"""Does the tour's verdict see a real 8% slowdown of one arm? Two twins, one of them slowed.

Two copies of the same tour arm (the default strategy's custom loop, by default) train
alternately, block by block, on the tour's own blocks and clocks. After every training step of
the second twin the process sleeps 8% of that twin's typical step (measured in its first,
untimed block), so its steps really take 8% longer. ``timing.paired`` must read the slowed twin
as slower, by about 8%, with a 95% interval that leaves 1 out; without the slowdown
(``--slowdown 0``) it must read the twins within 5%.

    .venv/bin/python benchmarks/tour_planted_slowdown.py [--slowdown 0.08] [--epochs 3]

Run it alone on the machine: it is a timing.
"""

import argparse
import os
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slowdown", type=float, default=0.08, help="extra time per step, as a share")
    parser.add_argument("--epochs", type=int, default=3, help="epochs of 8 blocks each")
    parser.add_argument("--method", choices=("fit", "custom loop"), default="custom loop")
    args = parser.parse_args(argv)

    from tfdist_edu import quiet

    quiet.import_tensorflow()
    from tfdist_edu import data, hardware, steadiness, timing, tour
    from tfdist_edu.tour.arms import Arm
    from tfdist_edu.tour.blocks import BlockData

    course = data.load("fashion_mnist")
    global_batch = 2 * tour.PER_REPLICA_BATCH  # the tour's own: two replicas' worth
    steps = max(1, course.num_train // global_batch // tour.BLOCKS_PER_EPOCH)
    twins = [Arm("default", args.method, course, global_batch, steps, hardware.detect().summary())
             for _ in range(2)]
    slowed = twins[1]
    step = slowed.loop.train_batch if args.method == "custom loop" else None
    extra = {"s": 0.0}
    if step is not None:
        def slower_step(images, labels):
            result = step(images, labels)
            time.sleep(extra["s"])
            return result
        slowed.loop.train_batch = slower_step
    else:
        raise SystemExit("--method fit: a sleep inside Keras's fit steps needs a callback; use the custom loop")
    blocks = BlockData(course, global_batch, steps, tour.BLOCKS_PER_EPOCH)
    print(f"{hardware.detect().summary()}; {course.describe()}; twins: default {args.method}, "
          f"global batch {global_batch}, {steps} steps a block; the second sleeps "
          f"{args.slowdown:.0%} of its typical step after each step", flush=True)
    rounds = args.epochs * tour.BLOCKS_PER_EPOCH
    work = steadiness.Work()
    for round_ in range(rounds):
        for arm in (twins if round_ % 2 == 0 else twins[::-1]):
            arm.run_block(blocks.dataset(round_))
        if round_ == 0:  # the first block (tracing) measured the slowed twin's typical step
            extra["s"] = args.slowdown * twins[0].run.block_seconds[0] / (steps - 1)
        print(f"round {round_ + 1}/{rounds}: " + ", ".join(
            f"{t.run.block_seconds[-1]:.2f} s" for t in twins)
            + f"; memory probe {work.memory_rate():.1f} GB/s", flush=True)
    result = timing.paired(twins[0].run.block_seconds[1:], twins[1].run.block_seconds[1:],
                           f"twin slowed by {args.slowdown:.0%} vs its twin")
    print(result)
    expected = timing.WITHIN if args.slowdown == 0 else timing.SLOWER
    print(f"expected {expected}: {'yes' if result.verdict == expected else 'NO'}")
    return 0 if result.verdict == expected else 1


if __name__ == "__main__":
    raise SystemExit(main())
