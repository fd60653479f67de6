"""Tests for tfdist_edu.scaling_plots: each figure draws the data given, the panel answers in text."""

import matplotlib.figure
import pytest

from tfdist_edu import cost_model, plots, scaling_plots, trace


def test_traffic_figure_has_busiest_and_least_busy_lines_per_algorithm():
    traffic = {"ring": {2: [2, 2], 4: [3, 3, 3, 3]}, "root": {2: [2, 2], 4: [6, 2, 2, 2]}}
    fig = scaling_plots.plot_traffic(traffic, 2, "test data")
    assert isinstance(fig, matplotlib.figure.Figure) and len(fig.axes[0].lines) == 4


def test_prediction_figure_labels_each_run_with_its_error():
    rows = [dict(n=1, batch=32, predicted_ms=11.0, measured_ms=10.0)]
    fig = scaling_plots.plot_prediction(rows, "test data")
    assert any("+10%" in t.get_text() for t in fig.axes[0].texts)


def test_prediction_figure_draws_a_measured_bar_per_run_grouped_by_batch():
    rows = [dict(n=n, batch=b, predicted_ms=b / 10, measured_ms=b / 10 * (1 + n / 100))
            for b in (64, 256) for n in (1, 2)]
    ax = scaling_plots.plot_prediction(rows, "test data").axes[0]
    assert sorted(round(bar.get_height(), 3) for bar in ax.patches) == sorted(
        round(r["measured_ms"], 3) for r in rows)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["global batch 64", "global batch 256"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["1 replica", "2 replicas", "predicted"]


def test_timeline_has_one_row_per_replica():
    events = [trace.Event(r, "forward", "x", 0.0, 1.0) for r in (0, 1)]
    fig = scaling_plots.plot_timeline(events, "test data")
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ["replica 0", "replica 1"]


def test_what_if_figure_draws_one_panel_per_model():
    model = cost_model.StepModel(cost_model.Line(0.0, 0.001), cost_model.Link(1e-5, 1e10), 1e8)
    fig = scaling_plots.plot_what_if({"a": (model, "x"), "b": (model, "y")}, [1, 16, 256])
    assert len(fig.axes) == 2


def test_explorer_answers_in_text_and_updates():
    explorer = scaling_plots.speedup_explorer(ms_per_example=2.7, fixed_ms=0.0, parameters_m=25.6,
                                              link_gb_s=10.0, latency_us=10.0)
    assert "speed-up" in explorer.text and "4 GPUs" in explorer.text
    explorer.update(devices=8)
    assert "8 GPUs" in explorer.text


def test_prediction_figure_refuses_a_time_a_log_axis_cannot_show():
    rows = [dict(n=1, batch=64, predicted_ms=-1.9, measured_ms=8.0)]
    with pytest.raises(ValueError, match=r"log axis.*predicted_ms=-1.9.*batch 64"):
        scaling_plots.plot_prediction(rows, "test data")


def test_prediction_figure_draws_every_prediction_and_lower_bound_inside_its_axis():
    rows = [dict(n=n, batch=b, predicted_ms=b / 10, lower_ms=b / 12, measured_ms=b / 11)
            for b in (64, 1024) for n in (1, 4)]
    ax = scaling_plots.plot_prediction(rows, "test data").axes[0]
    low, high = ax.get_ylim()
    drawn = [y for line in ax.lines for y in line.get_ydata()]
    assert len(drawn) == 2 * 2 * len(rows)  # a sum tick and a lower-bound tick per row
    assert all(low <= y <= high for y in drawn)
    assert [t.get_text() for t in ax.get_legend().get_texts()][-2:] == ["predicted", "lower bound"]


def test_prediction_figure_alt_says_the_median_error():
    rows = [dict(n=1, batch=32, predicted_ms=11.0, measured_ms=10.0),
            dict(n=2, batch=32, predicted_ms=9.0, measured_ms=10.0),
            dict(n=4, batch=32, predicted_ms=13.0, measured_ms=10.0)]
    alt = plots.alt_text(scaling_plots.plot_prediction(rows, "test data"))
    assert "Median error 10%, largest 30%" in alt and "test data" in alt


def test_timeline_alt_says_when_each_phase_of_each_replica_runs():
    events = [trace.Event(0, "forward", "a", 0.0, 2.0), trace.Event(0, "backward", "b", 2.0, 3.0),
              trace.Event(0, "all-reduce", "c", 4.5, 0.5), trace.Event(0, "update", "d", 5.0, 0.5)]
    alt = plots.alt_text(scaling_plots.plot_timeline(events, "test data"))
    assert "replica 0: forward 2.0 ms, backward 3.0 ms, all-reduce 0.5 ms, update 0.5 ms" in alt
    assert "1 all-reduce ops, 1 of them start before the last backward op ends at 5.0 ms" in alt
    assert "5.5 ms in all" in alt and "bars:" not in alt


def test_what_if_panels_stack_within_one_notebook_column():
    model = cost_model.StepModel(cost_model.Line(0.0, 0.001), cost_model.Link(1e-5, 1e10), 1e8)
    fig = scaling_plots.plot_what_if({k: (model, "x") for k in "abc"}, [1, 16, 256])
    width_px = fig.get_size_inches()[0] * fig.dpi
    assert len(fig.axes) == 3 and width_px <= 1000
