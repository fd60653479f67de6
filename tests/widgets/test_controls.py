"""Tests for tfdist_edu.controls: controls that show, and keep, exactly the numbers they are given."""

import ipywidgets
import pytest

from tfdist_edu import controls


def test_log_choices_are_round_values_per_decade_with_the_given_value_among_them():
    choices = controls.log_choices(25.6, 0.1, 1000, " M")
    values = [v for _, v in choices]
    assert values == sorted(values) and values[0] == 0.1 and values[-1] == 1000
    assert [v for v in values if 10 <= v < 100] == [10, 15, 20, 25.6, 30, 40, 50, 60, 80]
    assert ("25.6 M", 25.6) in choices and ("0.1 M", 0.1) in choices


def test_a_log_slider_starts_at_exactly_its_value_and_reads_it_with_its_unit():
    slider = controls.log_slider(ipywidgets, 10.4, 1, 1000, " GB/s", "link speed")
    assert slider.value == 10.4 and slider.label == "10.4 GB/s"
    slider.index = len(slider.options) - 1
    assert slider.label == "1000 GB/s"  # a readout, not "1.00e+3"
    slider.index = 0
    assert (slider.value, slider.label) == (1, "1 GB/s")


def test_the_state_a_frontend_sends_back_keeps_the_exact_value():
    # A frontend holds the slider's index and its labels; it never rounds the value itself.
    slider = controls.log_slider(ipywidgets, 25.6, 0.1, 1000, " M", "parameters")
    state = slider.get_state()
    assert state["_options_labels"][state["index"]] == "25.6 M"
    slider.set_state({"index": state["index"]})
    assert slider.value == 25.6
    slider.set_state({"index": state["index"] + 1})
    assert slider.value == 30


def test_set_control_adds_an_off_grid_value_to_a_log_slider_and_moves_there():
    slider = controls.log_slider(ipywidgets, 25.6, 0.1, 1000, " M", "parameters")
    controls.set_control(slider, 7.3)
    assert slider.value == 7.3 and slider.label == "7.3 M"
    controls.set_control(slider, 40)  # on the grid: the choices stay
    assert slider.value == 40 and "7.3 M" in slider._options_labels
    controls.set_control(slider, 12.5)  # off it: the grid and 12.5 only
    assert slider.label == "12.5 M" and "7.3 M" not in slider._options_labels


def test_set_control_widens_a_sliders_bounds_instead_of_clipping_the_value():
    slider = ipywidgets.IntSlider(value=4, min=2, max=16)
    controls.set_control(slider, 64)
    assert (slider.value, slider.max) == (64, 64)
    controls.set_control(slider, 1)
    assert (slider.value, slider.min) == (1, 1)


@pytest.mark.parametrize("bad", [0, -3.0, float("nan"), float("inf"), "10", None, True])
def test_a_value_that_is_not_a_positive_number_is_refused_in_one_line(bad):
    with pytest.raises(ValueError, match=r"^value must be a number > 0, got .*$"):
        controls.log_choices(bad, 1, 1000)


def test_toggle_buttons_are_as_wide_as_their_labels():
    buttons = ipywidgets.ToggleButtons(options=["synchronous (all-reduce)"], style=controls.BUTTON_STYLE)
    assert buttons.style.button_width == "auto"
