"""Words for every figure: alt text read from the figure's own data, for screen readers.

``describe(fig)`` reads what was drawn (titles, axis labels, bar heights, the lines' end
points, the legend, the "measured on" footnote) and says it in sentences, with the main result:
the highest and lowest bar, where each line ends. A figure function may set a sentence of its
own first with ``set_alt(fig, text)``; ``alt_text(fig)`` returns that or the description.

In a notebook every matplotlib figure displays with its alt text in the output itself
(``tfdist_edu.plots.display``); the course site, the decks and the tour report carry it too.
"""

import matplotlib.colors
import matplotlib.container
import matplotlib.text

MAX_ITEMS = 8  # bars or lines listed by name; more are summarised by their extremes


def set_alt(fig, text):
    """Give ``fig`` an alt text of its own (a sentence stating its data and main result)."""
    fig._tfdist_alt = text
    return fig


def alt_text(fig):
    """The figure's alt text: the one set with ``set_alt``, or ``describe(fig)``."""
    return getattr(fig, "_tfdist_alt", None) or describe(fig)


def describe(fig):
    """Describe a figure from its artists: what each panel plots and its main result."""
    parts = [_text(fig._suptitle)] if getattr(fig, "_suptitle", None) else []
    for ax in fig.axes:
        if ax.has_data():
            parts.append(_panel(ax))
    notes = [_text(t) for t in fig.texts if _text(t) and t is not getattr(fig, "_suptitle", None)]
    return " ".join(p for p in parts + notes if p).strip() or "An empty figure."


def _text(artist):
    return " ".join(artist.get_text().split()) if artist is not None else ""


def _panel(ax):
    title, x, y = _text(ax.title), ax.get_xlabel(), ax.get_ylabel()
    head = f"{title}: " if title else ""
    axes = f"{y or 'values'} against {x}" if x else (y or "values")
    sentences = [f"{head}{axes}."]
    bars = [c for c in ax.containers if isinstance(c, matplotlib.container.BarContainer)]
    if bars:
        sentences.append(_bars(ax, bars))
    names = _legend_by_colour(ax)
    lines = [line for line in ax.get_lines() if len(line.get_xdata()) > 1]
    if lines:
        sentences.append(_lines(lines, names))
    points = [c for c in ax.collections if len(c.get_offsets()) and c.get_label()]
    if points:
        sentences.append(_points(points, names))
    legend = ax.get_legend()
    if legend is not None and not (lines or points):
        labels = [_text(t) for t in legend.get_texts()]
        sentences.append("Legend: " + "; ".join(labels[:MAX_ITEMS]) + ".")
    return " ".join(sentences)


def _bars(ax, containers):
    ticks = [_text(t) for t in ax.get_xticklabels()]
    values = []
    for container in containers:
        for bar in container.patches:
            if getattr(container, "orientation", "vertical") == "horizontal":
                tick, length = _tick_for(bar, ax, None), bar.get_width()
            else:
                tick, length = _tick_for(bar, ax, ticks), bar.get_height() + bar.get_y()
            values.append((tick, container.get_label(), length))
    named = [f"{tick}{'' if label.startswith('_') else f' ({label})'} {height:.3g}"
             for tick, label, height in values]
    high = max(values, key=lambda v: v[2])
    low = min(values, key=lambda v: v[2])
    listed = "; ".join(named[:MAX_ITEMS]) + ("; ..." if len(named) > MAX_ITEMS else "")
    return (f"{len(values)} bars: {listed}. Highest: {high[0]} at {high[2]:.3g}; "
            f"lowest: {low[0]} at {low[2]:.3g}.")


def _tick_for(bar, ax, ticks):
    """The tick label under a bar (``ticks`` None: a horizontal bar, labelled on the y axis)."""
    if ticks is None:
        centre, positions = bar.get_y() + bar.get_height() / 2, list(ax.get_yticks())
        ticks = [_text(t) for t in ax.get_yticklabels()]
    else:
        centre, positions = bar.get_x() + bar.get_width() / 2, list(ax.get_xticks())
    if ticks and positions:
        nearest = min(range(len(positions)), key=lambda i: abs(positions[i] - centre))
        if nearest < len(ticks) and ticks[nearest]:
            return ticks[nearest]
    return f"at {centre:.3g}"


def _legend_by_colour(ax):
    """Legend labels keyed by their handle's colour: names for lines drawn without a label."""
    legend = ax.get_legend() or next((a.get_legend() for a in ax.figure.axes if a.get_legend()), None)
    if legend is None:
        return {}
    names = {}
    for handle, text in zip(legend.legend_handles, legend.get_texts()):
        colour = getattr(handle, "get_color", None) or getattr(handle, "get_facecolor", None)
        if colour is not None:
            names[matplotlib.colors.to_hex(_first(colour()))] = _text(text)
    return names


def _first(colour):
    """One colour from what an artist returns: a colour, or an array of them (collections)."""
    if isinstance(colour, str) or not len(colour) or isinstance(colour[0], (int, float)):
        return colour
    return colour[0]


def _name(artist, names, colour):
    label = artist.get_label()
    if label and not label.startswith("_"):
        return label
    return names.get(matplotlib.colors.to_hex(_first(colour)), "a line")


def _lines(lines, names):
    """Lines said by where they go; flat ones (a reference level) and upright ones (a marked
    step) by where they stand, one sentence per name."""
    said, marks = [], {}
    for line in lines[:MAX_ITEMS * 2]:
        x, y = line.get_xdata(), line.get_ydata()
        name = _name(line, names, line.get_color()) + (" (dashed)" if line.get_linestyle() == "--" else "")
        if _constant(x):
            marks.setdefault(name, []).append(_number(x[0]))
        elif _constant(y):
            said.append(f"{name} stays at {_number(y[0])}")
        else:
            said.append(f"{name} goes from {_number(y[0])} to {_number(y[-1])}")
    said = said[:MAX_ITEMS] + [f"{name} marks x = {', '.join(xs)}" for name, xs in marks.items()]
    more = f" ({len(lines) - MAX_ITEMS * 2} more lines)" if len(lines) > MAX_ITEMS * 2 else ""
    return f"{len(lines)} line(s): " + "; ".join(said) + more + "."


def _constant(values):
    try:
        return len({float(v) for v in values}) == 1
    except (TypeError, ValueError):  # categories, dates: not a level
        return False


def _number(value):
    try:
        return f"{float(value):.3g}"
    except (TypeError, ValueError):
        return str(value)


def _points(collections, names):
    said = []
    for collection in collections[:MAX_ITEMS]:
        name = _name(collection, names, collection.get_facecolor())
        xy = ", ".join(f"({x:.3g}, {y:.3g})" for x, y in collection.get_offsets()[:MAX_ITEMS])
        said.append(f"{name} at {xy}")
    return "Points: " + "; ".join(said) + "."

