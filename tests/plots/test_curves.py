"""tfdist_edu.plots.curves: the training curves of timed runs and of history dicts."""

import pytest

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


def test_step_losses_draw_every_runs_loss_and_its_gap_to_the_reference_step_by_step(tmp_path):
    two_workers = [2.3, 1.5, 1.0, 0.8]
    drifting = [2.3, 1.5 * (1 + 1e-6), 1.01, 0.8 * (1 - 0.02)]
    runs = {"2 workers": two_workers, "1 machine": list(two_workers), "more threads": drifting}
    fig = plots.plot_step_losses(runs, "2 workers")
    loss_ax, gap_ax = fig.axes
    assert [list(line.get_ydata()) for line in loss_ax.lines] == [two_workers, two_workers, drifting]
    assert [list(line.get_xdata()) for line in loss_ax.lines][0] == [1, 2, 3, 4]
    same, drift = (list(line.get_ydata()) for line in gap_ax.lines)
    assert same == [0.0] * 4
    assert drift[0] == 0.0 and drift[1] == pytest.approx(1e-6) and drift[3] == pytest.approx(0.02)
    assert [line.get_color() for line in gap_ax.lines] == [plots.color_for("1 machine"),
                                                          plots.color_for("more threads")]
    alt = plots.alt_text(fig)
    assert "1 machine: identical at every step" in alt
    assert "more threads: first differs at step 2, largest relative gap 2.0e-02" in alt
    saved(fig, tmp_path)


def test_step_losses_refuse_an_unknown_reference_or_runs_of_other_lengths():
    with pytest.raises(ValueError, match="reference 'one' is not one of the runs"):
        plots.plot_step_losses({"a": [1.0]}, "one")
    with pytest.raises(ValueError, match="the same, non-zero number of steps"):
        plots.plot_step_losses({"a": [1.0, 0.5], "b": [1.0]}, "a")


def test_a_restart_draws_the_resumed_steps_after_the_checkpoint_beside_the_run_without_a_failure(tmp_path):
    without = [2.3, 1.5, 1.0, 0.8, 0.7, 0.6]
    resumed = [1.2, 0.9, 0.75, 0.65]  # steps 3 to 6, after a restart from the checkpoint of step 2
    fig = plots.plot_restart(without, resumed, restart_step=2)
    (ax,) = fig.axes
    whole, after = ax.lines[:2]
    assert list(whole.get_xdata()) == [1, 2, 3, 4, 5, 6] and list(whole.get_ydata()) == without
    assert list(after.get_xdata()) == [3, 4, 5, 6] and list(after.get_ydata()) == resumed
    assert ax.lines[2].get_xdata()[0] == 2.5  # the restart, between step 2 and step 3
    saved(fig, tmp_path)
    assert plots.alt_text(fig).endswith(
        "of steps 3 to 6 after a restart from the checkpoint of step 2: mean loss after the "
        "restart 0.875, without a failure 0.775.")


@pytest.mark.parametrize("without, resumed, refused", [
    ([1.0, 0.9, 0.8], [], "need resumed steps after step 2"),
    ([1.0, 0.9, 0.8, 0.7], [0.5, 0.4, 0.3], "up to step 5: got 3 and 4"),
])
def test_a_restart_without_resumed_steps_or_with_too_short_a_run_is_refused(without, resumed, refused):
    with pytest.raises(ValueError, match=refused):
        plots.plot_restart(without, resumed, restart_step=2)
