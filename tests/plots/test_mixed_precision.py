"""tfdist_edu.plots.mixed_precision: the dynamic loss scale of a mixed_float16 trace."""

from figure_checks import saved
from tfdist_edu import dynamic_loss_scale, plots


def test_loss_scale_figure_plots_the_trace_and_marks_the_injected_overflow(tmp_path):
    trace = dynamic_loss_scale.loss_scale_trace(steps=12, overflow_steps=(8,), growth_steps=3,
                                          initial_scale=2.0**8)
    fig = plots.plot_loss_scale(trace)
    scale_ax, loss_ax = fig.axes
    plotted = list(scale_ax.lines[0].get_ydata())
    assert plotted == trace.scale and plotted[8] == plotted[7] / 2
    marked = scale_ax.collections[0].get_offsets()
    assert marked.tolist() == [[8, plotted[8]]]
    assert list(loss_ax.lines[0].get_ydata()) == trace.loss
    saved(fig, tmp_path)
