"""Figures of lesson 5 (data parallelism by hand) and its what-if panel.

Each ``plot_*`` draws data the lesson's code produced (bytes counted by the by-hand
all-reduces, timings, a profiled step, a fitted ``cost_model.StepModel``) and carries the
hardware and data it came from in a footnote, in the style of ``tfdist_edu.plots``.
"""

import matplotlib.pyplot as plt
import numpy as np

from tfdist_edu.plots.alt import set_alt
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
    """Measured step time (bars) and the predictions (ticks), grouped by global batch.

    ``rows``: dicts with n, batch, predicted_ms, measured_ms, and optionally lower_ms (the
    overlapped lower bound, drawn as a grey tick). Each bar is labelled with the prediction's
    error. The y axis is logarithmic, as the batches span orders of magnitude, so every value
    must be above zero: a log axis would silently drop the others.
    """
    _check_positive(rows)
    batches = sorted({r["batch"] for r in rows})
    counts = sorted({r["n"] for r in rows})
    width = 0.8 / len(counts)
    fig, ax = plt.subplots(figsize=(9, 5.5))
    for r in rows:
        i = counts.index(r["n"])
        x = batches.index(r["batch"]) + (i - (len(counts) - 1) / 2) * width
        ax.bar(x, r["measured_ms"], width * 0.9, color=_nth_color(r["n"]),
               label=f"{r['n']} replica{'s' if r['n'] > 1 else ''}")
        tick = [x - width * 0.45, x + width * 0.45]
        ax.plot(tick, [r["predicted_ms"]] * 2, color="black", lw=2.5)
        if "lower_ms" in r:
            ax.plot(tick, [r["lower_ms"]] * 2, color="0.5", lw=2.5, ls=(0, (1, 1)))
        error = 100 * (r["predicted_ms"] - r["measured_ms"]) / r["measured_ms"]
        ax.annotate(f"{error:+.0f}%", (x, max(r["measured_ms"], r["predicted_ms"])), xytext=(0, 4),
                    textcoords="offset points", ha="center", fontsize=10)
    ax.plot([], [], color="black", lw=2.5, label="predicted")
    if any("lower_ms" in r for r in rows):
        ax.plot([], [], color="0.5", lw=2.5, ls=(0, (1, 1)), label="lower bound")
    handles, names = ax.get_legend_handles_labels()
    unique = dict(zip(names, handles))  # one entry per replica count, then the predictions' ticks
    for key in ("predicted", "lower bound"):
        if key in unique:
            unique[key] = unique.pop(key)
    ax.legend(unique.values(), unique.keys(), loc="upper left")
    ax.set_yscale("log")
    ax.set_xticks(range(len(batches)), [f"global batch {b}" for b in batches])
    ax.set(ylabel="step time (ms)", title="The cost model against measurement")
    _footnote(fig, [label])
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    errors = np.abs([(r["predicted_ms"] - r["measured_ms"]) / r["measured_ms"] for r in rows])
    return set_alt(fig, (
        f"The cost model against measurement: measured step time of {len(rows)} steps "
        f"({', '.join(str(n) for n in counts)} replicas at global batches "
        f"{', '.join(str(b) for b in batches)}) as bars, {_range_ms(rows, 'measured_ms')}, with "
        f"the predicted time as a tick on each, {_range_ms(rows, 'predicted_ms')}. Median error "
        f"{100 * np.median(errors):.0f}%, largest {100 * errors.max():.0f}%. {label}"))


def _check_positive(rows):
    if not rows:
        raise ValueError("plot_prediction needs at least one row")
    for r in rows:
        for key in ("measured_ms", "predicted_ms", "lower_ms"):
            if key in r and not r[key] > 0:
                raise ValueError(f"plot_prediction draws on a log axis, which cannot show "
                                 f"{key}={r[key]!r} (N={r['n']}, batch {r['batch']}): times must be > 0")


def _range_ms(rows, key):
    values = [r[key] for r in rows]
    return f"{min(values):.3g} to {max(values):.3g} ms"


@_figure_function
def plot_timeline(events, label):
    """One traced step: a row per replica, a bar per op, coloured by phase (``trace.Event``s)."""
    replicas = sorted({e.replica for e in events})
    fig, ax = plt.subplots(figsize=(9, 1.3 * len(replicas) + 2.5))
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
    return set_alt(fig, timeline_summary(events) + f" {label}")


def timeline_summary(events):
    """Per replica, each phase's busy time; then how many all-reduce ops start before the last
    backward op ends (the sums that overlap the backward pass)."""
    parts = []
    for replica in sorted({e.replica for e in events}):
        busy = {p: sum(e.duration_ms for e in events if e.replica == replica and e.phase == p)
                for p in PHASE_COLOURS}
        parts.append(f"replica {replica}: " + ", ".join(f"{p} {ms:.1f} ms" for p, ms in busy.items()))
    end = max((e.start_ms + e.duration_ms for e in events), default=0.0)
    backward_end = max((e.start_ms + e.duration_ms for e in events if e.phase == "backward"),
                       default=0.0)
    sums = [e for e in events if e.phase == "all-reduce"]
    early = sum(e.start_ms < backward_end for e in sums)
    return (f"One MirroredStrategy step, traced: {len(events)} ops on {len(parts)} replica rows, "
            f"{end:.1f} ms in all; busy time per phase, " + "; ".join(parts) + f". {len(sums)} "
            f"all-reduce ops, {early} of them start before the last backward op ends at "
            f"{backward_end:.1f} ms.")


@_figure_function
def plot_what_if(models, batches, device_counts=(2, 4, 8)):
    """Predicted scaling efficiency against per-device batch; ``models``: ``{title: (StepModel, label)}``."""
    # One panel under another: side by side, three panels would be three columns wide.
    fig, axes = plt.subplots(len(models), 1, figsize=(9, 4.2 * len(models) + 0.6), squeeze=False)
    for ax, (title, (model, _)) in zip(axes[:, 0], models.items()):
        for i, n in enumerate(device_counts):
            ax.plot(batches, [model.efficiency(n, b) for b in batches], "-o", color=_nth_color(i),
                    label=f"{n} GPUs")
        ax.axhline(1, color="0.5", ls="--")
        ax.set(xscale="log", xlabel="per-device batch", ylabel="scaling efficiency (speed-up / N)",
               title=title, ylim=(0, 1.05))
        ax.set_xticks(batches, [str(b) for b in batches])
        ax.legend()
    _footnote(fig, [label for _, label in models.values()])
    fig.tight_layout(rect=(0, 0.02, 1, 1))
    return fig
