"""Read the tour's alternated blocks: paired verdicts, slow stretches shown, a busy run flagged.

Blocks of the same round ran back to back, so the ratio of two arms' block times in one round
is one paired measurement; the first round, which includes tracing, is left out. Every other
round counts: a stretch in which the machine ran slower slows the arms of a round together and
cancels in their ratio, so such rounds are named and drawn (``slowdowns``), not left out. Each
verdict is ``timing.paired``'s: the typical ratio with its 95% interval. A run is flagged only
when other processes used over a quarter of a core, or when its pairs were too spread to decide
(an interval wider than the threshold band; a narrower undecided one sits near the threshold).
"""

import statistics

from tfdist_edu import steadiness, verdict as verdicts
from tfdist_edu.tour import slowdowns

BUSY_LOAD = 0.25  # other processes using over a quarter of a core during the tour
BLOCK_SPREAD = 0.10  # steady blocks spread wider than this: the reading says where it came from


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
    return verdicts.paired(steady(baseline, skip), steady(other, skip), what)


def disturbances(comparisons, other_load):
    """Sentences naming what makes this run's verdicts unsafe to read; empty when nothing does."""
    found = []
    if other_load > BUSY_LOAD:
        found.append(f"other processes used {other_load:.2f} of a core while the tour trained")
    for comparison in comparisons:
        if comparison.too_spread:
            found.append(f"the pairs were too spread to decide {comparison.what.lower()}")
    return found


def round_slowness(runs):
    """Each round's blocks against their arms' medians (the geometric mean over the arms):
    1.10 means the arms of that round ran 10% slower than usual."""
    runs = [r for r in runs if len(r.block_seconds) > 1]
    rounds = min((len(r.block_seconds) for r in runs), default=0)
    usual = [statistics.median(steady(r)) for r in runs]
    return [statistics.geometric_mean(r.block_seconds[i] / u for r, u in zip(runs, usual))
            for i in range(rounds)]


def _correlation(xs, ys):
    if len(xs) < 3 or statistics.pstdev(xs) == 0 or statistics.pstdev(ys) == 0:
        return 0.0
    return statistics.correlation(xs, ys)


def _memory_sentence(memory, skip, runs=()):
    """The memory probe after each round: how steady it was, whether it moved with the rounds'
    times, and in the slow rounds against the others."""
    steady_rounds = [m for i, m in enumerate(memory or []) if i > 0]
    if not steady_rounds:
        return ""
    usual = statistics.median(steady_rounds)
    slow = sum(usual / m > steadiness.SLOW for m in steady_rounds)
    text = (f"A one-thread copy of 64 MB after each round ran at a median {usual:.1f} GB/s, "
            f"the slowest {usual / min(steady_rounds):.2f}x slower, "
            f"{slow} of {len(steady_rounds)} steady rounds over {steadiness.SLOW - 1:.0%} slower.")
    if len(round_slowness(runs)[1:len(memory)]) >= 3:
        text += (f" The slower a round, the slower the copy after it: correlation "
                 f"{memory_moved_with_rounds(memory, runs):+.2f} (-1: always together).")
    inside = [memory[i] for i in skip if 0 < i < len(memory)]
    outside = [m for i, m in enumerate(memory) if i > 0 and i not in skip]
    if inside and outside:
        text += (f" After the rounds in which the arms slowed together it ran at "
                 f"{statistics.median(inside):.1f} GB/s, after the others at "
                 f"{statistics.median(outside):.1f} GB/s.")
    return text


MOVED_WITH = -0.4  # a correlation of the memory probe with the rounds' times at or below this


def memory_unsteady(memory):
    """Whether the memory probe between rounds (all but the first) had a round over
    ``steadiness.SLOW`` x its median: the machine's memory system was unsteady in this run."""
    rates = [m for i, m in enumerate(memory or []) if i > 0]
    return bool(rates) and statistics.median(rates) / min(rates) > steadiness.SLOW


def memory_moved_with_rounds(memory, runs):
    """The correlation of the memory probe after each steady round with that round's slowness."""
    pace = round_slowness(runs)[1:len(memory)]
    return _correlation(list(memory[1:len(pace) + 1]), pace)


def _spread_cause(memory, runs):
    unsteady, together = memory_unsteady(memory), memory_moved_with_rounds(memory, runs)
    if unsteady or together <= MOVED_WITH:
        how = ("was unsteady too" if unsteady else f"stayed within {steadiness.SLOW - 1:.0%} of its median") + (
            f" and ran slower after slower rounds (correlation {together:+.2f})"
            if together <= MOVED_WITH else "")
        return (f"That is over {BLOCK_SPREAD:.0%}; the memory probe between rounds {how}: the "
                "machine's memory system moved the blocks in this run, and the pairs cancel what "
                "it did to the arms of one round together.")
    return (f"That is over {BLOCK_SPREAD:.0%} while the memory probe between rounds stayed "
            f"steady and did not move with the rounds (correlation {together:+.2f}): this spread "
            "did not come from the memory system.")


def reading(runs, device_note, other_load, probes=None, memory=None):
    """Return the report's paragraph: each verdict, the slow stretches, and any disturbance.
    ``probes``: the steadiness probes run before the arms; ``memory``: the memory probe's GB/s
    after each round."""
    by_name = {run.name: run for run in runs}
    mirrored = by_name["mirrored fit"]
    lines = [f"All four runs trained the same model at global batch {mirrored.global_batch} "
             f"with jit_compile={mirrored.jit_compile}; MirroredStrategy used {mirrored.replicas} "
             f"replicas ({device_note}). The arms ran alternately, block by block, on the same "
             "batches; a block's time is its typical (median) step times its steps, so a step "
             "held up by something outside the training moves no block. Each pair of blocks "
             "of one round gives one ratio."]
    comparisons = [paired(by_name[f"default {method}"], by_name[f"mirrored {method}"],
                          f"Mirrored vs default with {method}") for method in ("fit", "custom loop")]
    lines += [str(c) for c in comparisons] + [verdicts.HOW_TO_READ]
    skip = slowdowns.slow_rounds(runs)
    if skip:
        lines.append(slowdowns.sentence(runs, skip, other_load))
    if probes:
        lines.append(steadiness.sentence(probes))
    if memory:
        lines.append(_memory_sentence(memory, skip, runs))
    found = disturbances(comparisons, other_load)
    if found:
        lines.append("Read this run with care (" + "; ".join(found) + "): run the tour again "
                     "on a quiet machine, or with more epochs for more pairs.")
    widest = max(runs, key=spread)
    lines.append(f"Each arm's steady blocks, all of them, spread over at most {spread(widest):.0%} "
                 f"of their median (interquartile range; {widest.name}).")
    if spread(widest) > BLOCK_SPREAD and memory:
        lines.append(_spread_cause(memory, runs))
    calls = [r for r in runs if len(r.block_call_seconds) > 1]
    if calls and other_load <= BUSY_LOAD:
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
                     "all-reduces the gradients. That cost comes with every step, whatever its "
                     "batch: try a larger --batch to see it shrink against the step's compute.")
    lines.append("Validation accuracy after the last epoch: " + ", ".join(
        f"{r.final('val_accuracy'):.1%} ({r.name})" for r in runs) + ".")
    return " ".join(lines)
