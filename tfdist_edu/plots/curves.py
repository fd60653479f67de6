"""6. Training curves: per-epoch metrics of several runs, and per-step losses compared with a
reference run (lesson 7: two workers against one machine)."""

import matplotlib.lines
import matplotlib.pyplot as plt
import matplotlib.ticker
import numpy as np

from tfdist_edu.plots.alt import set_alt
from tfdist_edu.plots.style import _check_runs, _figure_function, _measured_on, color_for


@_figure_function
def plot_training_curves(runs, metrics=("loss", "accuracy")):
    """Per-epoch ``metrics`` of several runs, one panel each: training solid, validation dashed.

    ``runs`` is a list of ``timing.RunTiming`` or a dict of run name -> history dict (as
    returned by ``Model.fit(...).history`` or ``training.CustomLoop.fit``).
    """
    histories = runs if isinstance(runs, dict) else {r.name: r.history for r in _check_runs(runs)}
    if not histories:
        raise ValueError("no runs to plot")
    fig, axes = plt.subplots(1, len(metrics), figsize=(5.5 * len(metrics), 5.5), squeeze=False)
    for ax, metric in zip(axes[0], metrics):
        for name, history in histories.items():
            for key, style in ((metric, "-"), (f"val_{metric}", "--")):
                if history.get(key):
                    epochs = np.arange(1, len(history[key]) + 1)
                    ax.plot(epochs, history[key], style, marker="o", color=color_for(name), lw=2)
        ax.set_title(metric)
        ax.set_xlabel("epoch")
        ax.set_ylabel(metric)
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    axes[0][-1].legend([matplotlib.lines.Line2D([], [], color=color_for(n), lw=3) for n in histories],
                       list(histories))
    fig.suptitle("Training curves (solid: training, dashed: validation)", fontsize=16,
                 fontweight="bold")
    fig.subplots_adjust(top=0.84)
    if not isinstance(runs, dict):
        _measured_on(fig, runs)
        fig.subplots_adjust(bottom=0.2)
    return fig


def _first_gap(gap):
    """The 1-based number of the first step whose gap is not zero, or None."""
    return next((step for step, g in enumerate(gap, start=1) if g != 0), None)


@_figure_function
def plot_step_losses(runs, reference):
    """The loss of every step of several runs, and each run's gap to ``reference``, step by step.

    ``runs`` maps a run's name to its list of per-step losses (all the same length);
    ``reference`` names the run the others are compared with. The lower panel draws the
    relative gap ``|loss - reference| / reference`` on a symmetric-log axis, so a run that
    matches bit for bit lies on 0 and a rounding-level drift stays visible.
    """
    if reference not in runs:
        raise ValueError(f"reference {reference!r} is not one of the runs {list(runs)}")
    lengths = {name: len(losses) for name, losses in runs.items()}
    if len(set(lengths.values())) != 1 or not lengths[reference]:
        raise ValueError(f"every run needs the same, non-zero number of steps: {lengths}")
    base = np.asarray(runs[reference], dtype="float64")
    steps = np.arange(1, len(base) + 1)
    fig, (loss_ax, gap_ax) = plt.subplots(2, 1, figsize=(11, 8), sharex=True,
                                          gridspec_kw={"height_ratios": [3, 2]})
    said = []
    for name, losses in runs.items():
        style = {"lw": 3, "alpha": 0.5} if name == reference else {"lw": 1.5, "ls": "--"}
        loss_ax.plot(steps, losses, color=color_for(name), label=name, **style)
        if name == reference:
            continue
        gap = np.abs(np.asarray(losses, dtype="float64") - base) / np.abs(base)
        gap_ax.plot(steps, gap, color=color_for(name), lw=1.5, marker="o", ms=3, label=name)
        first = _first_gap(gap)
        said.append(f"{name}: identical at every step" if first is None else
                    f"{name}: first differs at step {first}, largest relative gap {gap.max():.1e}")
    loss_ax.set_ylabel("loss")
    loss_ax.set_title("Loss of every training step")
    loss_ax.legend()
    gap_ax.set_yscale("symlog", linthresh=1e-7)
    gap_ax.set_ylabel(f"relative gap\nto {reference}")
    gap_ax.set_xlabel("step")
    gap_ax.set_title(f"How far each run is from {reference}")
    fig.suptitle("The same training, step by step", fontsize=16, fontweight="bold")
    fig.tight_layout()
    set_alt(fig, f"Loss of each of {len(base)} training steps of {len(runs)} runs, compared with "
                 f"{reference}. " + "; ".join(said) + ".")
    return fig


@_figure_function
def plot_restart(uninterrupted, resumed, restart_step):
    """The loss of every step of a run that was killed and restarted from its checkpoint, against
    the same training without a failure.

    ``uninterrupted`` holds the per-step losses of the run without a failure, ``resumed`` those
    of the restarted run, whose checkpoint kept the first ``restart_step`` steps: they are
    steps ``restart_step + 1`` onwards. Up to the checkpoint the two runs are one.
    """
    last = restart_step + len(resumed)
    if not resumed or restart_step < 1 or len(uninterrupted) < last:
        raise ValueError(f"need resumed steps after step {restart_step} >= 1 and the run without "
                         f"a failure up to step {last}: got {len(resumed)} and {len(uninterrupted)}")
    without, after = np.asarray(uninterrupted[:last], dtype="float64"), np.asarray(resumed, "float64")
    fig, ax = plt.subplots(figsize=(11, 5.5))
    ax.plot(np.arange(1, last + 1), without, color=color_for("without a failure"), lw=3, alpha=0.5,
            label="without a failure")
    ax.plot(np.arange(restart_step + 1, last + 1), after, color=color_for("restarted"), lw=1.5,
            ls="--", label="restarted from the checkpoint")
    ax.axvline(restart_step + 0.5, color="0.3", ls=":", lw=2)
    ax.annotate(f"killed; restarted from\nthe checkpoint of step {restart_step}",
                (restart_step + 0.5, ax.get_ylim()[1]), xytext=(6, -6), textcoords="offset points",
                va="top", fontsize=12)
    ax.set_xlabel("step")
    ax.set_ylabel("loss")
    ax.legend(loc="center right")
    fig.suptitle("Training across a restart", fontsize=16, fontweight="bold")
    fig.tight_layout()
    set_alt(fig, f"Loss of each of {last} training steps without a failure, and of steps "
                 f"{restart_step + 1} to {last} after a restart from the checkpoint of step "
                 f"{restart_step}: mean loss after the restart {after.mean():.3f}, without a failure "
                 f"{without[restart_step:].mean():.3f}.")
    return fig
