"""Lesson 9's claims about its own run: each sentence quoted, checked on the numbers printed beside it."""

import re

import pytest

from tfdist_edu import timing

STEM = "09_keras_distribution"


@pytest.fixture
def lesson9(lesson):
    return lesson(STEM)


def test_one_device_and_data_parallel_train_the_same_run_to_within_float_rounding(lesson9):
    lesson9.says("l9-loss-after", "The loss agrees with one device's to within 1e-3 and every weight "
                 "to within 1e-2")
    assert lesson9.number("l9-loss", r"loss difference ([\d.e+-]+)") < 1e-3
    assert lesson9.number("l9-loss", r"largest weight difference ([\d.e+-]+)") < 1e-2


def test_model_parallel_trains_the_same_run_as_one_device_to_within_float_rounding(lesson9):
    lesson9.says("l9-mp-equal-after", "The same training run, to within 1e-3 in the loss and 1e-2 in "
                 "every weight again")
    assert lesson9.number("l9-mp-equal", r"loss difference ([\d.e+-]+)") < 1e-3
    assert lesson9.number("l9-mp-equal", r"largest weight difference ([\d.e+-]+)") < 1e-2


def test_a_checkpoint_saved_under_one_layout_loads_bit_for_bit_under_another(lesson9):
    lesson9.says("l9-checkpoint-after", "The weights come back bit for bit (difference 0)")
    lesson9.says("l9-checkpoint-after", "predict the same logits to within 1e-4")
    assert lesson9.number("l9-checkpoint", r"largest weight difference ([\d.e+-]+)") == 0
    assert lesson9.number("l9-checkpoint", r"largest logit difference on 256 test images ([\d.e+-]+)") < 1e-4
    assert "(None, 'model')" in lesson9.text("l9-checkpoint"), "the loaded kernel is split as the new layout says"


def test_every_replicated_variable_is_held_whole_by_every_device(lesson9):
    lesson9.says("l9-vars-after", "every device holds the whole weight")
    lines = lesson9.text("l9-vars").strip().splitlines()
    assert len(lines) == 9
    for line in lines:
        shape, held = re.search(r"(\([\d, ]+\)).*each holds (\([\d, ]+\))", line).groups()
        assert shape == held, line


def test_device_i_holds_the_i_th_half_of_the_global_batch(lesson9):
    lesson9.says("l9-input-after", "Device *i* holds the *i*-th half of the batch")
    rows = re.findall(r"device (\d+) holds examples (\d+)-(\d+): shape \((\d+),", lesson9.text("l9-input"))
    assert len(rows) == 2
    for i, (device, first, last, size) in enumerate(rows):
        assert (int(first), int(last), int(size)) == (64 * i, 64 * i + 63, 64), rows


def test_per_device_code_needs_lesson_3s_rule_and_the_wrong_mean_is_twice_too_large(lesson9):
    lesson9.says("l9-shard-map-after", "The first line is the true mean, 3.5, as in lesson 3; the "
                 "second is twice too large")
    right, wrong, whole = lesson9.numbers("l9-shard-map", r":\s+([\d.]+)")
    assert right == whole == 3.5 and wrong == 2 * right


def test_the_dense_kernels_are_split_in_two_halves_as_the_prose_says(lesson9):
    lesson9.says("l9-mp-after", "The Dense kernel of shape (1600, 64) is now stored as two halves of "
                 "(1600, 32), one per column of the mesh, and the output layer's (64, 10) as two (64, 5)")
    text = lesson9.text("l9-mp")
    assert re.search(r"\(1600, 64\)\s+spec \(None, 'model'\)\s+on 2 devices, each holds \(1600, 32\)", text), text
    assert re.search(r"\(64, 10\)\s+spec \(None, 'model'\)\s+on 2 devices, each holds \(64, 5\)", text), text


def test_both_worker_processes_end_every_epoch_with_the_same_loss_and_weights(lesson9):
    lesson9.says("l9-workers-after", "Both processes print the same loss in every epoch and hold the "
                 "same weights (equal hashes)")
    rows = re.findall(r"^\s*(\d)\s+(\d+)\s+([\d., ]+?)\s+([0-9a-f]{16})$", lesson9.text("l9-workers-result"), re.M)
    assert [row[0] for row in rows] == ["0", "1"], rows
    assert rows[0][2] == rows[1][2] and rows[0][3] == rows[1][3], rows
    assert rows[0][1] == rows[1][1] == "64", "each process fed its own 64 of the global batch of 128"


def test_a_killed_worker_ends_the_run_with_one_line_naming_it(lesson9):
    lesson9.says("l9-kill-after", "The run ends with one line that names the process and how it died")
    assert lesson9.text("l9-kill").strip() == (
        "WorkerFailed: process 1 was killed by signal 9; the other processes were killed. "
        "Its last output:")


def test_the_timing_verdict_is_the_one_its_printed_repeats_give(lesson9):
    lesson9.says("l9-timing-after", "How to read the verdict, whichever it is")
    text = lesson9.text("l9-timing")
    one = [float(s) for s in re.search(r"^1 device .*?: ([\d., ]+) s$", text, re.M).group(1).split(",")]
    many = [float(s) for s in re.search(r"^\d+ devices .*?: ([\d., ]+) s$", text, re.M).group(1).split(",")]
    recomputed = timing.paired(one, many)
    verdict = re.search(r"^verdict: (faster|slower|no measurable difference);", text, re.M).group(1)
    assert len(one) == len(many) >= 5
    if abs(recomputed.low - 1) > 0.02 and abs(recomputed.high - 1) > 0.02:  # not at the edge of rounding
        assert verdict == recomputed.verdict, (verdict, recomputed)
