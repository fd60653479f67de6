"""On Colab's ipywidgets 7.7.1, where a widget displays itself through ``_ipython_display_``:
a cell ending in an explorer's panel stores the explorer's answer as its plain text (what a
stored notebook, nbconvert and GitHub show), not the panel's ``VBox(children=...`` repr."""

import ipywidgets
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from tfdist_edu import speedup, widgets

VIEW = "application/vnd.jupyter.widget-view+json"


def stored(value):
    """The outputs' data a kernel stores for a cell whose last line gives ``value``: ipywidgets 7
    publishes them itself from ``_ipython_display_``, and the display hook adds nothing."""
    shell = InteractiveShell.instance()  # before capture_output, which captures a running shell
    with capture_output() as captured:
        data, _ = shell.display_formatter.format(value)
    return [output.data for output in captured.outputs] + ([data] if data else [])


def test_colabs_ipywidgets_displays_widgets_through_ipython_display(pins):
    assert ipywidgets.__version__ == pins["ipywidgets"]
    assert hasattr(ipywidgets.Widget, "_ipython_display_")


def test_lesson_5s_cell_stores_the_answer_beside_the_widget_view():
    explorer = speedup.speedup_explorer(ms_per_example=2.674765625, fixed_ms=0.0, parameters_m=25.6,
                                        link_gb_s=10.4, latency_us=10.0)
    outputs = stored(explorer.widget if explorer.widget is not None else explorer)  # lesson 5's cell
    assert outputs == [{"text/plain": explorer.text, VIEW: {
        "version_major": 2, "version_minor": 0, "model_id": explorer.widget.model_id}}]
    assert "4 GPUs 186.0 ms (all-reduce 14.8 ms)" in outputs[0]["text/plain"]


def test_lesson_0s_explorers_store_their_answers_too():
    chooser, explorer = widgets.strategy_chooser(), widgets.batch_explorer()
    assert [o["text/plain"] for o in stored(chooser)] == [chooser.text]
    assert [o["text/plain"] for o in stored(explorer)] == [explorer.text]
