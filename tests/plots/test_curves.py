"""tfdist_edu.plots.curves: the training curves of timed runs and of history dicts."""

from figure_checks import saved
from tfdist_edu import plots


def test_training_curves_plot_every_history_in_the_runs_colour(runs, tmp_path):
    fig = plots.plot_training_curves(runs)
    loss_ax, accuracy_ax = fig.axes
    assert len(accuracy_ax.lines) == 2 * len(runs)
    for run, train, val in zip(runs, accuracy_ax.lines[::2], accuracy_ax.lines[1::2]):
        assert list(train.get_ydata()) == run.history["accuracy"]
        assert list(val.get_ydata()) == run.history["val_accuracy"]
        assert train.get_color() == val.get_color() == plots.color_for(run.name)
    from_dict = plots.plot_training_curves({"fit": {"loss": [2.0, 1.0]}}, metrics=("loss",))
    assert list(from_dict.axes[0].lines[0].get_ydata()) == [2.0, 1.0]
    saved(fig, tmp_path)
