"""The tour's reading: paired ratios with their spread, no story told about a disturbed run."""
from tfdist_edu import timing
from tfdist_edu.tour import reading

SIMULATED = "2 logical CPU devices simulated on one CPU"


def _run(name, blocks, replicas=1, acc=0.9, calls=None):
    return timing.RunTiming(name=name, replicas=replicas, global_batch=128, jit_compile=False,
                            block_seconds=list(blocks), history={"val_accuracy": [acc]},
                            block_call_seconds=list(calls or blocks),
                            block_wall_seconds=list(blocks), block_cpu_seconds=[1.8 * b for b in blocks])


def _runs(default_fit, mirrored_fit, loops=(2.0,) * 8):
    return [_run("default fit", default_fit), _run("default custom loop", loops),
            _run("mirrored fit", mirrored_fit, 2), _run("mirrored custom loop", loops, 2)]


def _noisy(ratio, blocks=24, seed=0, noise=0.03):
    """Block times of a baseline and an arm at ``ratio`` of its speed, each block with its own
    lognormal noise (seeded)."""
    import math
    import random

    rng = random.Random(seed)
    base = [3.0] + [math.exp(rng.gauss(0, noise)) for _ in range(blocks - 1)]
    other = [3.0] + [math.exp(rng.gauss(0, noise)) / ratio for _ in range(blocks - 1)]
    return base, other


def test_equal_arms_read_within_the_threshold_and_are_not_flagged():
    base, other = _noisy(1.0)
    text = reading.reading(_runs(base, other, loops=(2.0,) * 24), SIMULATED, 0.0)
    assert "Mirrored vs default with fit: within 5% (" in text
    assert "Read this run with care" not in text and "faster" not in text.split("How to read")[0]


def test_a_consistent_gap_is_a_verdict_with_its_interval():
    text = reading.reading(_runs([3] + [1.0] * 7, [3, 2.0, 2.1, 1.9, 2.0, 2.0, 2.2, 1.8]),
                           SIMULATED, 0.0)
    assert ("Mirrored vs default with fit: slower by 50% (0.50x, 95% interval 0.48x-0.53x, "
            "7 pairs).") in text
    assert "How to read a verdict: the 95% interval" in text
    assert "logical devices on one processor: they share the cores" in text


def test_an_arm_slowed_by_8_percent_alone_reads_slower():
    base, other = _noisy(1 / 1.08, seed=3)
    text = reading.reading(_runs(base, other, loops=(2.0,) * 24), SIMULATED, 0.0)
    assert "Mirrored vs default with fit: slower by 7%" in text or "slower by 8%" in text, text


def test_an_undecided_interval_narrower_than_the_threshold_band_is_read_as_near_the_threshold_not_flagged():
    ratios = [0.94, 1.01, 0.97, 1.00, 0.93, 0.98, 1.02, 0.96]  # 0.97x, interval 0.94x-1.01x
    text = reading.reading(_runs([3] + [1.0] * 8, [3] + [1 / r for r in ratios], loops=(2.0,) * 9),
                           SIMULATED, 0.0)
    assert "Mirrored vs default with fit: undecided (" in text, text
    assert "Read this run with care" not in text


def test_blocks_spread_over_10_percent_are_put_down_to_the_memory_system_only_when_its_probe_swung_or_moved_with_them():
    spread_out = [3, 1.0, 1.3, 1.0, 1.3, 1.0, 1.3, 1.0, 1.3]
    runs = _runs(spread_out, spread_out, loops=spread_out)
    unsteady = reading.reading(runs, SIMULATED, 0.0, memory=[5, 5, 3.8, 5, 3.8, 5, 3.8, 5, 3.8])
    assert ("the memory probe between rounds was unsteady too and ran slower after slower rounds "
            "(correlation -1.00): the machine's memory system moved the blocks") in unsteady
    small_swings = reading.reading(runs, SIMULATED, 0.0, memory=[5, 5, 4.7, 5, 4.7, 5, 4.7, 5, 4.7])
    assert ("the memory probe between rounds stayed within 10% of its median and ran slower after "
            "slower rounds (correlation -1.00): the machine's memory system moved") in small_swings
    steady = reading.reading(runs, SIMULATED, 0.0, memory=[5.0] * 9)
    assert ("while the memory probe between rounds stayed steady and did not move with the rounds "
            "(correlation +0.00): this spread did not come from the memory system") in steady
    even = reading.reading(_runs([3] + [1.0] * 8, [3] + [1.0] * 8, loops=(2.0,) * 9), SIMULATED, 0.0,
                           memory=[5.0] * 9)
    assert "memory probe between rounds" not in even


def test_pairs_too_spread_to_decide_flag_the_run():
    base, other = _noisy(0.97, blocks=9, seed=1, noise=0.15)
    text = reading.reading(_runs(base, other, loops=(2.0,) * 9), SIMULATED, 0.0)
    assert "Mirrored vs default with fit: undecided (" in text
    assert "Read this run with care (the pairs were too spread to decide mirrored vs default with fit)" in text


def test_the_reading_names_the_common_global_batch_and_jit_compile():
    text = reading.reading(_runs([3] + [1.0] * 7, [3] + [1.0] * 7), "2 GPUs", 0.0)
    assert "global batch 128 with jit_compile=False" in text and "alternately" in text


