"""1. Data parallelism: how a real strategy trains on one global batch."""

import matplotlib.patches
import matplotlib.pyplot as plt

from tfdist_edu import strategies
from tfdist_edu.batching import BatchPlan
from tfdist_edu.plots.style import _device_label, _figure_function, _footnote, _nth_color


@_figure_function
def plot_data_parallelism(strategy, global_batch):
    """Draw how ``strategy`` trains on one global batch of ``global_batch`` examples.

    The batch is cut into one slice per replica, each replica (on the device the strategy put
    it on) runs the same model on its slice, the gradients are summed by an all-reduce, and one
    identical update is applied to every copy of the variables.
    """
    replicas = strategy.num_replicas_in_sync
    if global_batch % replicas:
        raise ValueError(f"a global batch of {global_batch} does not split evenly over "
                         f"{replicas} replicas; use a multiple of {replicas}")
    plan = BatchPlan(replicas, global_batch // replicas)
    try:
        devices = [_device_label(d) for d in strategy.extended.worker_devices]
    except RuntimeError:  # the default strategy: TensorFlow places each op itself
        devices = ["default device"]
    fig, ax = plt.subplots(figsize=(max(10, 2.6 * replicas), 7.5))
    ax.set(xlim=(0, replicas), ylim=(0, 10.4))
    ax.axis("off")
    small = 13 if replicas <= 4 else 10
    ax.add_patch(matplotlib.patches.Rectangle((0.02, 8.6), replicas - 0.04, 1.0, fc="0.92", ec="0.4"))
    ax.text(replicas / 2, 9.75, f"one global batch of {plan.global_batch} examples", ha="center",
            va="bottom", fontsize=14)
    for i, ((start, stop), device) in enumerate(zip(plan.slices, devices)):
        colour = _nth_color(i)
        ax.add_patch(matplotlib.patches.Rectangle((i + 0.06, 8.7), 0.88, 0.8, fc=colour, alpha=0.35,
                                                  ec=colour))
        ax.text(i + 0.5, 9.1, f"examples {start}-{stop - 1}", ha="center", va="center", fontsize=small)
        ax.annotate("", (i + 0.5, 7.1), (i + 0.5, 8.6), arrowprops=dict(arrowstyle="-|>", lw=1.5))
        ax.add_patch(matplotlib.patches.FancyBboxPatch(
            (i + 0.1, 4.9), 0.8, 2.2, boxstyle="round,pad=0.03", fc=colour, alpha=0.2, ec=colour))
        ax.text(i + 0.5, 6.0, f"replica {i}\non {device}\n\nsame model,\nsame weights",
                ha="center", va="center", fontsize=small)
        ax.annotate(f"gradients {i}", (i + 0.5, 3.2), (i + 0.5, 4.85), ha="center", va="top",
                    fontsize=small - 1, arrowprops=dict(arrowstyle="-|>", lw=1.5))
    ax.add_patch(matplotlib.patches.FancyBboxPatch(
        (0.1, 2.1), replicas - 0.2, 1.1, boxstyle="round,pad=0.03", fc="#fdebd0", ec="#e67e22"))
    reduce_text = ("all-reduce: every replica receives the sum of all gradients" if replicas > 1
                   else "one replica: nothing to all-reduce")
    ax.text(replicas / 2, 2.65, reduce_text, ha="center", va="center", fontsize=14)
    ax.annotate("", (replicas / 2, 1.2), (replicas / 2, 2.05), arrowprops=dict(arrowstyle="-|>", lw=1.5))
    update_text = ("one update, applied to every copy of the variables:\nthe replicas stay identical"
                   if replicas > 1 else "one update of the variables")
    ax.text(replicas / 2, 0.7, update_text, ha="center", va="center", fontsize=14)
    ax.set_title(f"Data parallelism: {replicas} replica(s) x {plan.per_replica_batch} examples "
                 f"= global batch {plan.global_batch}")
    _footnote(fig, [strategies.describe(strategy)])
    return fig
