"""The term's command line: ``grade --roster ...`` (and ``--slurm``), ``gradebook``, ``gradescope``,
``release``. ``grade`` itself belongs to the grader; this adds the term's options to it."""

import shlex
from pathlib import Path

TERM_OPTIONS = ("only", "hand", "policy_dir", "slurm")


def extend_grade(parser):
    """Add the roster, policy, hand-graded points and Slurm options to ``grade`` (its --seed and
    --replay-seeds apply to a term's grading too), and the hook its entry point calls."""
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
    parser.set_defaults(class_grade=class_grade)


def class_grade(args, options):
    """The class's grading for ``grade``'s entry point (``grading/cli.run``): the term's options
    checked and the roster read, before any work; None without ``--roster``. The class is graded
    with ``options``, the run's one ``GradeOptions`` (its ``only`` is ``--only``)."""
    if not args.roster:
        given = [f"--{o.replace('_', '-')}" for o in TERM_OPTIONS if getattr(args, o)]
        if given:
            raise ValueError(f"{', '.join(given)} need(s) --roster")
        return None
    from tfdist_instructor.term.policy import POLICY_DIR, check_folder
    from tfdist_instructor.term.roster import Roster

    check_folder(args.policy_dir or POLICY_DIR, args.policy_dir)  # a mistyped folder or file: one line, no work
    roster = Roster.load(args.roster)
    return lambda: _grade(args, roster, options)


def _grade(args, roster, options):
    from tfdist_instructor.grading.cli import NOT_ALL_GRADED
    from tfdist_instructor.grading.folder import not_graded_summary
    from tfdist_instructor.term import classgrade, slurm

    sbatch_args = [o for s in args.slurm_option for o in shlex.split(s)]
    runner = slurm.SlurmGrader(tasks=args.slurm_tasks, sbatch_args=sbatch_args) if args.slurm else None
    results, taken, rows = classgrade.grade_class(Path(args.submissions), Path(args.out), roster, options,
                                                  hand=args.hand, policy_dir=args.policy_dir, slurm=runner)
    failed = [r.student for r in results if not r.graded]
    again = " ".join([f"tfdist-instructor grade {args.submissions} --out {args.out} --roster {args.roster}",
                      *([f"--policy-dir {args.policy_dir}"] if args.policy_dir else []),
                      *([f"--hand {args.hand}"] if args.hand else []), f"--only {' '.join(failed)} --replay-seeds"])
    print(f"\n{len(results) - len(failed)} submissions graded, {len(taken.unmatched)} file(s) of this run held back "
          f"(see unmatched.csv); totals of {len(rows)} students in {Path(args.out) / 'totals.csv'}")
    lines = not_graded_summary(results, again)
    for line in lines:
        print(line, flush=True)
    return NOT_ALL_GRADED if lines else 0


def add_gradebook(subparsers):
    parser = subparsers.add_parser("gradebook", help="the totals as a Canvas or Moodle import CSV")
    parser.add_argument("reports", nargs="+", metavar="REPORT_DIR", help="folders graded with --roster (totals.csv)")
    parser.add_argument("--roster", required=True, metavar="CSV")
    parser.add_argument("--format", required=True, choices=("canvas", "moodle"))
    parser.add_argument("--out", required=True, metavar="CSV")
    parser.add_argument("--canvas-assignment", action="append", default=[], metavar="EXERCISE=ID",
                        help="the Canvas assignment id of an exercise (repeatable)")
    parser.add_argument("--zeros-for-missing", action="store_true",
                        help="export 0 for students with no graded submission (default: a blank cell, left ungraded)")
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
        exercise = rows[0]["exercise"] if rows else Path(report).name
        if exercise in by_exercise:
            raise ValueError(f"two reports of {exercise} ({report} and another): give one report folder per exercise")
        by_exercise[exercise] = rows
    ids = {}
    for given in args.canvas_assignment:
        exercise, _, number = given.partition("=")
        if exercise not in by_exercise or not number.strip().isdigit():
            raise ValueError(f"--canvas-assignment {given}: give EXERCISE=ID, an exercise of these reports "
                             f"({', '.join(by_exercise)}) and Canvas's numeric assignment id")
        ids[exercise] = number.strip()
    if args.format == "canvas":
        path = gradebooks.canvas(by_exercise, roster, args.out, ids, zeros=args.zeros_for_missing)
        for line in gradebooks.canvas_without_id(roster):
            print(line, flush=True)
    else:
        path = gradebooks.moodle(by_exercise, roster, args.out, zeros=args.zeros_for_missing)
    print(f"{args.format} gradebook of {len(roster.students)} students, {len(by_exercise)} exercise(s): {path}")
    for exercise, missing in gradebooks.not_graded(by_exercise, roster).items():
        if missing:
            left = "exported as 0 (--zeros-for-missing)" if args.zeros_for_missing else \
                "left blank, not 0 (--zeros-for-missing exports 0)"
            print(f"{exercise}: {len(missing)} student(s) with no graded submission, {left}: "
                  + ", ".join(f"{sid} ({why})" for sid, why in missing))
    return 0
