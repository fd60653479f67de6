"""2.-3. Loss scaling across replicas: the ``loss_scaling`` records of the right and wrong
denominators, and the metric pitfall.
"""

import matplotlib.pyplot as plt
import numpy as np

from tfdist_edu.plots.style import REFERENCE, RIGHT, WRONG, _figure_function, _footnote

_CASE_LABELS = {
    "compute_average_loss": "(a) / global batch",
    "reduce_mean": "(b) / replica batch",
    "scale_regularization_loss": "(a) penalty / replicas",
    "unscaled penalty": "(b) penalty, unscaled",
    "single device": "(c) one device",
}


@_figure_function
def plot_loss_scaling(result):
    """Draw a ``loss_scaling.LossScalingResult``: the loss each replica returns, their sum, and
    the gradient norm after the all-reduce, for each case beside the single-device reference.
    """
    names = list(result.cases)
    colours = [RIGHT, WRONG, REFERENCE]
    fig, (loss_ax, grad_ax) = plt.subplots(1, 2, figsize=(12.5, 6.2))
    x = np.arange(len(names))
    for xi, name, colour in zip(x, names, colours):
        bottom = 0.0
        for replica, value in enumerate(result.cases[name].replica_losses):
            loss_ax.bar(xi, value, 0.6, bottom=bottom, color=colour, alpha=0.55 + 0.4 * (replica % 2),
                        edgecolor="white", linewidth=2)
            if len(result.cases[name].replica_losses) > 1:
                loss_ax.text(xi, bottom + value / 2, f"replica {replica}\n{value:.3f}", ha="center",
                             va="center", fontsize=10, color="white", fontweight="bold")
            bottom += value
        loss_ax.annotate(f"sum {bottom:.3f}", (xi, bottom), xytext=(0, 3),
                         textcoords="offset points", ha="center", va="bottom")
    loss_ax.set_title("Loss returned by the replicas (stacked)")
    loss_ax.set_ylabel("loss")
    bars = grad_ax.bar(x, [result.cases[n].grad_norm for n in names], 0.6, color=colours)
    for bar, name in zip(bars, names):
        ratio = result.ratio(name)
        note = "= single device" if abs(ratio - 1) < 1e-4 else f"{ratio:.2f} x single device"
        grad_ax.annotate(f"{bar.get_height():.4f}\n{note}",
                         (bar.get_x() + bar.get_width() / 2, bar.get_height()), xytext=(0, 3),
                         textcoords="offset points", ha="center", va="bottom")
    grad_ax.set_title("Gradient norm the optimizer applies\n(after summing over replicas)")
    grad_ax.set_ylabel("global gradient norm")
    for ax in (loss_ax, grad_ax):
        ax.set_xticks(x, [_CASE_LABELS.get(n, n) for n in names])
        ax.margins(y=0.25)
    what = "the loss" if result.kind == "loss" else "a weight penalty"
    fig.suptitle(f"Scaling {what} across {result.replicas} replicas, global batch "
                 f"{result.global_batch}: (a) matches the single device, (b) does not",
                 fontsize=16, fontweight="bold")
    notes = [f"{label[:3]} {case.code}" for label, case in
             zip([_CASE_LABELS.get(n, n) for n in names], result.cases.values())]
    if result.kind == "regularization":
        notes.append(f"penalty: tf.add_n(model.losses) = {result.penalty:.4f} on one device")
    fig.text(0.06, 0.02, "\n".join(notes), fontsize=12, family="monospace", va="bottom")
    fig.subplots_adjust(bottom=0.1 + 0.045 * len(notes), top=0.82, wspace=0.25)
    return fig


@_figure_function
def plot_metric_pitfall(pitfall):
    """Draw a ``loss_scaling.MetricPitfall``: the training loss (the sum of the replicas'
    scaled losses) next to what a Mean metric reports when fed the scaled losses, and when fed
    the per-example losses.
    """
    fig, ax = plt.subplots(figsize=(11, 6.2))
    bottom = 0.0
    for replica, value in enumerate(pitfall.scaled):
        ax.bar(0, value, 0.6, bottom=bottom, color=RIGHT, alpha=0.55 + 0.4 * (replica % 2),
               edgecolor="white", linewidth=2)
        ax.text(0, bottom + value / 2, f"replica {replica}: {value:g}", ha="center", va="center",
                color="white", fontweight="bold")
        bottom += value
    ax.bar([1, 2], [pitfall.metric_of_scaled, pitfall.metric_of_examples], 0.6,
                  color=[WRONG, RIGHT])
    for xi, value in zip([0, 1, 2], [pitfall.summed, pitfall.metric_of_scaled, pitfall.metric_of_examples]):
        ax.annotate(f"{value:g}", (xi, value), xytext=(0, 3), textcoords="offset points",
                    ha="center", va="bottom", fontsize=16, fontweight="bold")
    ax.axhline(pitfall.summed, color="0.3", ls="--", lw=1)
    ax.set_xticks([0, 1, 2], ["training loss\nsum of scaled losses\n(strategy.reduce SUM)",
                              "Mean metric fed\nthe scaled losses",
                              "Mean metric fed\nthe per-example losses"])
    ax.set_ylabel("loss")
    ax.margins(y=0.2)
    losses = " and ".join(str([f"{v:g}" for v in r]).replace("'", "") for r in pitfall.replica_losses)
    replicas = len(pitfall.replica_losses)
    ax.set_title(f"The metric pitfall: replica losses {losses}, global batch {pitfall.global_batch}")
    _footnote(fig, [f"Each replica returns compute_average_loss = its sum / {pitfall.global_batch}. "
                    f"A Mean of those {replicas} already-divided values is the loss / {replicas}."])
    fig.subplots_adjust(bottom=0.24)
    return fig
