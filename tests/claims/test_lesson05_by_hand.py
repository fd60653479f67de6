"""Lesson 5's claims about its own results, checked on the normal-mode run that printed them."""

import ast
import re
import tomllib
from pathlib import Path

import pytest


STEM = "05_by_hand"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def five(lesson):
    return lesson(STEM)


def _update(five):
    return five.numbers("byhand-12", r"largest update ([\d.e+-]+)")[0]


def test_by_hand_equals_mirrored_and_one_device_to_a_thousandth_of_the_update(five):
    five.says("byhand-13", "The weights agree to well within a thousandth of the largest change one "
                           "step makes")
    update = _update(five)
    against_mirrored = five.numbers("byhand-12", r"by hand vs MirroredStrategy ([\d.e+-]+)")
    against_one = five.numbers("byhand-12", r"vs one device with the whole batch ([\d.e+-]+)")
    assert len(against_mirrored) == len(against_one) == 2  # 2 and 4 devices
    assert max(against_mirrored + against_one) <= 1e-3 * update


def test_both_written_all_reduces_equal_tensorflows_own(five):
    five.says("byhand-17", "Both must agree with TensorFlow's own all-reduce")
    differences = five.numbers("byhand-18", r"(\d\.\de[+-]\d+)")
    assert len(differences) == 4 and max(differences) < 1e-5


def test_the_ring_trains_like_mirrored_strategy(five):
    five.says("byhand-19", "The ring also trains: the by-hand step with the ring in place of "
                           "reduce-then-broadcast leaves the same weights as `MirroredStrategy`.")
    difference = five.number("byhand-20", r"largest difference from MirroredStrategy ([\d.e+-]+)")
    assert difference <= 1e-3 * _update(five)


def test_ring_traffic_per_rank_is_two_n_minus_one_over_n_and_the_root_carries_two_n_minus_one(five):
    five.says("byhand-23", "In the ring every rank sends 2(N-1)/N of the tensor and receives as much, "
                           "which stays below 2 whatever N is")
    five.says("byhand-23", "The root of reduce-then-broadcast receives N-1 tensors and sends N-1")
    lines = re.findall(r"N=(\d): ring sends ([\d.]+) x .*= ([\d.]+)\); reduce-then-broadcast root "
                       r"moves (\d+) x", five.text("byhand-22"))
    assert [int(n) for n, *_ in lines] == list(range(2, 9))
    for n, ring, formula, root in lines:
        assert abs(float(ring) - float(formula)) <= 0.002 and float(ring) < 2
        assert int(root) == 2 * (int(n) - 1)


def test_tensorflows_default_on_cpus_is_a_collective_ring_and_the_course_picks_an_addn(five):
    five.says("byhand-23", "On TensorFlow 2.21 the default turns out to be collective ops "
                           "(`CollectiveReduceV2`) with the communication hint `ring` on CPUs")
    text = five.text("byhand-24")
    assert "CPU devices, cross_device_ops=default: [('CollectiveReduceV2', 'ring')]" in text
    assert "cross_device_ops=ReductionToOneDevice: [('AddN', '')]" in text


def test_packs_one_collective_per_replica_and_pack_and_one_addn_per_gradient(five):
    five.says("byhand-37b", "the collective all-reduce builds one `CollectiveReduceV2` per replica "
                            "and pack, so one pack with the default and several with "
                            "`bytes_per_pack` set")
    five.says("byhand-37b", "`ReductionToOneDevice` builds one `AddN` per gradient whatever the "
                            "option says")
    text = five.text("byhand-37a")
    gradients = five.number("byhand-37a", r"(\d+) gradients")
    collectives = five.numbers("byhand-37a", r"CollectiveAllReduce\), bytes_per_pack=\d+: "
                                             r"\{'CollectiveReduceV2': (\d+)\}")
    assert collectives[0] == 2 and collectives[1] > 2  # 2 replicas: one pack, then several
    assert five.numbers("byhand-37a", r"ReductionToOneDevice, bytes_per_pack=\d+: \{'AddN': (\d+)\}") \
        == [gradients, gradients]
    assert "with no options" in text and "all_reduce(" in text


def test_at_b_star_compute_and_all_reduce_take_the_same_time(five):
    five.says("byhand-37b", "the cells check it: at b* the two parts take the same time")
    pairs = re.findall(r"at b\* (?:= [\d.]+ per GPU: )?compute ([\d.]+) ms = all-reduce ([\d.]+) ms",
                       five.text("byhand-37c") + five.text("byhand-39a"))
    assert pairs, "no b* was printed anywhere"
    for compute, communication in pairs:
        assert float(compute) == pytest.approx(float(communication), abs=0.011)


