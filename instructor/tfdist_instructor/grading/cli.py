"""``tfdist-instructor grade``: bad input and a missing sandbox are refused before any work."""

import os
import tempfile
from pathlib import Path

from tfdist_instructor.grading import sandbox, scores, seeds
from tfdist_instructor.grading.folder import grade_folder, submissions
from tfdist_instructor.grading.grade import DEFAULT_TIMEOUT_S

DOCKER_HINT = ("grade in otter's Docker mode instead (exercises/README.md shows the commands), "
               "or pass --trust-submissions to run them unsandboxed as your user")


def add_cli(subparsers):
    """Register ``grade SUBMISSIONS_DIR --out REPORT_DIR ...`` on an argparse subparsers object."""
    parser = subparsers.add_parser(
        "grade", help="grade a folder of exercise notebooks: scores.csv and per-student feedback",
        description="Run every submitted notebook in a sandbox with a time limit, probe its answers, "
                    "decide the points outside it, and write REPORT_DIR/scores.csv and REPORT_DIR/feedback/.")
    parser.add_argument("submissions", metavar="SUBMISSIONS_DIR", help="one file per student")
    parser.add_argument("--out", required=True, metavar="REPORT_DIR", help="report folder (created)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, metavar="S",
                        help=f"seconds per submission (default {DEFAULT_TIMEOUT_S})")
    parser.add_argument("--exercise", default=None, metavar="NAME",
                        help="grade every file as this exercise (default: the one each notebook names)")
    parser.add_argument("--jobs", type=int, default=1, help="submissions graded at once (default 1)")
    replay = parser.add_mutually_exclusive_group()
    replay.add_argument("--seed", type=_seed, default=None, metavar="N",
                        help="draw every submission's inputs from seed N, e.g. to replay one student's grade "
                             "with the seed its row or feedback recorded (default: a new seed per submission)")
    replay.add_argument("--replay-seeds", action="store_true",
                        help="grade each student with the seed REPORT_DIR/scores.csv recorded for them "
                             "(a student without one gets a new seed)")
    parser.add_argument("--trust-submissions", action="store_true",
                        help="run notebooks without the sandbox, as your user (only for code you trust)")
    parser.set_defaults(func=run)
    return parser


def run(args):
    submissions(args.submissions)  # a missing or empty folder: one line, before any work
    _check_writable(Path(args.out))
    if not args.trust_submissions and (why := sandbox.unavailable()):
        raise RuntimeError(f"cannot sandbox submissions here: {why}; {DOCKER_HINT}")
    if args.trust_submissions:
        print("warning: --trust-submissions: notebooks run unsandboxed, as your user", flush=True)
    chosen = scores.recorded_seeds(args.out) if args.replay_seeds else args.seed
    results = grade_folder(args.submissions, args.out, timeout_s=args.timeout, exercise=args.exercise,
                           jobs=args.jobs, sandboxed=not args.trust_submissions, seeds=chosen)
    print(f"\n{len(results)} submissions graded; scores in {Path(args.out) / 'scores.csv'} (rows of others kept; "
          f"replaced rows in {scores.HISTORY}), "
          f"feedback in {Path(args.out) / 'feedback'}, written answers in {Path(args.out) / 'written.md'}")
    return 0


def _seed(text):
    return seeds.check(text)


def _check_writable(out):
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out):
            pass
    except OSError as error:
        raise PermissionError(f"cannot write the report into {out}: {error.strerror or error}") from None
    if not os.access(out, os.W_OK):
        raise PermissionError(f"cannot write the report into {out}")
