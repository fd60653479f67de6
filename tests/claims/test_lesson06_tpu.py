"""Lesson 6's claims about its own results, checked on the normal-mode run that printed them."""

import math
import re
import statistics

import pytest

from tfdist_edu import verdict

STEM = "06_tpu"


@pytest.fixture
def six(lesson):
    return lesson(STEM)


def test_an_unknown_batch_dimension_is_padded_by_default(six):
    six.says("tpu-last-batch", "So an unknown batch dimension runs on a TPU, but it costs")
    assert "experimental_enable_dynamic_batch_size: True" in six.text("tpu-run-options")


def test_without_drop_remainder_the_batch_dimension_is_unknown_and_the_last_batch_has_two(six):
    six.says("l06-trace-shapes-md",
             "Without `drop_remainder`, the batch dimension is unknown (`None`) and the "
             "last batch has 2 examples.")
    text = six.text("l06-drop-remainder")
    assert "drop_remainder=False: batch shape (None,), batch sizes [4, 4, 2]" in text
    assert "drop_remainder=True : batch shape (4,), batch sizes [4, 4]" in text


def test_drop_remainder_gives_one_static_shape_and_one_trace(six):
    six.says("l06-batch-rules", "Every step has one static shape: one trace")
    text = six.text("l06-trace-shapes")
    assert "drop_remainder=False: traced for [(4,), (2,)]" in text
    assert "drop_remainder=True : traced for [(4,)]" in text


def test_dropping_the_remainder_of_the_test_set_would_lose_sixteen_examples(six):
    six.says("tpu-questions", "(16 of 10,000 at a global batch of 128)")
    text = six.text("l06-static-batches")
    assert "= global batch 128" in text
    assert six.number("l06-static-batches", r"would have left out (\d+) of them") == 16


def test_float16_loses_the_small_and_large_values_that_bfloat16_keeps(six):
    six.says("l06-bfloat16-after",
             "float16 turns the small value into 0 and the large ones into `inf`")
    six.says("l06-bfloat16-after", "bfloat16 keeps all of them, a little rounded")
    rows = {line.split()[0]: line for line in six.text("l06-float-casts").splitlines() if line.strip()}
    assert "'0'" in rows["float16"] and rows["float16"].count("'inf'") == 2
    bfloat = re.findall(r"'([^']+)'", rows["bfloat16"])
    assert all(float(v) != 0 and abs(float(v)) != float("inf") for v in bfloat)
    for got, want in zip(bfloat, (1e-8, 3.14159265, 70000.0, 1e38)):
        assert float(got) == pytest.approx(want, rel=0.01)  # a little rounded: 8 bits of mantissa


def test_mixed_bfloat16_computes_in_bfloat16_and_keeps_float32_weights(six):
    six.says("l06-bfloat16-after",
             "Layers then compute in bfloat16 and keep their weights in float32")
    assert "computes in bfloat16 and keeps its weights in float32" in six.text("l06-mixed-bfloat16")


def test_the_fallback_is_mirrored_with_reduction_to_one_device(six):
    six.says("l06-fallback-after", "Without several physical GPUs it passes `ReductionToOneDevice`")
    six.says("tpu-fallback-ops-read", "`AddN` alone means `ReductionToOneDevice`")
    text = six.text("tpu-fallback-ops")
    assert "MirroredStrategy, 2 replicas: all-reduce ops [('AddN', '')]" in text


def test_steps_per_execution_runs_under_the_fallback(six):
    six.says("l06-fit-spe-md",
             "The fallback here is a `MirroredStrategy` with `ReductionToOneDevice` "
             "(printed above).")
    six.says("l06-fit-spe-md",
             "its line `ran: ...` names every model that ran, and a model that raised "
             "says so and is left out of the comparison")
    text = six.text("spe-runs")
    assert "ran: fit, 1 step(s) per call, fit, 32 step(s) per call" in text
    assert "InvalidArgumentError" not in text


