"""5. Timing: epoch times, throughput and scaling efficiency of ``timing.RunTiming`` records."""

import collections
import textwrap

import matplotlib.patches
import matplotlib.pyplot as plt
import matplotlib.ticker
import numpy as np

from tfdist_edu.plots.alt import set_alt
from tfdist_edu.plots.style import (_check_runs, _figure_function, _label_bars, _label_points,
                                    _measured_on, color_for, timing_labels)


@_figure_function
def plot_epoch_times(runs):
    """Bars of each run's first epoch (which includes tracing) beside its steady-state epoch."""
    runs = _check_runs(runs)
    fig, ax = plt.subplots(figsize=(max(9, 2.6 * len(runs)), 6))
    x = np.arange(len(runs))
    colours = [color_for(r.name) for r in runs]
    first_style = dict(alpha=0.45, hatch="//", edgecolor="white")
    first = ax.bar(x - 0.2, [r.first_epoch_s for r in runs], 0.4, color=colours, **first_style)
    steady = ax.bar(x + 0.2, [r.steady_epoch_s for r in runs], 0.4, color=colours)
    _label_bars(ax, first, "{:.1f} s")
    _label_bars(ax, steady, "{:.1f} s")
    # Long run names are wrapped, so neighbouring labels never print over each other.
    ax.set_xticks(x, [f"{textwrap.fill(r.name, 18)}\n{r.replicas} replica(s)\nglobal batch "
                      f"{r.global_batch}" for r in runs])
    ax.set_ylabel("seconds per epoch")
    ax.set_title("Epoch time per run: first epoch vs steady state")
    ax.legend([matplotlib.patches.Patch(facecolor="0.45", **first_style),
               matplotlib.patches.Patch(facecolor="0.45")],
              ["first epoch (includes tracing)", "steady-state epoch (median of the others)"],
              loc="upper left")
    ax.margins(y=0.2)
    _measured_on(fig, runs)
    fig.subplots_adjust(bottom=0.25)
    fastest = min(runs, key=lambda r: r.steady_epoch_s)
    return set_alt(fig, "Epoch time per run, first epoch (includes tracing) beside the steady "
                   "state: " + "; ".join(f"{r.name} ({r.replicas} replica(s), global batch "
                                         f"{r.global_batch}) {r.first_epoch_s:.1f} s then "
                                         f"{r.steady_epoch_s:.1f} s" for r in runs)
                   + f". Fastest steady epoch: {fastest.name} at {fastest.steady_epoch_s:.1f} s. "
                   + " ".join(timing_labels(runs)) + ".")


@_figure_function
def plot_block_times(runs, slow_rounds=()):
    """Every steady block of every run as a point over a box of their spread, one column per
    run: what a paired comparison of the runs rests on (the first block, with tracing, left out).

    ``slow_rounds``: 0-based rounds in which the arms slowed together, drawn as hollow points;
    they count in the boxes, as they count in the paired verdicts.
    """
    runs = [r for r in _check_runs(runs) if len(r.block_seconds) > 1]
    if not runs:
        raise ValueError("plot_block_times needs runs with at least 2 blocks (block_seconds)")
    fig, ax = plt.subplots(figsize=(max(8, 2.2 * len(runs)), 5.5))
    kept = [r.block_seconds[1:] for r in runs]
    ax.boxplot(kept, positions=range(len(runs)), widths=0.5, showfliers=False,
               medianprops=dict(color="black", lw=2))
    jitter = np.random.default_rng(0)
    for i, run in enumerate(runs):
        usual = [t for j, t in enumerate(run.block_seconds) if j > 0 and j not in slow_rounds]
        ax.scatter(i + jitter.uniform(-0.15, 0.15, len(usual)), usual, s=36, alpha=0.8,
                   color=color_for(run.name), zorder=3)
        out = [run.block_seconds[j] for j in slow_rounds if 0 < j < len(run.block_seconds)]
        ax.scatter(i + jitter.uniform(-0.15, 0.15, len(out)), out, s=36, facecolors="none",
                   edgecolors=color_for(run.name), zorder=3,
                   label="the arms ran slower together" if out and i == 0 else None)
    if slow_rounds:
        ax.legend(loc="lower right")
    ax.set_xticks(range(len(runs)), [f"{textwrap.fill(r.name, 18)}\n{r.replicas} replica(s)"
                                     for r in runs])
    ax.set_ylabel("seconds per block (typical step x steps)")
    ax.set_ylim(bottom=0)
    ax.set_title("Every steady block of every run")
    _measured_on(fig, runs)
    fig.subplots_adjust(bottom=0.25)
    parts = []
    for run, times in zip(runs, kept):
        med = float(np.median(times))
        q1, q3 = np.percentile(times, [25, 75])
        parts.append(f"{run.name}: {len(times)} blocks, median {med:.2f} s, middle half "
                     f"{q1:.2f}-{q3:.2f} s ({(q3 - q1) / med:.0%} of the median)")
    rounds = (f" Round(s) {', '.join(str(j + 1) for j in slow_rounds)}, in which the arms ran "
              "slower together, are drawn hollow." if slow_rounds else "")
    return set_alt(fig, "Steady block times per run, each block a point over a box of the middle "
                   "half: " + "; ".join(parts) + "." + rounds + " " + " ".join(timing_labels(runs)) + ".")


