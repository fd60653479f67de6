"""6. Training curves: per-epoch metrics of several runs."""

import matplotlib.lines
import matplotlib.pyplot as plt
import matplotlib.ticker
import numpy as np

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
