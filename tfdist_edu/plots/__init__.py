"""The course's figures: one ``plot_*`` function per figure, each returning a matplotlib Figure.

Every figure draws data that code produced: a real strategy, a ``loss_scaling`` record, the
``timing.RunTiming`` records of real runs, a parameter-server run's record. Nothing here
computes what it shows. Fonts are sized for a projector (the slides reuse the figures), and a
run keeps its colour (``color_for``) in every figure of a session.

The figures are detached from pyplot, so a notebook shows each once, as the cell's value;
``fig.savefig(path)`` writes one to a file.
"""

import dataclasses
import functools
import re

import matplotlib
import matplotlib.lines
import matplotlib.patches
import matplotlib.pyplot as plt
import matplotlib.ticker
import numpy as np

from tfdist_edu import strategies, timing
from tfdist_edu.batching import BatchPlan

_STYLE = {
    "font.size": 13,
    "axes.titlesize": 15,
    "axes.titleweight": "bold",
    "axes.labelsize": 14,
    "xtick.labelsize": 12,
    "ytick.labelsize": 12,
    "legend.fontsize": 12,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "figure.dpi": 100,
}
RIGHT, WRONG, REFERENCE = "#2e8b57", "#c0392b", "#7f8c8d"
_PALETTE = matplotlib.colormaps["tab10"].colors + matplotlib.colormaps["Dark2"].colors
_run_colors = {}


def color_for(name):
    """The colour of run ``name``: fixed at its first use, the same in every later figure."""
    if name not in _run_colors:
        _run_colors[name] = _PALETTE[len(_run_colors) % len(_PALETTE)]
    return _run_colors[name]


def _nth_color(i):
    """Colours for things numbered within one figure (replicas, ps tasks, workers)."""
    return _PALETTE[i % len(_PALETTE)]


def _figure_function(draw):
    """Draw under the projector style; hand back the figure detached from pyplot."""

    @functools.wraps(draw)
    def wrapper(*args, **kwargs):
        with plt.rc_context(_STYLE):
            fig = draw(*args, **kwargs)
        plt.close(fig)  # otherwise a notebook shows it twice: once by pyplot, once as the value
        return fig

    return wrapper


def _footnote(fig, lines):
    fig.text(0.01, 0.005, "\n".join(lines), fontsize=10, color="0.35", ha="left", va="bottom")


def _label_bars(ax, bars, fmt):
    for bar in bars:
        ax.annotate(fmt.format(bar.get_height() + bar.get_y()),
                    (bar.get_x() + bar.get_width() / 2, bar.get_height() + bar.get_y()),
                    xytext=(0, 3), textcoords="offset points", ha="center", va="bottom")


def _label_points(ax, points):
    """Write each (x, y, text) right of its point, spreading labels that share an x."""
    by_x = {}
    for x, y, text in points:
        by_x.setdefault(x, []).append((y, text))
    for x, group in by_x.items():
        group.sort(reverse=True)
        for k, (y, text) in enumerate(group):
            ax.annotate(text, (x, y), xytext=(9, 7.5 * (len(group) - 1) - 15 * k - 4),
                        textcoords="offset points", fontsize=11)


# ---------------------------------------------------------------------------------------------
# 1. Data parallelism


def _device_label(device):
    """"/job:localhost/replica:0/task:0/device:CPU:1" -> "CPU:1"; other jobs keep job and task."""
    match = re.search(r"/job:(\w+)(?:/replica:\d+)?/task:(\d+)/device:(.+)$", device)
    if not match:
        return device
    job, task, name = match.groups()
    return name if job == "localhost" else f"{job} {task}\n{name}"


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


# ---------------------------------------------------------------------------------------------
# 2.-4. Loss scaling


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
    fig, (loss_ax, grad_ax) = plt.subplots(1, 2, figsize=(15, 6.2))
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


@_figure_function
def plot_loss_scale(trace):
    """Draw a ``dynamic_loss_scale.LossScaleTrace``: the dynamic loss scale per step (log scale), the
    steps whose gradients overflowed (injected ones and real fp16 ones), and the loss.
    """
    steps = np.arange(len(trace.scale))
    fig, (scale_ax, loss_ax) = plt.subplots(2, 1, figsize=(12, 7.5), sharex=True,
                                            gridspec_kw={"height_ratios": [2, 1]})
    scale_ax.plot(steps, trace.scale, drawstyle="steps-post", color="#2c3e50", lw=2.5,
                  marker="o", ms=4,
                  label=f"loss scale after the step (starts at 2^{np.log2(trace.initial_scale):g})")
    scale_ax.set_yscale("log", base=2)
    loss_ax.plot(steps, trace.loss, color="#2980b9", lw=2, marker=".")
    injected = list(trace.overflow_steps)
    natural = [s for s, skipped in enumerate(trace.skipped) if skipped and s not in injected]
    for found, colour, label in ((injected, WRONG, "inf gradients injected: step skipped, scale / 2"),
                                 (natural, "#e67e22", "real fp16 overflow: step skipped, scale / 2")):
        if found:
            scale_ax.scatter(found, [trace.scale[s] for s in found], marker="X", s=160, color=colour,
                             zorder=3, label=label)
            for s in found:
                for ax in (scale_ax, loss_ax):
                    ax.axvline(s, color=colour, alpha=0.25, lw=6)
    scale_ax.set_ylabel("loss scale")
    scale_ax.set_title(f"Dynamic loss scaling with mixed_float16: the scale doubles after "
                       f"{trace.growth_steps} finite steps in a row,\nhalves when the gradients "
                       "overflow (and that step is skipped: the loss does not move)")
    scale_ax.legend(loc="lower right")
    loss_ax.set_ylabel("loss")
    loss_ax.set_xlabel("training step")
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------------------------------------
# 5.-6. Timing and training curves


