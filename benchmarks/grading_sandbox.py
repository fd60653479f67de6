"""What the sandbox costs per submission: each exercise's solution graded sandboxed and with
--trust-submissions, alternately, over a few rounds; prints the medians and the course's paired
verdict (``timing.paired``: the typical ratio with its 95% interval).

    PYTHONPATH=.:instructor python benchmarks/grading_sandbox.py [--rounds 6] [--exercise 01_global_batch ...]

Run it on an otherwise idle machine: other load moves both numbers. The order of the two modes
alternates between rounds so that drift in the machine's load falls on both alike.
"""

import argparse
import statistics
import tempfile
from pathlib import Path

from tfdist_edu import verdict as timing  # the statistics only: no TensorFlow in this process
from tfdist_instructor import REPO_ROOT
from tfdist_instructor.grading import GradeOptions, exercises, grade_submission


def timed(exercise, sandboxed):
    """Seconds to grade the solution of ``exercise``; raises if it does not score full marks."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{exercise}.ipynb"
        path.write_bytes((REPO_ROOT / "solutions" / exercise / f"{exercise}.ipynb").read_bytes())
        result = grade_submission(path, GradeOptions(sandboxed=sandboxed))
    if result.score != result.possible:
        raise RuntimeError(f"{exercise} ({'sandboxed' if sandboxed else 'trusted'}): {result.reason}")
    return result.seconds


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6, help="paired rounds (6 at least for a verdict)")
    parser.add_argument("--exercise", action="append", choices=exercises(), help="default: all of them")
    args = parser.parse_args(argv)
    print(f"{'exercise':18}{'trusted s':>11}{'sandboxed s':>13}   (medians of {args.rounds} rounds), then the verdict")
    for exercise in args.exercise or exercises():
        times = {True: [], False: []}
        for round_ in range(args.rounds):
            for sandboxed in ((True, False) if round_ % 2 else (False, True)):
                times[sandboxed].append(timed(exercise, sandboxed))
        trusted, boxed = statistics.median(times[False]), statistics.median(times[True])
        print(f"{exercise:18}{trusted:>11.1f}{boxed:>13.1f}", flush=True)
        print("  " + str(timing.paired(times[False], times[True], "sandboxed vs trusted")), flush=True)


if __name__ == "__main__":
    main()