def test_the_hpc_runs_five_gpus_took_about_as_long_per_step_as_one(five):
    five.says("byhand-41", "Five GPUs with a fifth of the work each took about as long per step as "
                           "one GPU with all of it (both printed above).")
    five_gpus = five.number("byhand-40", r"5 GPUs x \d+: model [\d.]+ ms per step, measured ([\d.]+) ms")
    one_gpu = five.number("byhand-40", r"one GPU x \d+: model [\d.]+ ms, measured ([\d.]+) ms")
    assert 0.75 <= five_gpus / one_gpu <= 1.25


def test_almost_all_of_the_one_gpu_step_is_a_fixed_cost(five):
    five.says("byhand-41", "almost all of the one-GPU step is a fixed cost")
    fixed = five.number("byhand-39", r"fixed ([\d.]+) ms per step")
    step = five.number("byhand-40", r"one GPU x \d+: model ([\d.]+) ms")
    assert fixed >= 0.8 * step


def test_five_gpus_ran_more_steps_per_epoch_and_were_less_than_half_efficient(five):
    five.says("byhand-41", "*more* steps per epoch")
    one = five.number("byhand-40", r"steps per epoch: one GPU (\d+)")
    many = five.number("byhand-40", r"5 GPUs (\d+) \(none held out\)")
    assert many > one
    five.says("byhand-41", "Distribution pays only when the per-example part of the step dominates")
    assert five.number("byhand-40", r"\(efficiency (\d+)%\)") < 50


def _table(five):
    rows = re.findall(r"^(course CNN|ResNet-50)\s+(PCIe Gen3|NVLink \(V100\))\s+(\d)\s+(\S+)\s+(\S+)",
                      five.text("byhand-39"), flags=re.M)
    return {(m, link, int(n)): (faster, good) for m, link, n, faster, good in rows}


def test_resnet_pays_from_modest_batches_and_the_cnn_only_at_thousands(five):
    five.says("byhand-43", "For ResNet-50 each example costs milliseconds, so the all-reduce of its "
                           "gradients is a small part of a step from modest per-GPU batches on, and "
                           "more so on NVLink.")
    five.says("byhand-43", "splitting the batch saves almost nothing until the per-GPU batches reach "
                           "thousands")
    table = _table(five)
    assert len(table) == 12
    assert five.number("byhand-39", r"ResNet-50: ([\d.]+) ms per example") >= 1
    assert five.number("byhand-39", r"-> ([\d.]+) us per example") < 1000
    for n in (2, 4, 8):
        pcie, nvlink = (int(table["ResNet-50", link, n][1]) for link in ("PCIe Gen3", "NVLink (V100)"))
        assert pcie <= 64 and nvlink <= pcie  # 80% efficiency from modest batches, sooner on NVLink
        for link in ("PCIe Gen3", "NVLink (V100)"):
            assert int(table["course CNN", link, n][1]) >= 1000


def test_the_trace_has_a_row_per_replica_with_time_in_every_phase_of_computing(five):
    five.says("byhand-45", "draw the middle step with one row per replica")
    text = five.text("byhand-47")
    if "xprof is not installed" in text:
        pytest.skip("the run had no xprof: no trace to check")
    rows = re.findall(r"replica (\d+): forward ([\d.]+) ms, backward ([\d.]+) ms", text)
    assert {int(r) for r, _, _ in rows} == {0, 1}  # printed, and again in the figure's alt
    assert all(float(f) > 0 and float(b) > 0 for _, f, b in rows)


def test_the_count_of_sums_overlapping_the_backward_pass_is_printed(five):
    five.says("byhand-49", "Whether the sums overlap the backward pass, the last sentence printed "
                           "above counts")
    text = five.text("byhand-47")
    if "xprof is not installed" in text:
        pytest.skip("the run had no xprof: no trace to check")
    total = five.number("byhand-47", r"(\d+) all-reduce ops, \d+ of them start before")
    early = five.number("byhand-47", r"all-reduce ops, (\d+) of them start before the last backward op")
    assert total > 0 and 0 <= early <= total


# Section 3: the cost model against measured steps.

TARGET = 0.15  # cost_model.TARGET_ERROR, printed by the lesson beside its error


def test_the_out_of_sample_error_on_cpu_time_is_below_the_target_and_no_prediction_is_negative(five):
    five.says("byhand-37", "In the run stored with this lesson it is below the course's target "
                           "printed beside it, and no prediction is below zero")
    text = five.text("l05-prediction-table")
    assert f"the course aims below {TARGET:.0%}" in text
    error = five.number("l05-prediction-table", r"out of sample ([\d.]+)% \(cpu time")
    assert error < 100 * TARGET, f"median out-of-sample error {error}% of CPU time"
    assert five.number("l05-prediction-table", r"smallest prediction (-?[\d.]+) ms") > 0
    table = re.findall(r"^\s*\d\s+\d+\s+([\d.]+)\s+(-?[\d.]+) \(.*?\)\s+(-?[\d.]+) \(.*?\)\s+(-?[\d.]+) \(",
                       text, flags=re.M)
    assert len(table) == 9 and all(float(v) > 0 for row in table for v in row)


