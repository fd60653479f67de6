"""Rounds in which the whole machine ran slower: the arms together, not one of them.

On a quiet virtual machine the tour still met stretches of 2-15 s in which the arms' blocks took
10-30% longer and the tour's own process used about as much more CPU time for the same steps,
while other processes in the machine used about 0.01 of a core (seven quiet tours on 2 cores,
2026-11-26). The extra time was spent working, not waiting; what slowed the work cannot be seen
from inside the machine (a virtual machine's host runs other tenants; TensorFlow's threads also
spin while they wait for each other). Because the arms alternate in rounds shorter than such a
stretch, it slows the arms of the same rounds together; the tour names those rounds and leaves
them out of its ratios and spreads, instead of reading them as a difference between arms.
"""

import statistics

SLOWER = 1.10  # a block over 10% above its arm's usual block
SHARE = 0.5  # ... in at least half of the arms of one round: the machine slowed, not an arm
BUSY = 0.25  # other processes over a quarter of a core in those rounds took part of the processor


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


def sentence(runs, rounds, other_load, cores, busy):
    """What happened in the slow ``rounds`` and what the tour did with them, from the numbers;
    ``busy``: the other processes' load over the whole run counts as a disturbance."""
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
        text += f", while other processes used {other_load:.2f} of the {cores} cores over the run. "
    else:
        text += (f", while other processes used {during:.2f} of the {cores} cores in those rounds "
                 f"({other_load:.2f} over the run). ")
    if busy or (during is not None and during > BUSY):
        text += "Other processes took part of the processor. "
    elif cpu is not None and cpu >= wall / 2:
        text += ("So the extra time was spent working, not waiting: the same steps cost more "
                 "CPU time, which the tour cannot trace further (on a virtual machine the host's "
                 "other tenants can slow its processor). ")
    elif cpu is not None:
        text += ("The process waited for something outside its own work that the tour cannot "
                 "see from inside the machine. ")
    return text + ("Those rounds are drawn hollow in the block-time figure and left out of the "
                   "ratios and spreads.")
