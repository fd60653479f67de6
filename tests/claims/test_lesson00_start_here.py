"""Lesson 0's claims about its results, checked on the normal-mode run that printed them."""

import ast
import re

STEM = "00_start_here"


def test_the_all_reduce_hands_every_replica_the_sum_and_every_copy_the_same_update(lesson):
    run = lesson(STEM)
    run.says("l00-all-reduce-md",
             "An **all-reduce** adds the values of all replicas and hands the sum back "
             "to every replica. Every replica then holds the same sum, so every copy "
             "of the weight gets the same update.")
    gradients = run.list_after("l00-all-reduce-step", "each replica's gradient:")
    summed = run.list_after("l00-all-reduce-step", "after the all-reduce:")
    copies = run.list_after("l00-all-reduce-step", "copies of the weight after the update:")
    assert len(gradients) == len(summed) >= 2
    assert all(value == sum(gradients) for value in summed), (gradients, summed)
    assert len(set(copies)) == 1, f"the copies of the mirrored weight differ: {copies}"
    # the answer to question 2: "Both hold 30"
    run.says("l00-questions", "Both hold 30.")
    assert summed[:2] == [30.0, 30.0]


def test_the_ring_leaves_the_whole_sum_on_every_replica_in_two_n_minus_one_rounds(lesson):
    run = lesson(STEM)
    run.says("l00-ring-md",
             "the finished pieces travel round the ring for n - 1 more rounds, until "
             "every replica holds the whole sum")
    match = re.search(r"after (\d+) rounds every replica holds (\[[^\]]*\]); the sum is (\[[^\]]*\])",
                      run.text("l00-ring-all-reduce"))
    assert match, run.text("l00-ring-all-reduce")
    rounds, held, total = int(match.group(1)), *map(ast.literal_eval, match.groups()[1:])
    assert rounds == 2 * (3 - 1), f"a ring of 3 replicas takes 2 x (3 - 1) rounds, not {rounds}"
    assert held == total == [111, 222, 333]


def test_one_replicated_step_of_a_dense_model_is_the_one_device_step_up_to_rounding(lesson):
    run = lesson(STEM)
    run.says("l00-sync-async-md",
             "For layers that treat each example on its own, such as dense and "
             "convolution layers, the update is the one a single device computes "
             "with the whole batch, up to float rounding.")
    difference = run.number("l00-one-step-vs-replicas", r"largest weight difference ([0-9.e+-]+)")
    assert difference < 1e-6, f"float rounding of weights of order 1 stays below 1e-6, not {difference:.1e}"


def test_the_batch_explorer_scales_the_rate_linearly_with_the_global_batch(lesson):
    run = lesson(STEM)
    run.says("l00-global-batch-md",
             "The explorer applies the linear rule, so it starts from a rate for SGD "
             "with momentum: 0.01 at one replica's batch.")
    for cell_id in ("l00-batch-explorer", "l00-explorer-4x64"):
        text = run.text(cell_id)
        match = re.search(r"0\.01 at batch (\d+) -> ([0-9.]+) at batch (\d+) \(x(\d+)\)", text)
        assert match, text[:600]
        small, rate, large, factor = int(match[1]), float(match[2]), int(match[3]), int(match[4])
        assert large == factor * small and abs(rate - 0.01 * factor) < 1e-12, match.group(0)
    run.says("l00-explorer-4x64-md",
             "the last line adds the square-root rule for Adam, from Adam's usual rate 0.001")
    assert "0.001 at batch 64 -> 0.002 at batch 256 (x2)" in run.text("l00-explorer-4x64")


def test_the_four_strategies_said_to_run_anywhere_are_the_four_the_next_cell_builds(lesson):
    run = lesson("00_start_here")
    run.says("l00-strategy-family-md",
             "Four of them run on any machine, and the next cell builds them: the "
             "default strategy, `OneDeviceStrategy`, `MirroredStrategy` and `CentralStorageStrategy`.")
    built = [line.split(":")[0] for line in run.text("l00-describe-family").splitlines() if line.strip()]
    assert built == ["default strategy", "OneDeviceStrategy", "MirroredStrategy", "CentralStorageStrategy"]
