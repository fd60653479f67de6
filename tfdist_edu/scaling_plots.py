"""Figures of lesson 5 (data parallelism by hand) and its what-if panel.

Each ``plot_*`` draws data the lesson's code produced (bytes counted by the by-hand
all-reduces, timings, a profiled step, a fitted ``cost_model.StepModel``) and carries the
hardware and data it came from in a footnote, in the style of ``tfdist_edu.plots``.
"""

import matplotlib.pyplot as plt
import numpy as np

from tfdist_edu.plots.style import _figure_function, _footnote, _nth_color
from tfdist_edu.speedup import speedup_explorer, what_if  # noqa: F401 (lesson 5's what-if panel)

PHASE_COLOURS = {"forward": "#4c72b0", "backward": "#55a868", "all-reduce": "#c44e52",
                 "update": "#8172b2"}


@_figure_function
def plot_traffic(traffic, size_bytes, label):
    """Bytes sent + received per device, as a multiple of the gradient size, against N.

    ``traffic``: ``{algorithm: {n: [bytes moved by device 0, device 1, ...]}}``.
    """
    fig, ax = plt.subplots(figsize=(9, 5.5))
    for i, (algorithm, per_n) in enumerate(traffic.items()):
        ns = sorted(per_n)
        for stat, style in ((max, "-o"), (min, ":s")):
            values = [stat(per_n[n]) / size_bytes for n in ns]
            who = "busiest device" if stat is max else "least busy device"
            ax.plot(ns, values, style, color=_nth_color(i), label=f"{algorithm}: {who}")
    ax.set(xlabel="devices N", ylabel="bytes sent + received / gradient size",
           title="Traffic per device in one all-reduce")
    ax.set_xticks(sorted({n for per_n in traffic.values() for n in per_n}))
    ax.legend()
    _footnote(fig, [f"Counted by the lesson's by-hand all-reduces; {label}"])
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return fig


@_figure_function
def plot_prediction(rows, label):
    """Measured step time (bars) and the prediction (black ticks), grouped by global batch.

    ``rows``: dicts with n, batch, predicted_ms, measured_ms. Each bar is labelled with the
    prediction's error; the y axis is logarithmic, as the batches span orders of magnitude.
    """
    batches = sorted({r["batch"] for r in rows})
    counts = sorted({r["n"] for r in rows})
    width = 0.8 / len(counts)
    fig, ax = plt.subplots(figsize=(9, 5.5))
    for r in rows:
        i = counts.index(r["n"])
        x = batches.index(r["batch"]) + (i - (len(counts) - 1) / 2) * width
        ax.bar(x, r["measured_ms"], width * 0.9, color=_nth_color(r["n"]),
               label=f"{r['n']} replica{'s' if r['n'] > 1 else ''}")
        ax.plot([x - width * 0.45, x + width * 0.45], [r["predicted_ms"]] * 2, color="black", lw=2.5)
        error = 100 * (r["predicted_ms"] - r["measured_ms"]) / r["measured_ms"]
        ax.annotate(f"{error:+.0f}%", (x, max(r["measured_ms"], r["predicted_ms"])), xytext=(0, 4),
                    textcoords="offset points", ha="center", fontsize=10)
    ax.plot([], [], color="black", lw=2.5, label="predicted")
    handles, names = ax.get_legend_handles_labels()
    unique = dict(zip(names, handles))  # one entry per replica count, then the prediction's tick
    unique["predicted"] = unique.pop("predicted")
    ax.legend(unique.values(), unique.keys(), loc="upper left")
    ax.set_yscale("log")
    ax.set_xticks(range(len(batches)), [f"global batch {b}" for b in batches])
    ax.set(ylabel="step time (ms)", title="The cost model against measurement")
    _footnote(fig, [label])
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return fig


@_figure_function
def plot_timeline(events, label):
    """One traced step: a row per replica, a bar per op, coloured by phase (``trace.Event``s)."""
    replicas = sorted({e.replica for e in events})
    fig, ax = plt.subplots(figsize=(12, 1.3 * len(replicas) + 2))
    for e in events:
        ax.barh(e.replica, max(e.duration_ms, 0.01), left=e.start_ms, height=0.6,
                color=PHASE_COLOURS[e.phase], edgecolor="none")
    for phase, colour in PHASE_COLOURS.items():
        ax.barh(np.nan, 0, color=colour, label=phase)  # one legend entry per phase
    ax.set_yticks(replicas, [f"replica {r}" for r in replicas])
    ax.invert_yaxis()
    ax.set(xlabel="time since the step started (ms)", title="One MirroredStrategy step, traced")
    ax.legend(ncol=4, loc="upper center", bbox_to_anchor=(0.5, -0.25))
    _footnote(fig, [label])
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return fig


@_figure_function
def plot_what_if(models, batches, device_counts=(2, 4, 8)):
    """Predicted scaling efficiency against per-device batch; ``models``: ``{title: (StepModel, label)}``."""
    fig, axes = plt.subplots(1, len(models), figsize=(7 * len(models), 5.5), squeeze=False)
    for ax, (title, (model, _)) in zip(axes[0], models.items()):
        for i, n in enumerate(device_counts):
            ax.plot(batches, [model.efficiency(n, b) for b in batches], "-o", color=_nth_color(i),
                    label=f"{n} GPUs")
        ax.axhline(1, color="0.5", ls="--")
        ax.set(xscale="log", xlabel="per-device batch", ylabel="scaling efficiency (speed-up / N)",
               title=title, ylim=(0, 1.05))
        ax.set_xticks(batches, [str(b) for b in batches])
        ax.legend()
    _footnote(fig, [label for _, label in models.values()])
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return fig
