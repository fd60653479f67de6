"""What every figure shares: the projector style, the colours, and the helpers that label.

``_figure_function`` draws a figure under the style and hands it back detached from pyplot,
no wider than a notebook column (``MAX_WIDTH_PX``); ``_check_runs`` and ``_measured_on`` serve
the figures that draw ``timing.RunTiming`` records. A footnote is wrapped to the figure's width
and says which data in a few words ("Fashion-MNIST: real"): where the files were found is the
lesson's first cell's business, not every figure's.
"""

import functools
import re
import textwrap

import matplotlib
import matplotlib.pyplot as plt

from tfdist_edu import timing

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
# Okabe and Ito's palette ("Color Universal Design", jfly.uni-koeln.de/color/, 2008): told apart
# by readers with red-green or blue-yellow colour blindness, which tab10's green/red are not.
# tests/plots/test_palette.py checks it by simulating protanopia, deuteranopia and tritanopia.
RIGHT, WRONG, REFERENCE = "#0072B2", "#D55E00", "#7f7f7f"  # blue, vermillion, grey
_PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
_run_colors = {}
MAX_WIDTH_PX = 1000  # a notebook column; wider figures are drawn at a lower dpi


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
            # The first pyplot call may set up the notebook's inline backend, which turns
            # interactive mode on; rc_context would undo that on exit and later plt figures of
            # the lesson would never show. Keep what the backend set.
            interactive = matplotlib.is_interactive()
        matplotlib.interactive(interactive)
        plt.close(fig)  # otherwise a notebook shows it twice: once by pyplot, once as the value
        _fit_column(fig)
        return fig

    return wrapper


def _fit_column(fig):
    """Lower the dpi of a figure whose drawn extent (as saved with bbox_inches="tight") is
    wider than ``MAX_WIDTH_PX``: the same layout, fewer pixels, within a notebook column.
    Text is measured again at the new dpi (its extent in inches changes a little with it)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = fig.canvas
    try:
        for _ in range(4):
            renderer = FigureCanvasAgg(fig).get_renderer()
            width_px = (fig.get_tightbbox(renderer).width + 0.2) * fig.dpi  # + savefig's pads
            if width_px <= MAX_WIDTH_PX:
                break
            fig.set_dpi(fig.dpi * MAX_WIDTH_PX / width_px * 0.995)
    finally:
        fig.set_canvas(canvas)


def _footnote(fig, lines):
    """Small grey lines under the figure, wrapped to its width (they never widen it)."""
    chars = max(40, int(fig.get_figwidth() * 72 / (10 * 0.55)))  # 10-point characters per line
    wrapped = [part for line in lines for part in textwrap.wrap(line, chars) or [""]]
    fig.text(0.01, 0.005, "\n".join(wrapped), fontsize=10, color="0.35", ha="left", va="top")


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


def _device_label(device):
    """"/job:localhost/replica:0/task:0/device:CPU:1" -> "CPU:1"; other jobs keep job and task."""
    match = re.search(r"/job:(\w+)(?:/replica:\d+)?/task:(\d+)/device:(.+)$", device)
    if not match:
        return device
    job, task, name = match.groups()
    return name if job == "localhost" else f"{job} {task}\n{name}"


def _check_runs(runs):
    runs = list(runs)
    if not runs:
        raise ValueError("no runs to plot: pass a list of timing.RunTiming records")
    return runs


def timing_labels(runs):
    """The "measured on <hardware> | <data>" lines of some runs, the data in a few words."""
    lines = []
    for line in timing.compare(runs).labels():
        head, bar, data = line.partition(" | ")
        lines.append(head + bar + short_data(data) if bar else line)
    return list(dict.fromkeys(lines))


_DATA = re.compile(r"\s*([\w-]+)\s*[:,]\s*(real|synthetic stand-in)", re.I)


def short_data(label):
    """"Fashion-MNIST: real (IDX files in /usr/share/...), 60000 train / ..." -> "Fashion-MNIST:
    real"; a stand-in keeps its name ("SVHN: SYNTHETIC stand-in"). Other text loses only what
    is in parentheses (paths, reasons)."""
    match = _DATA.match(label)
    if match:
        return f"{match.group(1)}: {match.group(2)}"
    while re.search(r"\([^()]*\)", label):
        label = re.sub(r"\s*\([^()]*\)", "", label)
    return label.strip()


def _measured_on(fig, runs):
    _footnote(fig, timing_labels(runs))
