"""tfdist_edu.plots.speed: epoch times, throughput and scaling efficiency of timed runs."""

import matplotlib.colors
import pytest

from figure_checks import HARDWARE, all_text, saved
from tfdist_edu import plots, timing


def test_epoch_time_bars_are_first_and_steady_epochs_in_each_runs_colour(runs, tmp_path):
    fig = plots.plot_epoch_times(runs)
    heights = [p.get_height() for p in fig.axes[0].patches]
    assert heights == [3.0, 5.0, 4.0, 1.1, 1.5, 1.25]
    assert fig.axes[0].patches[1].get_facecolor()[:3] == pytest.approx(
        matplotlib.colors.to_rgb(plots.color_for("mirrored fit")))
    assert HARDWARE in all_text(fig)
    saved(fig, tmp_path)


@pytest.mark.parametrize("against", ["replicas", "global_batch"])
def test_throughput_figure_plots_examples_per_second_against_replicas_or_batch(runs, against, tmp_path):
    fig = plots.plot_throughput(runs, against=against)
    points = [c.get_offsets()[0].tolist() for c in fig.axes[0].collections]
    assert points == [[getattr(r, against), pytest.approx(r.examples_per_s)] for r in runs]
    saved(fig, tmp_path)


def test_scaling_efficiency_compares_speed_up_with_the_ideal_line(runs, tmp_path):
    fig = plots.plot_scaling_efficiency(runs)
    ideal = fig.axes[0].lines[0]
    assert list(ideal.get_xdata()) == [1, 2] and list(ideal.get_ydata()) == [1, 2]
    speedups = [c.get_offsets()[0][1] for c in fig.axes[0].collections]
    assert speedups == pytest.approx([1.0, (600 / 1.5) / (600 / 1.1), (600 / 1.25) / (600 / 1.1)])
    text = all_text(fig)
    assert "100% efficient" in text and f"{speedups[2] / 2:.0%} efficient" in text
    saved(fig, tmp_path)


def test_timing_figures_refuse_an_empty_run_list_and_an_unknown_axis(runs):
    with pytest.raises(ValueError, match="no runs"):
        plots.plot_epoch_times([])
    with pytest.raises(ValueError, match="against"):
        plots.plot_throughput(runs, against="epochs")
    with pytest.raises(ValueError, match="baseline"):
        plots.plot_scaling_efficiency(runs, baseline="tpu run")


def test_block_times_figure_draws_every_steady_block_of_every_run(tmp_path):
    runs = [timing.RunTiming(name=n, replicas=r, global_batch=128, hardware=HARDWARE, data="synthetic",
                             block_seconds=[5.0] + blocks)
            for n, r, blocks in (("default fit", 1, [1.0, 1.1, 0.9]), ("mirrored fit", 2, [2.0, 2.2]))]
    fig = plots.plot_block_times(runs)
    points = sorted(round(y, 6) for c in fig.axes[0].collections for _, y in c.get_offsets())
    assert points == [0.9, 1.0, 1.1, 2.0, 2.2]  # the first block (tracing) is left out
    assert "default fit: 3 blocks, median 1.00 s, middle half 0.95-1.05 s (10% of the median)" in plots.alt_text(fig)
    saved(fig, tmp_path)


def test_block_times_draw_the_slow_rounds_hollow_and_keep_them_in_the_boxes(tmp_path):
    runs = [timing.RunTiming(name=n, replicas=r, global_batch=128, hardware=HARDWARE, data="synthetic",
                             block_seconds=[5.0] + blocks)
            for n, r, blocks in (("default fit", 1, [1.0, 1.3, 1.0]), ("mirrored fit", 2, [2.0, 2.6, 2.0]))]
    fig = plots.plot_block_times(runs, slow_rounds=[2])
    hollow = [c for c in fig.axes[0].collections if len(c.get_offsets()) and not c.get_facecolors().any()]
    assert sorted(round(y, 6) for c in hollow for _, y in c.get_offsets()) == [1.3, 2.6]
    alt = plots.alt_text(fig)
    assert "default fit: 3 blocks, median 1.00 s" in alt and "Round(s) 3, in which the arms" in alt
    saved(fig, tmp_path)
