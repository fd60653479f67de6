"""``tfdist-instructor grade``: bad input and a missing sandbox are refused before any work.

:func:`run` is the command's one entry point, for a folder and for a class alike: its checks are
written once, here. It builds the run's options once (a frozen ``GradeOptions``, refused with
one line when a value is bad; the seeds ``--replay-seeds`` replays read into it) and hands that
object down. The term (``term/cli.py``) adds its options (``--roster``, ``--hand``, ...) and a
``class_grade`` hook that checks them, loads the roster and returns the class's grading, which
``run`` calls after the shared checks instead of grading a plain folder.
"""

import os
import tempfile
from pathlib import Path

from tfdist_instructor.grading import sandbox, scores, seeds
from tfdist_instructor.grading.folder import grade_folder, not_graded_summary, submissions
from tfdist_instructor.grading.options import DEFAULT_TIMEOUT_S, GradeOptions

NOT_ALL_GRADED = 3  # the exit code of a run that left submissions "not graded" (the grader failed on them)
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
    parser.set_defaults(func=run, class_grade=None)
    return parser


def run(args):
    """``grade``: the options built once and every check before any work, then the class
    (``--roster``) or the folder, graded with that one options object."""
    options = GradeOptions.from_args(args)  # a bad value: one line, before any work
    submissions(args.submissions)  # a missing or empty folder: one line, before any work
    grade_class = args.class_grade(args, options) if args.class_grade else None  # the term's checks, or None
    if grade_class is None:
        refuse_a_term_report(args)
    _check_writable(Path(args.out))
    if options.sandboxed and (why := sandbox.unavailable()):
        raise RuntimeError(f"cannot sandbox submissions here: {why}; {DOCKER_HINT}")
    if not options.sandboxed:
        print("warning: --trust-submissions: notebooks run unsandboxed, as your user", flush=True)
    if grade_class is not None:
        return grade_class()
    results = grade_folder(args.submissions, args.out, options)
    written = Path(args.out) / "written.md"
    failed = not_graded_summary(results, f"tfdist-instructor grade {args.submissions} --out {args.out} --replay-seeds")
    print(f"\n{sum(r.graded for r in results)} submissions graded; scores in {Path(args.out) / 'scores.csv'} "
          f"(rows of others kept; replaced rows in {scores.HISTORY}), feedback in {Path(args.out) / 'feedback'}"
          + (f", written answers in {written}" if written.exists() else ""))
    for line in failed:
        print(line, flush=True)
    return NOT_ALL_GRADED if failed else 0


def refuse_a_term_report(args):
    """A report graded with --roster names students by roster id and holds their totals: grading
    into it without the roster would add rows named after files and leave the totals behind."""
    if (Path(args.out) / "totals.csv").is_file():
        seed = f" --seed {args.seed}" if args.seed is not None else " --replay-seeds" if args.replay_seeds else ""
        raise ValueError(f"{args.out} was graded with --roster (it holds totals.csv); grading into it without "
                         f"the roster would add rows named after the files and leave the totals stale. Grade with "
                         f"the roster, which changes only the rows of the students in {args.submissions}: "
                         f"tfdist-instructor grade {args.submissions} --out {args.out} --roster ROSTER.csv{seed}")


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
