"""Rounds in which the whole machine ran slower: the arms together, not one of them.

On a quiet 2-core virtual machine the tour still met stretches of 2-15 s in which the arms'
blocks took 10-30% longer and the tour's own process used about as much more CPU time for the
same steps, while other processes used about 0.01 of a core. The steadiness probe
(``steadiness``) shows where they come from: on the same machine a memory-bound computation
slowed by 28-36% for stretches of a few seconds while a cache-resident one never slowed over
10%, and the process had no page faults: the memory system, which a virtual machine shares
with its host, slowed, and a thread stalled on memory counts as running. Because the arms
alternate in rounds shorter than such a stretch, it slows the arms of a round together and
cancels in their paired ratios: the tour names those rounds and draws them hollow, and they
count in the verdicts like every other round.
"""

import statistics

SLOWER = 1.10  # a block over 10% above its arm's usual block
SHARE = 0.5  # ... in at least half of the arms of one round: the machine slowed, not an arm
BUSY = 0.25  # other processes over a quarter of a core took part of the processor


def slow_rounds(runs):
    """0-based indices of the steady rounds (the first, with tracing, never counts) in which at
    least half of the arms ran over ``SLOWER`` x their own usual block: the lower quartile of
    their steady blocks, which stays put even when the machine was slow for most of the run."""
    runs = [r for r in runs if len(r.block_seconds) > 2]
    if not runs:
        return []
    usual = [statistics.quantiles(r.block_seconds[1:], n=4, method="inclusive")[0] for r in runs]
    rounds = min(len(r.block_seconds) for r in runs)
    return [i for i in range(1, rounds)
            if sum(r.block_seconds[i] > SLOWER * u for r, u in zip(runs, usual)) >= SHARE * len(runs)]


def _rise(values, rounds):
    """Mean of ``values`` in ``rounds`` over their median in the other steady rounds."""
    inside = [values[i] for i in rounds if i < len(values)]
    outside = [v for i, v in enumerate(values) if i > 0 and i not in rounds]
    return statistics.mean(inside) / statistics.median(outside) if inside and outside else 1.0


def sentence(runs, rounds, other_load):
    """What happened in the slow ``rounds``, from the numbers."""
    names = ", ".join(str(i + 1) for i in rounds)
    wall = statistics.median(_rise(r.block_seconds, rounds) for r in runs) - 1
    text = f"In round(s) {names} the arms ran slower together: a median {wall:.0%} more time per block"
    timed = [r for r in runs if len(r.block_cpu_seconds) == len(r.block_seconds)]
    cpu = statistics.median(_rise(r.block_cpu_seconds, rounds) for r in timed) - 1 if timed else None
    if cpu is not None:
        text += f", with {cpu:.0%} more CPU time in the tour's own process"
    seen = [r for r in runs if len(r.block_other_cores) == len(r.block_seconds)]
    during = statistics.mean(r.block_other_cores[i] for r in seen for i in rounds) if seen else None
    if during is None:
        text += f", while other processes used {other_load:.2f} of a core over the run. "
    else:
        text += (f", while other processes used {during:.2f} of a core in those rounds "
                 f"({other_load:.2f} over the run). ")
    if other_load > BUSY or (during is not None and during > BUSY):
        text += "Other processes took part of the processor. "
    elif cpu is not None and cpu >= wall / 2:
        text += ("The same steps cost more CPU time: the process worked longer, not waited, as a "
                 "thread stalled on a slow memory system does. ")
    elif cpu is not None:
        text += "The process waited for something outside its own work. "
    return text + ("Those rounds are drawn hollow in the block-time figure; they count in the "
                   "verdicts, as a slowdown that hits both blocks of a pair cancels in its ratio. ")
