"""Lesson 6's claims about its own results, checked on the normal-mode run that printed them."""

import re

import pytest

STEM = "06_tpu"


@pytest.fixture
def six(lesson):
    return lesson(STEM)


def test_an_unknown_batch_dimension_is_padded_by_default(six):
    six.says("tpu-last-batch", "So an unknown batch dimension runs on a TPU, but it costs")
    assert "experimental_enable_dynamic_batch_size: True" in six.text("tpu-run-options")


def test_without_drop_remainder_the_batch_dimension_is_unknown_and_the_last_batch_has_two(six):
    six.says("5329c56e", "Without `drop_remainder`, the batch dimension is unknown (`None`) and the "
                         "last batch has 2 examples.")
    text = six.text("89368beb")
    assert "drop_remainder=False: batch shape (None,), batch sizes [4, 4, 2]" in text
    assert "drop_remainder=True : batch shape (4,), batch sizes [4, 4]" in text


def test_drop_remainder_gives_one_static_shape_and_one_trace(six):
    six.says("d8a6fdad", "Every step has one static shape: one trace")
    text = six.text("e55c31b8")
    assert "drop_remainder=False: traced for [(4,), (2,)]" in text
    assert "drop_remainder=True : traced for [(4,)]" in text


def test_dropping_the_remainder_of_the_test_set_would_lose_sixteen_examples(six):
    six.says("tpu-questions", "(16 of 10,000 at a global batch of 128)")
    text = six.text("e1f67ead")
    assert "= global batch 128" in text
    assert six.number("e1f67ead", r"would have left out (\d+) of them") == 16


def test_float16_loses_the_small_and_large_values_that_bfloat16_keeps(six):
    six.says("951ab0d9", "float16 turns the small value into 0 and the large ones into `inf`")
    six.says("951ab0d9", "bfloat16 keeps all of them, a little rounded")
    rows = {line.split()[0]: line for line in six.text("de213e0c").splitlines() if line.strip()}
    assert "'0'" in rows["float16"] and rows["float16"].count("'inf'") == 2
    bfloat = re.findall(r"'([^']+)'", rows["bfloat16"])
    assert all(float(v) != 0 and abs(float(v)) != float("inf") for v in bfloat)
    for got, want in zip(bfloat, (1e-8, 3.14159265, 70000.0, 1e38)):
        assert float(got) == pytest.approx(want, rel=0.01)  # a little rounded: 8 bits of mantissa


def test_mixed_bfloat16_computes_in_bfloat16_and_keeps_float32_weights(six):
    six.says("951ab0d9", "Layers then compute in bfloat16 and keep their weights in float32")
    assert "computes in bfloat16 and keeps its weights in float32" in six.text("180a5a34")


def test_the_fallback_is_mirrored_with_reduction_to_one_device(six):
    six.says("dd8947d0", "Without several physical GPUs it passes `ReductionToOneDevice`")
    six.says("tpu-fallback-ops-read", "`AddN` alone means `ReductionToOneDevice`")
    text = six.text("tpu-fallback-ops")
    assert "MirroredStrategy, 2 replicas: all-reduce ops [('AddN', '')]" in text


def test_steps_per_execution_runs_under_the_fallback(six):
    six.says("765e9a3a", "with that all-reduce Keras 3's multi-step `fit` runs")
    assert "ran: fit, 1 step(s) per call, fit, 32 step(s) per call" in six.text("spe-runs")
    assert "InvalidArgumentError" not in six.text("spe-runs")


def test_the_printed_verdict_follows_the_middle_half_of_the_paired_ratios(six):
    six.says("915274a3", 'a middle half that reaches 1 reads "no measurable difference"')
    ratios = six.paired("ae0de14e", "fit, 32 steps per call vs 1 step per call", end="")
    verdict = re.search(r"verdict: (.+)", six.text("ae0de14e")).group(1).strip()
    assert verdict == six.middle_half_verdict(float(ratios["low"]), float(ratios["high"]))


def test_both_fits_learn_above_85_percent_and_agree_within_two_points(six):
    six.says("915274a3", "their test accuracies, printed above, are above 85% and agree to within "
                         "two percentage points")
    accuracies = six.numbers("ae0de14e", r"test loss [\d.]+, accuracy ([\d.]+)")
    assert len(accuracies) == 2
    assert min(accuracies) > 0.85
    assert abs(accuracies[0] - accuracies[1]) <= 0.02


def test_the_custom_loop_learns_above_85_percent_and_traces_once(six):
    six.says("306a2a19", "its training accuracy in the last epoch is above 85%")
    six.says("306a2a19", "the line above counts the traces, one")
    assert six.numbers("6a1eadb6", r"accuracy ([\d.]+)")[-1] > 0.85
    assert six.number("94a2496c", r"train_steps traced (\d+) time\(s\)") == 1
