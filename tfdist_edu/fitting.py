"""Least squares that keeps every coefficient at or above zero (lesson 5's cost model).

A time is a sum of costs, and no cost is negative: a fixed cost, a cost per example, a latency
per message, a time per byte. Plain least squares does not know that. Fitted to timings with
some noise, or to a curve that bends, it can return a negative fixed cost to buy a steeper
slope, and the model then predicts negative times for small batches. ``nnls`` finds the best
fit among coefficients >= 0 (Lawson and Hanson's problem), so every prediction stays >= 0.

The models here have two or three coefficients, so ``nnls`` solves it exactly by trying every
set of coefficients left free (the others held at zero) and keeping the best feasible one:
2**k small solves, no SciPy needed.
"""

import itertools

import numpy as np


def nnls(design, target):
    """``argmin ||design @ c - target||`` over ``c >= 0``; returns ``c`` as a float array.

    ``design``: an (m, k) array with k <= 8 columns; ``target``: m values.
    """
    design, target = np.asarray(design, float), np.asarray(target, float)
    if design.ndim != 2 or target.shape != (design.shape[0],):
        raise ValueError(f"nnls needs an (m, k) design and m targets, got shapes "
                         f"{design.shape} and {target.shape}")
    k = design.shape[1]
    if k > 8:
        raise ValueError(f"nnls tries every subset of coefficients: at most 8, got {k}")
    if not (np.all(np.isfinite(design)) and np.all(np.isfinite(target))):
        raise ValueError("nnls needs finite numbers: the design or the target has a NaN or inf")
    best, best_residual = np.zeros(k), float(np.sum(target ** 2))
    for size in range(1, k + 1):
        for free in itertools.combinations(range(k), size):
            columns = list(free)
            solution = np.linalg.lstsq(design[:, columns], target, rcond=None)[0]
            if np.any(solution < 0):
                continue
            residual = float(np.sum((design[:, columns] @ solution - target) ** 2))
            if residual < best_residual - 1e-15 * max(1.0, best_residual):
                best, best_residual = np.zeros(k), residual
                best[columns] = solution
    return best
