"""Rounds in which the whole machine ran slower: the arms together, not one of them.

On a quiet virtual machine the tour still met stretches of 2-15 s in which the arms' blocks took
13-30% longer (the median over the arms) and the tour's own process used about as much more CPU
time for the same steps, while other processes in the machine used about 0.01 of a core (six
quiet tours on 2 cores, 2026-11-26). The same work costing more CPU time means the processor
itself ran slower: a virtual machine's host runs other tenants, which this machine cannot see.
Because the arms alternate, such a stretch slows each arm in the same rounds; the tour names
those rounds and leaves them out of its ratios and spreads, instead of reading them as a
difference between arms.
"""

import statistics

SLOWER = 1.15  # a block over 15% above its arm's median
SHARE = 0.5  # ... in at least half of the arms of one round: the machine slowed, not an arm


def slow_rounds(runs):
    """0-based indices of the steady rounds (the first, with tracing, never counts) in which at
    least half of the arms ran over ``SLOWER`` x their own median block."""
    runs = [r for r in runs if len(r.block_seconds) > 2]
    if not runs:
        return []
    medians = [statistics.median(r.block_seconds[1:]) for r in runs]
    rounds = min(len(r.block_seconds) for r in runs)
    return [i for i in range(1, rounds)
            if sum(r.block_seconds[i] > SLOWER * m for r, m in zip(runs, medians)) >= SHARE * len(runs)]


def _rise(values, rounds):
    """Mean of ``values`` in ``rounds`` over their median in the other steady rounds."""
    inside = [values[i] for i in rounds if i < len(values)]
    outside = [v for i, v in enumerate(values) if i > 0 and i not in rounds]
    return statistics.mean(inside) / statistics.median(outside) if inside and outside else 1.0


def sentence(runs, rounds, other_load, cores, busy):
    """What happened in the slow ``rounds`` and what the tour did with them, from the numbers;
    ``busy``: the other processes' load counts as a disturbance."""
    names = ", ".join(str(i + 1) for i in rounds)
    wall = statistics.median(_rise(r.block_seconds, rounds) for r in runs) - 1
    text = f"In round(s) {names} the arms ran slower together: a median {wall:.0%} more time per block"
    timed = [r for r in runs if len(r.block_cpu_seconds) == len(r.block_seconds)]
    cpu = statistics.median(_rise(r.block_cpu_seconds, rounds) for r in timed) - 1 if timed else None
    if cpu is not None:
        text += f", with {cpu:.0%} more CPU time in the tour's own process"
    text += f", while other processes used {other_load:.2f} of the {cores} cores. "
    if busy:
        text += "Those processes took part of the processor. "
    elif cpu is not None and cpu >= wall / 2:
        text += ("The same steps costing more CPU time means the processor itself ran slower for a "
                 "while (a virtual machine's host runs other tenants). ")
    elif cpu is not None:
        text += "The process waited for something outside its own work. "
    return text + ("Those rounds are drawn hollow in the block-time figure and left out of the "
                   "ratios and spreads.")
