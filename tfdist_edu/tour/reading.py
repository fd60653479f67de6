"""Read the tour's alternated blocks: paired ratios with their spread, and a disturbed run flagged.

Blocks of the same round ran back to back, so the ratio of two arms' block times in one round
is one paired measurement; the first round, which includes tracing, is left out, and so are
rounds in which the arms ran slower together (``slowdowns``). A ratio is read as a difference
only when the middle half of the paired ratios lies on one side of 1.
"""

import os
import statistics

from tfdist_edu.tour import slowdowns

OUTLIER = 1.5  # a steady block over 1.5x its arm's median block: the machine was disturbed
BUSY_LOAD = 0.25  # other processes using over a quarter of the cores during the tour
SPREAD = 0.10  # an arm whose steady blocks' middle half spans over 10% of their median
MOST_ROUNDS = 1 / 2  # more slow rounds left out than this share of the steady ones: too few to read


def steady(run, skip=()):
    """A run's steady block times: all but the first (tracing) and the rounds in ``skip``."""
    return [t for i, t in enumerate(run.block_seconds) if i > 0 and i not in skip]


def spread(run, skip=()):
    """The interquartile range of a run's steady blocks as a fraction of their median."""
    times = steady(run, skip)
    if len(times) < 2:
        return 0.0
    low, median, high = statistics.quantiles(times, n=4, method="inclusive")
    return (high - low) / median


def paired(baseline, other, what, skip=()):
    """``timing.paired`` on the steady rounds (the first, with tracing, and ``skip`` left out)."""
    from tfdist_edu import timing

    return timing.paired(steady(baseline, skip), steady(other, skip), what)


def verdict(comparison):
    """One sentence: faster, slower, or no measurable difference, with the spread."""
    spread = comparison.spread.replace("repeats", "blocks")
    if comparison.verdict == "no measurable difference":
        return f"{comparison.what}: no measurable difference ({spread})."
    return (f"{comparison.what}: mirrored {comparison.verdict}, at {comparison.median:.2f}x the "
            f"default's throughput ({spread}).")


def disturbances(runs, other_load, cores=None, skip=()):
    """Sentences naming what disturbed the measurement; empty when nothing did. ``skip``: the
    rounds in which the arms slowed together, left out of the outliers and spreads."""
    cores = cores or os.cpu_count() or 1
    found = []
    if other_load / cores > BUSY_LOAD:
        found.append(f"other processes used {other_load:.1f} of the {cores} cores while the "
                     "tour trained")
    rounds = max((len(r.block_seconds) - 1 for r in runs), default=0)
    if len(skip) > MOST_ROUNDS * rounds:
        found.append(f"the arms ran slower together in {len(skip)} of {rounds} steady rounds")
    slow = sum(t > OUTLIER * statistics.median(steady(r, skip))
               for r in runs if len(steady(r, skip)) > 1 for t in steady(r, skip))
    if slow:
        found.append(f"{slow} steady block(s) took over {OUTLIER}x their arm's median block")
    wide = [f"{r.name} {spread(r, skip):.0%}" for r in runs if spread(r, skip) > SPREAD]
    if wide:
        found.append(f"the middle half of the steady blocks spanned over {SPREAD:.0%} of their "
                     "median (" + ", ".join(wide) + ")")
    return found


def reading(runs, device_note, other_load):
    """Return the report's paragraph: each comparison with its spread, and any disturbance."""
    by_name = {run.name: run for run in runs}
    mirrored = by_name["mirrored fit"]
    lines = [f"All four runs trained the same model at global batch {mirrored.global_batch} "
             f"with jit_compile={mirrored.jit_compile}; MirroredStrategy used {mirrored.replicas} "
             f"replicas ({device_note}). The arms ran alternately, block by block, on the same "
             "batches; a block's time is its typical (median) step times its steps, so a step "
             "held up by something outside the training moves no block."]
    skip = slowdowns.slow_rounds(runs)
    for method in ("fit", "custom loop"):
        lines.append(verdict(paired(by_name[f"default {method}"], by_name[f"mirrored {method}"],
                                    f"Mirrored vs default with {method}", skip)))
    cores = os.cpu_count() or 1
    if skip:
        lines.append(slowdowns.sentence(runs, skip, other_load, cores, other_load / cores > BUSY_LOAD))
    found = disturbances(runs, other_load, cores, skip)
    if found:
        lines.append("This run was disturbed (" + "; ".join(found) + "), so read its ratios "
                     "with care and run the tour again on a quiet machine; the first blocks' "
                     "extra time cannot be read as tracing alone.")
    else:
        widest = max(runs, key=lambda r: spread(r, skip))
        lines.append(f"Each arm's steady blocks repeated closely: their middle half spans at most "
                     f"{spread(widest, skip):.0%} of the median ({widest.name}).")
        calls = [r for r in runs if len(r.block_call_seconds) > 1]
        if calls:
            first = max(calls, key=lambda r: r.block_call_seconds[0] - statistics.median(r.block_call_seconds))
            lines.append(f"The first block of {first.name} took {first.block_call_seconds[0]:.1f} s "
                         f"from call to return against a median of "
                         f"{statistics.median(first.block_call_seconds):.1f} s: it includes tracing "
                         "the training step into a graph.")
    if "simulated" in device_note:
        busy = [sum(r.block_cpu_seconds[1:]) / sum(r.block_wall_seconds[1:])
                for r in runs if r.replicas == 1 and len(r.block_wall_seconds) > 1]
        kept = f" (a one-replica step kept {min(busy):.1f}-{max(busy):.1f} cores busy)" if busy else ""
        lines.append("The replicas are logical devices on one processor: they share the cores "
                     f"that one replica's step already uses{kept}, so splitting the batch adds "
                     "no compute, while every mirrored step still splits the batch and "
                     "all-reduces the gradients.")
    lines.append("Validation accuracy after the last epoch: " + ", ".join(
        f"{r.final('val_accuracy'):.1%} ({r.name})" for r in runs) + ".")
    return " ".join(lines)