_AGAINST = {"replicas": "number of replicas", "global_batch": "global batch size"}


@_figure_function
def plot_throughput(runs, against="replicas"):
    """Steady-state examples per second of each run against its replicas or its global batch.

    ``against`` is "replicas" or "global_batch"; each point is labelled with the other one.
    """
    if against not in _AGAINST:
        raise ValueError(f"against must be one of {', '.join(_AGAINST)}, got {against!r}")
    runs = _check_runs(runs)
    fig, ax = plt.subplots(figsize=(10, 6))
    for run in runs:
        ax.scatter(getattr(run, against), run.examples_per_s, s=120, color=color_for(run.name),
                   label=run.name, zorder=2)
    _label_points(ax, [(getattr(r, against), r.examples_per_s,
                        f"batch {r.global_batch}" if against == "replicas" else f"{r.replicas} replica(s)")
                       for r in runs])
    if against == "global_batch":
        ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(matplotlib.ticker.FixedLocator(sorted({getattr(r, against) for r in runs})))
    ax.xaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
    ax.set_xlabel(_AGAINST[against])
    ax.set_ylabel("examples per second (steady state)")
    ax.set_ylim(0, 1.15 * max(r.examples_per_s for r in runs))  # room for the top point's label
    # Labels of runs that share an x are stacked upwards (_label_points): lift the title above them.
    stacked = max(collections.Counter(getattr(r, against) for r in runs).values())
    ax.set_title(f"Training throughput vs {_AGAINST[against]}", pad=6 + 7.5 * stacked)
    ax.legend()
    _measured_on(fig, runs)
    fig.subplots_adjust(bottom=0.2)
    return fig


@_figure_function
def plot_scaling_efficiency(runs, baseline=None):
    """Speed-up of each run over ``baseline`` (a run name; default: the run with fewest replicas)
    against its replicas, beside the ideal line, with each run's scaling efficiency in percent.
    """
    runs = _check_runs(runs)
    by_name = {r.name: r for r in runs}
    if baseline is not None and baseline not in by_name:
        raise ValueError(f"baseline {baseline!r} is not one of the runs: {', '.join(by_name)}")
    base = by_name[baseline] if baseline else min(runs, key=lambda r: r.replicas)
    fig, ax = plt.subplots(figsize=(10, 6))
    top = max(r.replicas for r in runs)
    ideal = np.array([base.replicas, top])
    ax.plot(ideal, ideal / base.replicas, ls="--", color="0.4", lw=2, label="ideal (linear) speed-up")
    points = []
    for run in runs:
        speedup = run.examples_per_s / base.examples_per_s
        efficiency = speedup / (run.replicas / base.replicas)
        ax.scatter(run.replicas, speedup, s=120, color=color_for(run.name), label=run.name, zorder=3)
        points.append((run.replicas, speedup, f"{efficiency:.0%} efficient"))
    _label_points(ax, points)
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    ax.set_xlabel("number of replicas")
    ax.set_ylabel(f"speed-up over {base.name}")
    ax.set_ylim(bottom=0)
    ax.set_title("Scaling efficiency: measured speed-up vs ideal")
    ax.legend()
    _measured_on(fig, runs)
    fig.subplots_adjust(bottom=0.2)
    return fig
