"""The term's command line: ``grade --roster ...`` (and ``--slurm``), ``gradebook``, ``gradescope``,
``release``. ``grade`` itself belongs to the grader; this adds the term's options to it."""

import shlex
from pathlib import Path

TERM_OPTIONS = ("only", "hand", "policy_dir", "slurm")


def extend_grade(parser):
    """Add the roster, policy, hand-graded points and Slurm options to ``grade`` (its --seed and
    --replay-seeds apply to a term's grading too)."""
    from tfdist_instructor.grading import cli as grading_cli

    term = parser.add_argument_group("a term (with --roster)")
    term.add_argument("--roster", metavar="CSV", help="id,name,email[,canvas_id,moodle_id,gradescope_id]: "
                      "matches Canvas, Moodle, Gradescope and Colab downloads to students")
    term.add_argument("--only", nargs="+", metavar="ID", help="grade only these students")
    term.add_argument("--hand", metavar="CSV", help="hand-graded points: id,exercise,points")
    term.add_argument("--policy-dir", metavar="DIR", help="policy files (default grading/policy)")
    term.add_argument("--slurm", action="store_true", help="grade as a Slurm job array (sbatch on this host)")
    term.add_argument("--slurm-tasks", type=int, default=None, metavar="N", help="array tasks (default: one per 10)")
    term.add_argument("--slurm-option", action="append", default=[], metavar="OPT",
                      help="passed to sbatch, e.g. --slurm-option=--partition=grading (repeatable)")
    parser.set_defaults(func=lambda args: run_grade(args, grading_cli))


def run_grade(args, grading_cli):
    if not args.roster:
        given = [f"--{o.replace('_', '-')}" for o in TERM_OPTIONS if getattr(args, o)]
        if given:
            raise ValueError(f"{', '.join(given)} need(s) --roster")
        return grading_cli.run(args)
    from tfdist_instructor.grading import sandbox, scores
    from tfdist_instructor.term import classgrade, slurm
    from tfdist_instructor.term.roster import Roster

    grading_cli.submissions(args.submissions)
    roster = Roster.load(args.roster)
    grading_cli._check_writable(Path(args.out))
    if not args.trust_submissions and (why := sandbox.unavailable()):
        raise RuntimeError(f"cannot sandbox submissions here: {why}; {grading_cli.DOCKER_HINT}")
    runner = slurm.SlurmGrader(tasks=args.slurm_tasks, options=[o for s in args.slurm_option for o in shlex.split(s)]) \
        if args.slurm else None
    results, taken, rows = classgrade.grade_class(
        Path(args.submissions), Path(args.out), roster, exercise=args.exercise, timeout_s=args.timeout, jobs=args.jobs,
        sandboxed=not args.trust_submissions, only=args.only, hand=args.hand,
        seeds=scores.recorded_seeds(args.out) if args.replay_seeds else args.seed,
        policy_dir=args.policy_dir, slurm=runner)
    print(f"\n{len(results)} submissions graded, {len(taken.unmatched)} not graded (unmatched.csv); totals of "
          f"{len(rows)} students in {Path(args.out) / 'totals.csv'}")
    return 0


def add_gradebook(subparsers):
    parser = subparsers.add_parser("gradebook", help="the totals as a Canvas or Moodle import CSV")
    parser.add_argument("reports", nargs="+", metavar="REPORT_DIR", help="folders graded with --roster (totals.csv)")
    parser.add_argument("--roster", required=True, metavar="CSV")
    parser.add_argument("--format", required=True, choices=("canvas", "moodle"))
    parser.add_argument("--out", required=True, metavar="CSV")
    parser.add_argument("--canvas-assignment", action="append", default=[], metavar="EXERCISE=ID",
                        help="the Canvas assignment id of an exercise (repeatable)")
    parser.set_defaults(func=run_gradebook)


def run_gradebook(args):
    from tfdist_instructor.term import gradebooks, totals
    from tfdist_instructor.term.roster import Roster

    roster = Roster.load(args.roster)
    by_exercise = {}
    for report in args.reports:
        if not (Path(report) / totals.TOTALS_FILE).is_file():
            raise FileNotFoundError(f"no {totals.TOTALS_FILE} in {report}: grade it with --roster first")
        rows = totals.read_totals(report)
        by_exercise[rows[0]["exercise"] if rows else Path(report).name] = rows
    if args.format == "canvas":
        ids = dict(a.split("=", 1) for a in args.canvas_assignment)
        path = gradebooks.canvas(by_exercise, roster, args.out, ids)
    else:
        path = gradebooks.moodle(by_exercise, roster, args.out)
    print(f"{args.format} gradebook of {len(roster.students)} students, {len(by_exercise)} exercise(s): {path}")
    return 0
