"""Diagnoses for failed checks: the factor the grader measured, and the mistake it points to.

A question file gives a case ``diagnose=``, a function ``(inputs, out)`` that runs in the
grader's process when the case fails. It compares the answer with the reference and with what
each mistake the course teaches would give (its *suspects*), and says, for example:

    your loss is 2.00x the one-device loss: each replica averaged over its own slice; divide by the global batch

The factor is always reported; a mistake is named only when the answer matches it. The
feedback shows it under the failed case (hidden cases included: a factor does not give the
expected answer away) and ``scores.csv`` carries it in its ``diagnosis`` column.
"""

import math

RTOL = 1e-3  # how close an answer must be to a suspect's value to name that mistake


def factor(got, expected):
    """``got / expected`` as text, e.g. ``"2.00x"``; ``"n/a"`` when it is not a finite ratio."""
    try:
        ratio = float(got) / float(expected)
    except (TypeError, ValueError, ZeroDivisionError):
        return "n/a"
    return f"{ratio:.2f}x" if math.isfinite(ratio) else "n/a"


def matches(got, value, rtol=RTOL):
    """True when ``got`` is within ``rtol`` (relative) of ``value``."""
    return abs(float(got) - float(value)) <= rtol * max(abs(float(value)), 1e-12)


def explain(what, got, expected, reference, suspects=(), rtol=RTOL):
    """``"{what} is {factor} {reference}"``, then ``": {mistake}"`` for the first suspect
    ``(value, mistake)`` whose value ``got`` matches; None when ``got`` matches ``expected``."""
    if matches(got, expected, rtol):
        return None
    said = f"{what} is {factor(got, expected)} {reference}"
    for value, mistake in suspects:
        if matches(got, value, rtol):
            return f"{said}: {mistake}"
    if float(got) == 0 and float(expected) != 0:  # nothing computed (an answer not written yet): no factor to read
        return f"{what} is 0: the code that should compute it did not run, or never updated it"
    return said


def every(pairs, rule, rtol=RTOL):
    """True when ``rule(*args)`` matches the answer for every ``(args, got)`` in ``pairs``."""
    pairs = list(pairs)
    return bool(pairs) and all(matches(got, rule(*args), rtol) for args, got in pairs)


def median_factor(pairs, rule):
    """The median of ``got / rule(*args)`` over ``(args, got)`` pairs, as text (``"0.62x"``)."""
    ratios = sorted(float(got) / rule(*args) for args, got in pairs if rule(*args))
    return f"{ratios[len(ratios) // 2]:.2f}x" if ratios else "n/a"
