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


def _timing(lesson9):
    """(seconds and cores busy of each arm, the printed comparison) of the timing cell."""
    text = lesson9.text("l9-timing")
    arms = {}
    for name, steps, batch, seconds, cores in re.findall(
            r"^(1 device|\d+ devices) +(\d+) steps of global batch (\d+): ([\d., ]+) s; ([\d.]+) cores busy "
            r"\(median\)$", text, re.M):
        arms[name] = (int(steps), int(batch), [float(s) for s in seconds.split(", ")], float(cores))
    assert len(arms) == 2 and "1 device" in arms, text
    return arms, lesson9.paired("l9-timing", "DataParallel over", end=r"[.:;].*$")


def test_the_timing_verdict_is_the_one_its_interval_and_its_printed_repeats_give(lesson9):
    lesson9.says("l9-timing-after", "How to read the verdict, whichever it is.")
    lesson9.says("l9-timing-md", "*faster* or *slower* (the interval lies wholly above or below 1.00x), "
                 "*within 5%* (it lies inside 0.95x-1.05x) or *undecided*")
    arms, m = _timing(lesson9)
    one, many = (arms[name][2] for name in sorted(arms, key=lambda n: n != "1 device"))
    assert len(one) == len(many) == int(m["n"]) >= 8, (len(one), m[0])
    low, median, high = float(m["low"]), float(m["median"]), float(m["high"])
    assert low <= median <= high
    expected = lesson9.interval_verdict(low, high)
    if expected is not None:
        assert m["verdict"] == expected, m[0]
    printed = re.search(r"^verdict: (faster|slower|within|undecided);", lesson9.text("l9-timing"), re.M)[1]
    assert printed == m["verdict"]
    recomputed = timing.paired(one, many)  # times printed to 1 ms: the ratios to about 0.1%
    assert abs(recomputed.median - median) < 0.01, (str(recomputed), m[0])
    near = any(abs(b - e) < 0.01 for b in (recomputed.low, recomputed.high) for e in (1 / 1.05, 1, 1.05))
    if not near:
        assert recomputed.verdict == m["verdict"], (str(recomputed), m[0])
    if m["verdict"] == "undecided":
        assert re.search(r"about \d+ pairs in all would likely decide it|too close to the threshold", m[0])
    if m["verdict"] == "faster":
        lesson9.says("l9-timing-after", "the gain is at most 2x")
        assert median <= 2.0, m[0]


def test_the_recap_says_what_the_timing_measured(lesson9):
    lesson9.says("l9-recap", "The timing set one simulated device against two at the same global batch, "
                 "in alternated pairs: whether a second thread on this machine's cores gains more than the "
                 "split costs.")
    lesson9.says("l9-recap", "Its verdict, 95% interval and cores busy answer that for this machine only")
    assert "add work and no arithmetic" not in lesson9.cell("l9-recap").source
    arms, m = _timing(lesson9)
    (steps_one, batch_one, _, _), (steps_many, batch_many, _, _) = arms.values()
    assert steps_one == steps_many and batch_one == batch_many, arms
    assert set(arms) == {"1 device", "2 devices"}, arms
    assert m["low"] and m["high"], "the verdict carries a 95% interval"
    devices = lesson9.text("l9-timing")
    assert re.search(r"^devices: cpu:0, cpu:1; \d+ CPU cores$", devices, re.M), devices
    lesson9.says("l9-timing-after", "the cores-busy figures beside the times show how many each arm kept busy")
    for name, (_, _, _, cores) in arms.items():
        assert 0 < cores <= 2.1, (name, cores)  # no more cores than the machine's 2


def test_the_streamed_worker_output_has_no_gloo_connection_lines(lesson9):
    lesson9.says("l9-workers-md", "leaving out log lines that tell you nothing, such as gloo's note that "
                 "each process connected to its peer")
    text = lesson9.text("l9-workers")
    assert "[Gloo]" not in text and "peer ranks" not in text, text
    assert re.search(r"^\[process 0\] Epoch 1/", text, re.M), "the workers' own lines are still streamed"


def test_the_reading_names_every_outcome_of_the_new_verdict(lesson9):
    prose = lesson9.cell("l9-timing-after").source
    for outcome in ("**faster**", "**within 5%**", "**slower**", "**undecided**"):
        assert outcome in prose, outcome
    assert "middle half" not in prose and "no measurable difference" not in prose
