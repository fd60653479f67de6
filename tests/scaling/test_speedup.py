"""Tests for tfdist_edu.speedup: lesson 5's what-if panel keeps the numbers it starts from."""

import pytest

from tfdist_edu import speedup

# Lesson 5's starting point: ResNet-50 on a V100, PCIe Gen3 at NCCL's share (cost_model.PUBLISHED).
LESSON5 = dict(ms_per_example=2.674765625, fixed_ms=0.0, parameters_m=25.6, link_gb_s=10.4,
               latency_us=10.0)


def test_the_panel_starts_at_exactly_the_numbers_printed_above_it():
    explorer = speedup.speedup_explorer(**LESSON5)
    assert "4 GPUs 186.0 ms (all-reduce 14.8 ms)" in explorer.text
    assert explorer.controls["parameters_m"].value == 25.6
    assert explorer.controls["parameters_m"].label == "25.6 M"
    assert explorer.controls["link_gb_s"].value == 10.4
    assert explorer.controls["link_gb_s"].label == "10.4 GB/s"
    assert explorer.widget.children[-1].value.count("186.0 ms") == 1


def test_each_control_recomputes_the_answer_from_its_exact_value():
    explorer = speedup.speedup_explorer(**LESSON5)
    fixed = dict(ms_per_example=2.674765625, fixed_ms=0.0, latency_us=10.0)
    inputs = dict(parameters_m=25.6, per_device_batch=64, link_gb_s=10.4, devices=4)
    for name, value in {"parameters_m": 30, "per_device_batch": 128, "link_gb_s": 15,
                        "devices": 8}.items():
        explorer.controls[name].value = value
        inputs[name] = value
        assert explorer.values == inputs and explorer.text == speedup.what_if(**inputs, **fixed)
    assert "30 M parameters" in explorer.text and "links at 15 GB/s" in explorer.text


def test_update_beyond_a_sliders_range_keeps_the_value():
    explorer = speedup.speedup_explorer(**LESSON5)
    explorer.update(devices=64, parameters_m=2000)
    assert explorer.controls["devices"].value == 64 and explorer.values["devices"] == 64
    assert explorer.controls["parameters_m"].label == "2000 M" and "2000 M parameters" in explorer.text


@pytest.mark.parametrize("name, bad, message", [
    ("parameters_m", 0, "parameters_m must be a number > 0, got 0"),
    ("link_gb_s", -1.0, "link_gb_s must be a number > 0, got -1.0"),
    ("devices", 2.5, "devices must be a whole number >= 1, got 2.5"),
    ("per_device_batch", 0, "per_device_batch must be a whole number >= 1, got 0"),
])
def test_a_bad_input_is_refused_in_one_line_and_changes_nothing(name, bad, message):
    explorer = speedup.speedup_explorer(**LESSON5)
    text, values = explorer.text, dict(explorer.values)
    with pytest.raises(ValueError) as error:
        explorer.update(**{name: bad})
    assert str(error.value) == message
    assert explorer.text == text and explorer.values == values
    assert {n: c.value for n, c in explorer.controls.items()} == values
