"""Tests for tfdist_edu.explorer: where widgets cannot be drawn, an explorer and its panel show
the answer as text (never ``VBox(children=...``), and the drawn answer wraps at spaces."""

import ipywidgets
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from tfdist_edu import explorer, scaling_plots, widgets

VIEW = "application/vnd.jupyter.widget-view+json"


def lesson5_explorer():
    return scaling_plots.speedup_explorer(ms_per_example=2.674765625, fixed_ms=0.0, parameters_m=25.6,
                                          link_gb_s=10.4, latency_us=10.0)


def stored(value):
    """The outputs' data a kernel stores for a cell whose last line gives ``value`` (its
    display hook formats it, as ``display(value)`` does; an object that displays itself
    publishes its own outputs instead)."""
    shell = InteractiveShell.instance()  # before capture_output, which captures a running shell
    with capture_output() as captured:
        data, _ = shell.display_formatter.format(value)
    return [output.data for output in captured.outputs] + ([data] if data else [])


def test_a_cell_ending_in_the_panel_stores_the_answer_as_its_plain_text():
    found = lesson5_explorer()
    outputs = stored(found.widget if found.widget is not None else found)  # lesson 5's cell
    assert outputs == [{"text/plain": found.text, VIEW: {
        "version_major": 2, "version_minor": 0, "model_id": found.widget.model_id}}]
    assert len(found.text) > 110  # ipywidgets cuts a widget's repr at 110 characters


def test_a_cell_ending_in_the_explorer_stores_the_answer_too():
    chooser = widgets.strategy_chooser(accelerator="tpu")
    ending = stored(chooser)
    assert len(ending) == 1 and ending[0]["text/plain"] == chooser.text
    assert "TPUStrategy" in chooser.text and ending[0][VIEW]["model_id"] == chooser.widget.model_id


def test_the_panels_text_follows_its_controls():
    chooser = widgets.strategy_chooser()
    chooser.controls["devices_per_machine"].value = 4
    assert repr(chooser.widget) == chooser.text and "MirroredStrategy" in chooser.text


def test_the_answer_keeps_its_lines_wraps_at_spaces_and_is_escaped():
    found = explorer.Explorer(lambda x: f"<b>{x}</b>\n  second line", {"x": 1},
                              lambda w, values: {"x": w.IntSlider(value=values["x"])})
    html = found.widget.children[-1].value
    assert "white-space: pre-wrap" in html and "word-break: normal" in html
    assert "&lt;b&gt;1&lt;/b&gt;\n  second line" in html


def test_the_panel_class_is_a_vbox_made_once_per_ipywidgets():
    assert explorer.panel_class(ipywidgets) is explorer.panel_class(ipywidgets)
    assert issubclass(explorer.panel_class(ipywidgets), ipywidgets.VBox)