def test_the_sentence_on_the_bounds_follows_the_count_of_steps_between_them(five):
    five.says("byhand-37", "The line above counts them and says what the count means.")
    between = five.number("l05-prediction-table", r"measured steps between the two: (\d+) of 9")
    text = five.text("byhand-36")
    assert f"{between:.0f} of 9 measured steps lie between the lower bound and the sum" in text
    if between >= 4.5:
        assert "the steps behave as the two bounds say" in text
    else:
        assert "the bounds cannot tell overlap from noise here" in text


def test_the_fits_curvature_follows_the_measured_cost_per_example(five):
    five.says("byhand-37", "The measured cost per example at each batch is printed above, and the "
                           "fit's curvature says whether it grows with the batch")
    per_example = {int(b): float(v) for b, v in re.findall(r"b=(\d+) ([\d.]+) ms", five.text("byhand-34"))}
    assert len(per_example) >= 10  # every share and the batches between them
    curvature = five.number("byhand-34", r"ms x b \+ ([\d.]+) us x b\^2")
    assert curvature >= 0
    middle = sorted(v for b, v in per_example.items() if b >= 64)
    if per_example[max(per_example)] > 1.1 * middle[len(middle) // 2]:
        assert curvature > 0, "the cost per example grows with the batch, the fit must bend with it"


def _replicas(five):
    return five.paired("byhand-36", "cpu time of a step at global batch", end="")


def test_the_replicas_verdict_follows_its_interval_and_its_printed_rounds(five):
    five.says("byhand-37", "The verdict line compares the two at the largest batch, round by round: "
                           "the two steps of a round make a pair.")
    five.says("byhand-37", "It prints the typical ratio and its `95% interval`, the ratios these rounds "
                           "leave plausible; the interval narrows as rounds are added.")
    five.says("byhand-37", 'Wholly above or below `1.00x` it reads "faster" or "slower", inside the noise '
                           'threshold `within 5%` (a difference too small to matter here), and '
                           'otherwise "undecided", with about how many rounds would likely decide it.')
    found, text = _replicas(five), five.text("byhand-36")
    assert found["n"] and int(found["n"]) >= 6, found.group(0)  # fewer pairs can never decide
    assert re.search(r"^verdict: (\w+);", text, re.M).group(1) == found["verdict"]
    expected = five.interval_verdict(found["low"], found["high"])
    if expected is not None:
        assert found["verdict"] == expected, found.group(0)
    if found["verdict"] == "undecided":
        assert re.search(r"about \d+ pairs in all would likely decide it|too close to the threshold", text)
    lists = dict(re.findall(r"(\d+) replicas? (\[[^\]]*\])", text))
    most_replicas = re.search(r"(\d+) replicas vs 1", found["what"]).group(1)
    one, most = ast.literal_eval(lists["1"]), ast.literal_eval(lists[most_replicas])
    five.recomputes(found, one, most)


def test_the_model_is_inside_or_outside_the_measured_interval_as_printed(five):
    five.says("byhand-37", "The line that starts `verdict:` repeats it, then prints what the model "
                           "predicts and whether that lies inside the measured interval")
    found, text = _replicas(five), five.text("byhand-36")
    assert re.search(r"the model predicts \d replicas at [\d.]+x the speed of 1 \(compute [\d.]+ ms "
                     r"vs [\d.]+ ms\), (inside|outside) the measured interval", text)
    predicted = five.number("byhand-36", r"the model predicts \d replicas at ([\d.]+)x")
    where = re.search(r"(inside|outside) the measured interval", text).group(1)
    low, high = float(found["low"]), float(found["high"])
    if min(abs(predicted - low), abs(predicted - high)) > 0.01:  # all three printed to two decimals
        assert where == ("inside" if low <= predicted <= high else "outside"), (predicted, low, high)


def test_the_setup_cell_installs_the_xprof_that_the_profile_extra_names(five):
    five.says("byhand-49", "The setup cell installs xprof beside the course (if Colab's pinned packages "
                           "refuse it, the traced-step cell above says so)")
    five.says("byhand-49", "install the course with its `profile` extra, which brings the same xprof: "
                           "`pip install 'tfdist-edu[profile]'`")
    assert re.search(r"%pip install -q -c /tmp/colab-installed\.txt xprof$", five.cell("byhand-01").source,
                     re.M)
    assert "xprof is not installed" in five.cell("byhand-47").source
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(re.match(r"xprof\b", requirement) for requirement in extras["profile"])
