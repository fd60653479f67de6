"""ipywidgets controls that keep the numbers they are given (for ``tfdist_edu.explorer``).

A ``FloatLogSlider`` moves its value onto its own grid when it is drawn (25.6 became 25.1189,
10.4 became 10.0), so a drawn panel disagreed with the line printed from the same values. A
``log_slider`` is a ``SelectionSlider`` over round values (1, 1.5, 2, 3, 4, 5, 6, 8 per decade)
with the starting value among them: its value travels as an index, never as a rounded float,
and its readout is a label with the unit ("10.4 GB/s").
"""

import functools
import math
import numbers

STEPS_PER_DECADE = (1, 1.5, 2, 3, 4, 5, 6, 8)
# Descriptions as wide as their words, and toggle buttons as wide as their labels.
LABEL_STYLE = {"description_width": "initial"}
BUTTON_STYLE = {"description_width": "initial", "button_width": "auto"}


def positive(name, value):
    """``value`` as a float if it is a finite number > 0; ValueError naming ``name`` otherwise."""
    if (not isinstance(value, numbers.Real) or isinstance(value, bool) or not math.isfinite(value)
            or value <= 0):
        raise ValueError(f"{name} must be a number > 0, got {value!r}")
    return float(value)


def log_choices(value, low, high, unit=""):
    """``(label, value)`` pairs: the round values from ``low`` to ``high``, and ``value`` itself.

    Each label is ``f"{v:g}{unit}"``; ValueError for a value that is not a number > 0.
    """
    value = positive("value", value)
    decades = range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1)
    grid = {round(step * 10.0**exponent, 12) for exponent in decades for step in STEPS_PER_DECADE}
    return [(f"{v:g}{unit}", v) for v in sorted({v for v in grid if low <= v <= high} | {value})]


def log_slider(w, value, low, high, unit, description):
    """A slider over ``log_choices(value, low, high, unit)`` that starts at ``value`` exactly."""
    slider = w.SelectionSlider(options=log_choices(value, low, high, unit), value=float(value),
                               description=description, style=LABEL_STYLE)
    slider.choices_for = functools.partial(log_choices, low=low, high=high, unit=unit)
    return slider


def set_control(control, value):
    """Move ``control`` to ``value`` exactly, never to a nearby value it can show.

    A ``log_slider`` first gains ``value`` among its choices; a bounded slider or box widens
    its bounds to reach it (ipywidgets would clip the value silently).
    """
    choices_for = getattr(control, "choices_for", None)
    if choices_for is not None and value not in [v for _, v in control.options]:
        control.options = choices_for(value)  # moves the slider to the first choice, then below
    if getattr(control, "max", None) is not None and value > control.max:
        control.max = value
    if getattr(control, "min", None) is not None and value < control.min:
        control.min = value
    control.value = value
