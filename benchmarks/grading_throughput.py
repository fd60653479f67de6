"""How fast a class is graded: a class of one exercise (a realistic mix of solutions, every
planted mistake, delegations, broken and hostile notebooks) graded sandboxed with the jobs the
cores allow; prints submissions per minute and where the time went, phase by phase.

    PYTHONPATH=.:instructor nice python benchmarks/grading_throughput.py \\
        [--size 150] [--exercise 05_ring_allreduce] [--jobs 2] [--timeout 120] [--keep DIR]

The class is the grading tests' own (``tfdist_instructor.sample_class.class_mix``: the planted
mistakes, delegations, broken and hostile notebooks), shuffled with a fixed seed, so ``--size 10``
is the same ten submissions every run: compare before and after on it. Timings taken while
other jobs share the machine are noisy; say so when you quote them.
"""

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tfdist_instructor import REPO_ROOT, grading
from tfdist_instructor.grading import phases, sandbox
from tfdist_instructor.sample_class import class_mix
from tfdist_edu.other_load import SampledLoad


def build(exercise, size, folder):
    """Write ``size`` submissions of ``exercise`` into ``folder``; return ``{student: kind}``."""
    kinds = class_mix.mix(exercise, 150)
    random.Random(0).shuffle(kinds)
    kinds = (kinds * (size // len(kinds) + 1))[:size]
    made = {}
    for i, kind in enumerate(kinds):
        suffix, text = class_mix.submission(exercise, kind, folder)
        (folder / f"s{i:03d}{suffix}").write_text(text)
        made[f"s{i:03d}" if suffix == ".ipynb" else f"s{i:03d}{suffix}"] = kind
    return made


def spread(values):
    """``median [p10-p90]`` of ``values`` in seconds."""
    if not values:
        return "-"
    ordered = sorted(values)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return f"{statistics.median(ordered):6.1f} [{pick(0.1):5.1f}-{pick(0.9):5.1f}]"


def report(results, kinds, wall_s, jobs):
    """Print the rate, the phases (median, 10th-90th percentile, share of all time) and each kind."""
    n = len(results)
    print(f"\n{n} submissions in {wall_s / 60:.1f} min with {jobs} jobs: {60 * n / wall_s:.1f} submissions per minute; "
          f"a class of 150 would take about {150 * wall_s / n / 60:.1f} min")
    profiled = [r for r in results if r.phases]
    total = sum(r.seconds for r in profiled) or 1.0
    print(f"\nwhere the time went ({len(profiled)} runs profiled; the rest were rejected or timed out):")
    print(f"  {'phase':12}{'median [p10-p90] s':>24}{'share':>8}")
    for name in phases.NAMES:
        values = [r.phases[name] for r in profiled]
        print(f"  {name:12}{spread(values):>24}{100 * sum(values) / total:>7.0f}%")
    print(f"\n  {'kind':38}{'n':>3}{'median [p10-p90] s':>24}  scores")
    for kind in sorted(set(kinds.values())):
        mine = [r for r in results if kinds[r.student] == kind]
        scores = sorted({f"{r.score:g}" for r in mine})
        print(f"  {kind[:38]:38}{len(mine):>3}{spread([r.seconds for r in mine]):>24}  {', '.join(scores)}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=150, help="submissions in the class (default 150)")
    parser.add_argument("--exercise", default="05_ring_allreduce", choices=class_mix.EXERCISES)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="default: the number of cores")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per submission (default 120)")
    parser.add_argument("--keep", type=Path, default=None, help="keep the class and its report in this folder")
    args = parser.parse_args(argv)
    if args.size < 1:
        parser.error(f"--size must be at least 1, got {args.size}")
    if why := sandbox.unavailable():
        parser.error(f"cannot sandbox submissions here: {why}")
    with tempfile.TemporaryDirectory(prefix="tfdist-throughput-") as tmp:
        root = args.keep or Path(tmp)
        folder, out = root / "class", root / "report"
        folder.mkdir(parents=True, exist_ok=True)
        kinds = build(args.exercise, args.size, folder)
        print(f"grading {args.size} submissions of {args.exercise} with {args.jobs} jobs, --timeout {args.timeout:g}",
              flush=True)
        # Other processes' CPU, looked at every half second: the sandboxed kernels run in their
        # own session and PID namespace, where the tour's count of waited-for children misses them.
        others = SampledLoad()
        others.start()
        started = time.monotonic()
        options = grading.GradeOptions(timeout_s=args.timeout, exercise=args.exercise, jobs=args.jobs, profile=True)
        results = grading.grade_folder(folder, out, options)
        report(results, kinds, time.monotonic() - started, args.jobs)
        print(f"other processes used {others.cores():.2f} of the {os.cpu_count()} cores during the run; "
              f"{os.cpu_count()} cores, Python {sys.version.split()[0]}", flush=True)


if __name__ == "__main__":
    main()
