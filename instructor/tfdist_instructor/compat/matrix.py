"""The matrix driver: run combinations in fresh processes, at most a deadline each, write the page.

``main`` is the command line, ``python -m tfdist_instructor.compat``; its hidden ``--probe``
and ``--worker`` options run the child side of one combination (see probe.py).
"""

import argparse
import concurrent.futures
import datetime
import os
import tempfile
import time
from pathlib import Path

from tfdist_edu import strategies
from tfdist_instructor import REPO_ROOT
from tfdist_instructor.compat import launch, probe
from tfdist_instructor.compat.outcome import PATHS, STRATEGIES, WORKS
from tfdist_instructor.compat.page import environment, render

DEADLINE_S = 180  # per combination: a hang is recorded as a failure, never waited out
DEFAULT_DOC = REPO_ROOT / "docs" / "compatibility.md"


def run_combination(strategy, path, deadline_s=DEADLINE_S):
    """Train briefly with ``strategy`` (a name in STRATEGIES) on ``path`` (in PATHS); return an Outcome.

    Runs in fresh processes (two workers for multi_worker), killed by ``deadline_s`` at the
    latest; an error, a crash or a timeout becomes a "fails" outcome, never an exception here.
    """
    strategy = strategies.canonical_name(strategy)
    if path not in PATHS:
        raise ValueError(f"unknown path {path!r}; choose one of {', '.join(PATHS)}")
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="tfdist-compat-") as workdir:
        if strategy == "multi_worker":
            outcome = launch.run_workers(path, deadline_s, workdir)
        else:
            outcome = launch.run_probe(strategy, path, deadline_s, workdir)
    outcome.seconds = round(time.monotonic() - start, 1)
    return outcome


def run_matrix(strategy_names=STRATEGIES, paths=PATHS, parallel=1, deadline_s=DEADLINE_S, echo=True):
    """Run every combination of ``strategy_names`` x ``paths``; return the Outcomes in that order.

    ``parallel`` combinations run at a time. With ``echo`` each outcome is printed as it lands.
    """
    combos = [(s, p) for s in strategy_names for p in paths]
    with concurrent.futures.ThreadPoolExecutor(max_workers=parallel) as pool:
        futures = [pool.submit(run_combination, s, p, deadline_s) for s, p in combos]
        for future in concurrent.futures.as_completed(futures):
            if echo:
                o = future.result()
                print(f"{o.strategy:17} {o.path:13} {o.status:13} {o.seconds:5.1f} s  {o.error or o.detail}",
                      flush=True)
        return [f.result() for f in futures]


def write(path=DEFAULT_DOC, parallel=None):
    """Measure the whole matrix, write its page to ``path``; return the Outcomes."""
    outcomes = run_matrix(parallel=parallel or default_parallel())
    text = render(outcomes, environment(), datetime.date.today().isoformat())
    Path(path).write_text(text)
    return outcomes


def default_parallel():
    """How many combinations to run at once here: 2 on 2+ cores (most of a run is process start-up)."""
    return 2 if (os.cpu_count() or 1) >= 2 else 1


def main(argv=None):
    """``python -m tfdist_instructor.compat --write docs/compatibility.md``: measure and write the table."""
    parser = argparse.ArgumentParser(prog="python -m tfdist_instructor.compat", description=main.__doc__)
    parser.add_argument("--write", metavar="PATH", help="measure every combination and write the Markdown table")
    parser.add_argument("--parallel", type=int, default=None,
                        help="combinations run at once (default: 2 on 2+ cores)")
    parser.add_argument("--probe", nargs=2, metavar=("STRATEGY", "PATH"), help=argparse.SUPPRESS)
    parser.add_argument("--worker", metavar="PATH", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.probe:
        probe.local(*args.probe)
    elif args.worker:
        probe.multi_worker(args.worker)
    elif args.write:
        outcomes = write(args.write, parallel=args.parallel)
        print(f"wrote {args.write}: {sum(o.status == WORKS for o in outcomes)} of {len(outcomes)} combinations work")
    else:
        parser.error("nothing to do: pass --write PATH")
    return 0


def add_cli(subparsers):
    """Register ``compat [--write PATH] [--parallel N]`` on the ``tfdist-instructor`` command."""
    parser = subparsers.add_parser("compat", help="measure every strategy x training path and write the table")
    parser.add_argument("--write", default="docs/compatibility.md", metavar="PATH")
    parser.add_argument("--parallel", type=int, default=None, help="combinations run at once")
    parser.set_defaults(func=run)
    return parser


def run(args):
    return main(["--write", args.write] + (["--parallel", str(args.parallel)] if args.parallel else []))