def test_a_busy_machine_is_flagged_instead_of_explained():
    text = reading.reading(_runs([3] + [1.0] * 7, [3] + [1.0] * 7), SIMULATED, other_load=0.3)
    assert "Read this run with care (other processes used 0.30 of a core" in text
    assert "it includes tracing" not in text


def test_a_quiet_run_attributes_the_first_calls_extra_time_to_tracing():
    runs = _runs([1.0] * 8, [1.0] * 8)
    runs[0].block_call_seconds = [6.0] + [1.1] * 7
    text = reading.reading(runs, SIMULATED, 0.0)
    assert "The first block of default fit took 6.0 s from call to return against a median of 1.1 s" in text
    assert "spread over at most 0% of their median" in text and "kept 1.8-1.8 cores busy" in text


def test_the_spread_of_every_steady_block_is_reported_not_flagged():
    spread_out = [3, 1.0, 1.3, 1.0, 1.3, 1.0, 1.3, 1.0, 1.3]
    text = reading.reading(_runs(spread_out, [3] + [1.0] * 8, loops=(2.0,) * 9), SIMULATED, 0.0)
    assert "spread over at most 26% of their median (interquartile range; default fit)" in text


def test_the_steadiness_probes_are_reported_beside_the_verdicts():
    from tfdist_edu import steadiness

    probes = [steadiness.Probe("cache-resident probe", [100] * 6),
              steadiness.Probe("memory-bound probe", [50, 50, 35, 36, 50, 50])]
    text = reading.reading(_runs([3] + [1.0] * 7, [3] + [1.0] * 7), SIMULATED, 0.0, probes)
    assert "cache-resident probe: 6 one-second windows, the slowest 1.00x the median window, 0 over" in text
    assert "memory-bound probe: 6 one-second windows, the slowest 1.43x the median window, 2 over" in text
    assert "Only the memory-bound probe slowed" in text


def test_the_first_round_is_left_out_of_the_paired_ratios():
    default, mirrored = _run("a", [10.0, 1.0, 2.0]), _run("b", [1.0, 2.0, 2.0])
    assert reading.paired(default, mirrored, "b vs a").ratios == (0.5, 1.0)


def _slowed(rounds, factor=1.3, blocks=13):
    """Four arms whose blocks all take ``factor`` longer in ``rounds`` (0-based), as a machine
    slowed for a while makes them (CPU time rising alike)."""
    def times(base):
        return [3.0] + [base * (factor if i in rounds else 1.0) for i in range(1, blocks)]
    return [_run("default fit", times(1.8)), _run("default custom loop", times(1.8)),
            _run("mirrored fit", times(1.9), 2), _run("mirrored custom loop", times(1.9), 2)]


def test_rounds_in_which_every_arm_slowed_at_once_are_named_and_still_count():
    runs = _slowed({9, 10})
    memory = [5.0] * 9 + [3.5, 3.6] + [5.0] * 2
    text = reading.reading(runs, SIMULATED, 0.0, memory=memory)
    assert ("In round(s) 10, 11 the arms ran slower together: a median 30% more time per block, with 30% "
            "more CPU time in the tour's own process, while other processes used 0.00") in text
    assert "as a thread stalled on a slow memory system does" in text and "with care" not in text
    assert "they count in the verdicts" in text
    assert ("A one-thread copy of 64 MB after each round ran at a median 5.0 GB/s, the slowest "
            "1.43x slower, 2 of 12 steady rounds over 10% slower. The slower a round, the slower "
            "the copy after it: correlation -1.00 (-1: always together). After the rounds in which the arms slowed together it ran at "
            "3.5 GB/s, after the others at 5.0 GB/s.") in text
    assert [round(r, 12) for r in reading.paired(runs[0], runs[2], "x").ratios[8:10]] == [round(1.8 / 1.9, 12)] * 2


def test_an_arm_that_slowed_alone_is_not_a_slow_round():
    runs = _slowed(set())
    runs[2].block_seconds[5] *= 1.6
    assert reading.slowdowns.slow_rounds(runs) == []


def test_a_slowdown_that_starts_mid_round_names_the_round_of_its_second_arm():
    runs = _slowed({7})
    for run in runs[:2]:  # the first two arms of round 7 ran before it began
        run.block_seconds[7] /= 1.3
    assert reading.slowdowns.slow_rounds(runs) == [7]


def test_a_machine_slower_in_most_rounds_together_is_not_flagged():
    text = reading.reading(_slowed({2, 3, 4, 5, 6, 7, 8}), SIMULATED, 0.0)
    assert "with care" not in text and "Mirrored vs default with fit: slower by 5%" in text


def test_a_slowdown_under_a_competing_load_is_blamed_on_the_load_and_flagged():
    text = reading.reading(_slowed({4, 5}), SIMULATED, 2.0)
    assert "other processes used 2.00 of a core" in text and "Other processes took part" in text
    assert "stalled" not in text and "Read this run with care (other processes" in text


def test_other_processes_busy_in_the_slow_rounds_alone_are_named_for_them():
    runs = _slowed({4, 5})
    for run in runs:
        run.block_other_cores = [0.9 if i in (4, 5) else 0.0 for i in range(len(run.block_seconds))]
    text = reading.reading(runs, SIMULATED, 0.15)
    assert "while other processes used 0.90 of a core in those rounds (0.15 over the run). Other processes took part of the processor." in text
    assert "with care" not in text
