"""Does the course's paired verdict converge? Simulated pairs, no TensorFlow.

Each arm's time is its true time with lognormal noise (4% unless said), drawn independently for
the two blocks of a pair; ``timing.paired`` reads the pairs. For each true speed ratio and
number of pairs it prints how often each verdict came out, over many seeded runs. A verdict
that converges decides more often as pairs are added, and decides right.

    python benchmarks/verdict_convergence.py [--runs 400] [--noise 0.04]
"""

import argparse
import math
import random

from tfdist_edu import verdict  # the statistics alone: no TensorFlow

ANSWERS = (verdict.FASTER, verdict.SLOWER, verdict.WITHIN, verdict.UNDECIDED)


def shares(true_ratio, pairs, runs, noise, seed):
    """The share of ``runs`` simulated comparisons that gave each verdict."""
    rng, counts = random.Random(seed), dict.fromkeys(ANSWERS, 0)
    for _ in range(runs):
        baseline = [math.exp(rng.gauss(0, noise)) for _ in range(pairs)]
        other = [math.exp(rng.gauss(0, noise)) / true_ratio for _ in range(pairs)]
        counts[verdict.paired(baseline, other).verdict] += 1
    return {answer: count / runs for answer, count in counts.items()}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=400)
    parser.add_argument("--noise", type=float, default=0.04, help="lognormal sigma per arm")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print(f"{args.runs} simulated runs per row, {args.noise:.0%} lognormal noise per arm, "
          f"threshold {verdict.THRESHOLD:.0%}, 95% Wilcoxon signed-rank interval")
    print(f"{'true ratio':>10} {'pairs':>5} " + " ".join(f"{a:>9}" for a in ANSWERS))
    for true_ratio in (1.0, 0.97, 0.95, 0.92):
        for pairs in (6, 11, 18, 23, 40):
            row = shares(true_ratio, pairs, args.runs, args.noise, args.seed)
            print(f"{true_ratio:>9.2f}x {pairs:>5} " + " ".join(f"{row[a]:>9.1%}" for a in ANSWERS),
                  flush=True)


if __name__ == "__main__":
    main()