def _check_runs(runs):
    runs = list(runs)
    if not runs:
        raise ValueError("no runs to plot: pass a list of timing.RunTiming records")
    return runs


def _measured_on(fig, runs):
    _footnote(fig, timing.compare(runs).labels())


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
    ax.set_xticks(x, [f"{r.name}\n{r.replicas} replica(s)\nglobal batch {r.global_batch}"
                      for r in runs])
    ax.set_ylabel("seconds per epoch")
    ax.set_title("Epoch time per run: first epoch vs steady state")
    ax.legend([matplotlib.patches.Patch(facecolor="0.45", **first_style),
               matplotlib.patches.Patch(facecolor="0.45")],
              ["first epoch (includes tracing)", "steady-state epoch (median of the others)"],
              loc="upper left")
    ax.margins(y=0.2)
    _measured_on(fig, runs)
    fig.subplots_adjust(bottom=0.25)
    return fig


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
    ax.set_ylim(bottom=0)
    ax.set_title(f"Training throughput vs {_AGAINST[against]}")
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


@_figure_function
def plot_training_curves(runs, metrics=("loss", "accuracy")):
    """Per-epoch ``metrics`` of several runs, one panel each: training solid, validation dashed.

    ``runs`` is a list of ``timing.RunTiming`` or a dict of run name -> history dict (as
    returned by ``Model.fit(...).history`` or ``training.CustomLoop.fit``).
    """
    histories = runs if isinstance(runs, dict) else {r.name: r.history for r in _check_runs(runs)}
    if not histories:
        raise ValueError("no runs to plot")
    fig, axes = plt.subplots(1, len(metrics), figsize=(7 * len(metrics), 5.5), squeeze=False)
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


# ---------------------------------------------------------------------------------------------
# 7. Parameter servers


_PS_KEYS = ("placement", "steps_per_worker", "num_workers", "num_ps")


@_figure_function
def plot_ps_placement(record):
    """Draw a parameter-server run (a ``parameter_server.PSRun`` or its ``asdict`` record):
    which shard of which variable lives on which ps task, and how many steps each worker ran.
    """
    if dataclasses.is_dataclass(record):
        record = dataclasses.asdict(record)
    missing = [k for k in _PS_KEYS if k not in record]
    if missing:
        raise ValueError(f"not a parameter-server record: missing {', '.join(missing)}")
    variables = list(dict.fromkeys(p["variable"] for p in record["placement"]))
    devices = sorted({p["device"] for p in record["placement"]})
    fig, (grid_ax, steps_ax) = plt.subplots(
        1, 2, figsize=(15, max(5.5, 0.9 * len(variables) + 2)), gridspec_kw={"width_ratios": [3, 2]})
    grid_ax.set(xlim=(-0.5, len(devices) - 0.5), ylim=(len(variables) - 0.5, -0.5))
    grid_ax.grid(False)
    for p in record["placement"]:
        col, row = devices.index(p["device"]), variables.index(p["variable"])
        colour = _nth_color(col)
        grid_ax.add_patch(matplotlib.patches.FancyBboxPatch(
            (col - 0.42, row - 0.38), 0.84, 0.76, boxstyle="round,pad=0.02", fc=colour, alpha=0.3,
            ec=colour))
        shape = "x".join(str(d) for d in p["shape"])
        grid_ax.text(col, row, f"shard {p['shard']}\n{shape}", ha="center", va="center", fontsize=11)
    grid_ax.set_xticks(range(len(devices)), [_device_label(d).replace("\n", " / ") for d in devices])
    grid_ax.set_yticks(range(len(variables)), variables)
    grid_ax.tick_params(length=0)
    grid_ax.set_xlabel("parameter-server task / device")
    grid_ax.set_title("Where each variable shard lives")
    workers = list(record["steps_per_worker"])
    counts = [record["steps_per_worker"][w] for w in workers]
    bars = steps_ax.bar(workers, counts, color="#5d6d7e")
    _label_bars(steps_ax, bars, "{:.0f}")
    steps_ax.set_ylabel("steps run")
    steps_ax.set_title("Scheduled steps each worker ran")
    steps_ax.margins(y=0.15)
    seconds = record.get("seconds")
    fig.suptitle(f"Parameter-server training: {record['num_workers']} workers, "
                 f"{record['num_ps']} parameter servers"
                 + (f", {seconds:.1f} s" if seconds is not None else ""), fontsize=16,
                 fontweight="bold")
    fig.tight_layout()
    return fig