def test_lesson_4_printed_the_collective_failure_and_the_reduction_to_one_device_run(lesson):
    """Lesson 6 states no step count it does not show: the 4-step failure is lesson 4's output."""
    six = lesson(STEM)
    six.says("l06-fit-spe-md",
             "Lesson 4 tried `steps_per_execution` with 4 steps per call under two "
             "`MirroredStrategy`s and printed what happened: with TensorFlow's default "
             "collective all-reduce `fit` raised an `InvalidArgumentError`, with "
             "`ReductionToOneDevice` it ran.")
    text = lesson("04_performance").text("l04-spe-under-strategies")
    assert "steps_per_execution=4:" in text
    assert "MirroredStrategy, default cross-device ops: fails with InvalidArgumentError" in text
    assert "MirroredStrategy, ReductionToOneDevice: works" in text


def test_the_next_cell_named_in_the_prose_is_the_one_that_traces_the_all_reduce(six):
    six.says("l06-fallback-after", "On a TPU the line above says `TPUStrategy`")
    six.says("l06-fallback-after",
             "The next cell traces, without running, one all-reduce of the strategy in use "
             "and lists the ops it builds.")
    order = [cell.get("id") for cell in six.nb.cells]
    at = order.index("l06-fallback-after")
    assert order[at - 1] == "l06-describe-strategy"
    assert re.match(r"(MirroredStrategy|TPUStrategy)", six.text("l06-describe-strategy"))
    assert order[at + 1] == "tpu-fallback-ops"
    assert re.search(r"all-reduce ops \[\(|TPUStrategy: the all-reduce", six.text("tpu-fallback-ops"))


def test_the_comparison_table_prints_as_a_table_not_an_address(six):
    text = six.text("l06-spe-table")
    assert "steady epoch (s)" in text and " at 0x" not in text


def _verdict(six):
    return six.paired("l06-spe-verdict", "fit, 32 steps per call vs 1 step per call", end="")


def _epochs(six):
    one = six.list_after("l06-spe-verdict", "epoch seconds in pairs, 1 step per call:")
    many = six.list_after("l06-spe-verdict", "epoch seconds in pairs, 32 steps per call:")
    return one, many


def test_the_verdict_is_the_one_its_interval_and_its_printed_epochs_give(six):
    six.says("l06-spe-verdict-after",
             "The line prints the typical ratio and its 95% interval, the ratios these "
             "pairs leave plausible. The interval narrows as pairs are added.")
    six.says("l06-spe-verdict-after",
             'Wholly above 1.00x it reads "faster", wholly below "slower"; inside '
             '0.95x-1.05x it reads "within 5%", a difference too small to matter here; '
             'otherwise "undecided", with about how many pairs would likely decide it.')
    six.says("l06-fit-spe-md", "`ROUNDS` pairs of them, 6, the fewest that can decide anything")
    found = _verdict(six)
    assert found["n"] and int(found["n"]) == 6, found.group(0)
    assert re.search(r"^verdict: (\w+)$", six.text("l06-spe-verdict"), re.M).group(1) == found["verdict"]
    expected = six.interval_verdict(found["low"], found["high"])
    if expected is not None:
        assert found["verdict"] == expected, found.group(0)
    if found["verdict"] == "undecided":
        assert re.search(r"about \d+ pairs in all would likely decide it|too close to the threshold",
                         six.text("l06-spe-verdict"))
    one, many = _epochs(six)
    six.recomputes(found, one, many)


def test_six_pairs_decide_only_when_every_pair_points_the_same_way(six):
    six.says("l06-fit-spe-md",
             "6, the fewest that can decide anything: with 6 pairs the verdict decides only when "
             "every pair points the same way.")
    mixed = verdict.Paired("six pairs", (1.2, 1.3, 1.25, 1.4, 1.22, 0.99))
    assert (mixed.low, mixed.high) == pytest.approx((0.99, 1.4)) and mixed.verdict == "undecided"
    assert verdict.Paired("six pairs", (1.2, 1.3, 1.25, 1.4, 1.22, 1.01)).verdict == "faster"
    assert verdict.Paired("five pairs", (1.2, 1.3, 1.25, 1.4, 1.22)).verdict == "undecided"


