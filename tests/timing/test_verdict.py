"""The paired verdict decides like a benchmark tool: few false alarms, power, and convergence.

Pairs are simulated (no TensorFlow): each arm's time is its true time with 4% lognormal noise,
drawn independently, as two blocks measured back to back on a machine whose slow stretches
cancel in the pair. 400 runs per case, seeded, so the figures are the same on every machine.
"""

import math
import random

import pytest

from tfdist_edu import timing, verdict

RUNS, NOISE = 400, 0.04


def _share(true_ratio, pairs, answer, seed=0):
    """The share of simulated runs whose verdict is ``answer`` for a true speed ratio."""
    rng = random.Random(seed)
    hits = 0
    for _ in range(RUNS):
        baseline = [math.exp(rng.gauss(0, NOISE)) for _ in range(pairs)]
        other = [math.exp(rng.gauss(0, NOISE)) / true_ratio for _ in range(pairs)]
        hits += verdict.paired(baseline, other).verdict in answer
    return hits / RUNS


def test_no_true_difference_reads_faster_or_slower_in_at_most_5_percent_of_runs_at_18_pairs():
    assert _share(1.0, 18, {"faster", "slower"}) <= 0.05


def test_a_true_5_percent_slowdown_reads_slower_in_at_least_95_percent_of_runs_at_23_pairs():
    # 23: the tour's steady rounds. At 18 pairs the Wilcoxon interval's power is about 93%.
    assert _share(0.95, 23, {"slower"}) >= 0.95


def test_more_pairs_decide_at_least_as_often_as_fewer_at_a_true_3_percent():
    decided = {n: _share(0.97, n, {"faster", "slower", "within"}) for n in (11, 18, 40)}
    assert decided[11] <= decided[18] <= decided[40], decided
    assert decided[40] >= 0.95, decided  # the interval has converged: every run decides


def test_the_interval_narrows_as_pairs_are_added():
    rng = random.Random(1)
    ratios = [math.exp(rng.gauss(-0.05, NOISE * math.sqrt(2))) for _ in range(160)]
    widths = [verdict.paired(ratios[:n], [1.0] * n).high - verdict.paired(ratios[:n], [1.0] * n).low
              for n in (10, 40, 160)]
    # baseline seconds / 1 s = ratio; the width roughly halves when the pairs quadruple
    assert widths[0] > 1.5 * widths[1] > 1.5 * 1.5 * widths[2], widths


def test_a_consistent_gap_reads_slower_by_its_size_with_its_interval():
    result = timing.paired([1.0] * 8, [2.0, 2.1, 1.9, 2.0, 2.0, 2.05, 1.95, 2.0], "B vs A")
    assert result.verdict == "slower" and abs(result.median - 0.5) < 0.01
    assert str(result).startswith("B vs A: slower by 50% (0.50x, 95% interval 0.49x-0.51x, 8 pairs).")
    assert timing.paired([2.0] * 6, [1.0] * 6).verdict == "faster"


def test_an_interval_inside_the_threshold_reads_within_it():
    result = timing.paired([1.00, 1.01, 0.99, 1.02, 0.98, 1.00, 1.01, 0.99], [1.0] * 8, "B vs A")
    assert result.verdict == "within"
    assert str(result).startswith("B vs A: within 5% (1.00x, 95% interval")
    assert timing.paired([1.00, 1.01, 0.99, 1.02] * 2, [1.0] * 8, threshold=0.001).verdict == "undecided"


def test_an_interval_that_reaches_one_and_the_threshold_is_undecided_with_the_pairs_it_needs():
    result = timing.paired([1.0, 1.1, 0.9, 1.0, 0.95, 1.12, 0.88], [1.05, 0.95, 1.0, 1.1, 1.0, 1.0, 1.02])
    assert result.verdict == "undecided" and result.low < 1 < result.high
    more = result.pairs_to_decide()
    assert more and more > 7 and f"about {more} pairs in all would likely decide it" in str(result)


def test_only_an_undecided_interval_wider_than_the_threshold_band_is_too_spread():
    near = timing.paired([1.0, 1.06, 1.03, 0.99, 1.07, 1.03, 1.05, 1.01], [1.0] * 8)
    assert near.verdict == "undecided" and not near.too_spread
    wide = timing.paired([1.0, 1.1, 0.9, 1.0, 0.95, 1.12, 0.88], [1.05, 0.95, 1.0, 1.1, 1.0, 1.0, 1.02])
    assert wide.verdict == "undecided" and wide.too_spread
    assert not timing.paired([2.0] * 6, [1.0] * 6).too_spread


def test_fewer_than_six_pairs_give_no_95_percent_interval_and_no_verdict():
    result = timing.paired([2.0] * 5, [1.0] * 5, "B vs A")
    assert result.verdict == "undecided"
    assert "5 pairs are too few for a 95% interval, which needs 6" in str(result)


def test_three_wild_pairs_in_23_do_not_move_the_verdict():
    calm = [1.0, 1.01, 0.99, 1.0, 1.02, 0.98, 1.0, 1.01, 0.99, 1.0, 1.01, 0.99] * 2
    calm = calm[:23]
    baseline = [0.9 * t for t in calm]
    assert timing.paired(baseline, calm).verdict == "slower"
    wild = baseline[:-3] + [5.0, 4.0, 6.0]  # three pairs hit by a stall in one arm
    assert timing.paired(wild, calm).verdict == "slower"
    # Each wild pair moves every pairwise average it is part of: with 10 pairs, one is enough
    # to reach the 95% interval's ends (the interval drops 8 averages at each end).
    assert timing.paired(baseline[:9] + [5.0], calm[:10]).verdict == "undecided"


def test_the_interval_is_the_wilcoxon_signed_rank_interval():
    # R 4.x: wilcox.test(log(c(...)), conf.int=TRUE) on these ten log ratios gives the 9th
    # and the 47th of the 55 sorted pairwise averages (P(T <= 8) = 0.0244 for n = 10).
    assert verdict._rank_cut(10) == 9 and verdict._rank_cut(6) == 1 and verdict._rank_cut(5) is None
    logs = [0.1 * i for i in range(10)]
    walsh = sorted((a + b) / 2 for i, a in enumerate(logs) for b in logs[i:])
    estimate, low, high = verdict.interval([math.exp(x) for x in logs])
    assert math.isclose(low, math.exp(walsh[8])) and math.isclose(high, math.exp(walsh[46]))
    assert math.isclose(estimate, math.exp(0.45))


def test_the_normal_approximation_above_50_pairs_meets_the_exact_rule():
    assert abs(verdict._rank_cut(51) - verdict._rank_cut(50)) <= 30
    exact = verdict._exact_lower_tail(50)
    assert exact[verdict._rank_cut(50) - 1] <= 0.025 < exact[verdict._rank_cut(50)]


def test_paired_times_need_equal_counts_and_positive_seconds():
    with pytest.raises(ValueError, match="equal counts, got 2 and 3"):
        timing.paired([1, 1], [1, 1, 1])
    with pytest.raises(ValueError, match="positive seconds"):
        timing.paired([1, 0], [1, 1])