def test_what_the_verdict_means_follows_the_verdict_and_the_printed_epochs(six):
    six.says("l06-spe-verdict-after",
             'The line that starts "what it means" turns the verdict into time per call '
             "on this machine, whichever verdict it is.")
    found, text = _verdict(six), six.text("l06-spe-verdict")
    meaning = re.search(r"^what it means: (.+)$", text, re.M).group(1)
    calls = six.number("l06-spe-verdict", r"(\d+) of \d+ calls per epoch left out")
    steps = six.number("l06-spe-verdict", r"\d+ of (\d+) calls per epoch left out")
    assert calls == steps - math.ceil(steps / 32)
    one, many = _epochs(six)
    epoch_s, recomputed = statistics.median(one), verdict.paired(one, many)
    assert six.number("l06-spe-verdict", r"a step takes ([\d.]+) ms") == pytest.approx(
        1e3 * epoch_s / steps, abs=0.06)
    if found["verdict"] == "faster":
        saved = six.number("l06-spe-verdict", r"saved about (-?[\d.]+) ms per call left out")
        assert saved > 0
        assert saved == pytest.approx(1e3 * epoch_s * (1 - 1 / recomputed.median) / calls,
                                      rel=0.05, abs=0.006)
    elif found["verdict"] == "within":
        at_most = six.number("l06-spe-verdict", r"cost at most about ([\d.]+) ms")
        assert at_most == pytest.approx(max(0.0, 1e3 * epoch_s * (1 - 1 / recomputed.high) / calls),
                                        rel=0.05, abs=0.006)
    elif found["verdict"] == "slower":
        assert meaning.startswith("the 32-step epochs took longer")
    else:
        assert meaning.startswith("these pairs cannot tell")


def test_both_fits_learn_above_85_percent_and_agree_within_two_points(six):
    six.says("l06-spe-verdict-after",
             "their test accuracies, printed above, are above 85% and agree to within "
             "two percentage points")
    accuracies = six.numbers("l06-spe-verdict", r"test loss [\d.]+, accuracy ([\d.]+)")
    assert len(accuracies) == 2
    assert min(accuracies) > 0.85
    assert abs(accuracies[0] - accuracies[1]) <= 0.02


def test_the_custom_loop_learns_above_85_percent_and_traces_once(six):
    six.says("l06-ctl-after-recap", "its training accuracy in the last epoch is above 85%")
    six.says("l06-ctl-after-recap", "the line above counts the traces, one")
    assert six.numbers("l06-ctl-train", r"accuracy ([\d.]+)")[-1] > 0.85
    assert six.number("l06-ctl-traces", r"train_steps traced (\d+) time\(s\)") == 1


def test_the_timed_epochs_read_data_with_autotuning_off_and_no_epoch_waits_for_a_wake_up(six):
    six.says("l06-fit-spe-md", "The training pipeline has tf.data's autotuning off, as every "
                               "`data.batches` pipeline has")
    six.says("l06-fit-spe-md", "So no epoch waits for a tf.data thread's wake-up")
    for label in ("1 step per call", "32 steps per call"):  # a wait took 20.5 s for 10.5 s
        epochs = six.list_after("l06-spe-verdict", f"epoch seconds in pairs, {label}:")
        waited = [s for s in epochs if s > 1.5 * statistics.median(epochs)]
        assert not waited, f"{label}: epochs that waited for a tuning thread's wake-up: {waited}"
    source = six.cell("l06-static-batches").source
    assert "no_autotune.autotune.enabled = False" in source, source
    assert "drop_remainder=True).with_options(no_autotune)" in source, source
