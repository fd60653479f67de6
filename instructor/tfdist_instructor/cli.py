"""The ``tfdist-instructor`` command: grade, exercises, slides, handouts, compat, site, outputs, retarget
and the term's commands (release, gradebook, gradescope; grade --roster, --slurm).

Bad input (a missing folder, an unwritable output folder, an unknown exercise) gets one line
and a non-zero exit, before any work starts.
"""

import argparse
import sys


def _exercises(args):
    from tfdist_instructor import masters

    changed = masters.regenerate(check=args.check)
    if args.check and changed:
        print("these generated files differ from their masters (run `make exercises`):", *changed, sep="\n  ")
        return 1
    print(f"{len(changed)} file(s) {'differ' if args.check else 'written'}")
    return 0


def _compat(args):
    from tfdist_instructor import compat

    return compat.main(["--write", args.write] + (["--parallel", str(args.parallel)] if args.parallel else []))


def _site(args):
    from tfdist_instructor import site

    site.build(args.executed, args.out, slides=args.slides, tour=args.tour)
    return 0


def _outputs(args):
    from tfdist_instructor import outputs

    written = outputs.store(args.executed, only=args.only or ())
    for name, size in written.items():
        print(f"{name}: outputs stored, {size / 1024:.0f} KiB")
    print(f"{len(written)} lessons, {sum(written.values()) / 1024:.0f} KiB in all")
    return 0


def build_parser():
    """Return the argument parser of the ``tfdist-instructor`` command."""
    from tfdist_instructor import grading, handouts, retarget, slides, term

    parser = argparse.ArgumentParser(prog="tfdist-instructor",
                                     description="Instructor tools for the tf.distribute course.")
    sub = parser.add_subparsers(dest="command", required=True)
    grading.add_cli(sub)
    exercises = sub.add_parser("exercises", help="regenerate exercises/ and solutions/ from grading/masters")
    exercises.add_argument("--check", action="store_true", help="only list files that differ; write nothing")
    exercises.set_defaults(func=_exercises)
    slides.add_cli(sub)
    handouts.add_cli(sub)
    compat = sub.add_parser("compat", help="measure every strategy x training path and write the table")
    compat.add_argument("--write", default="docs/compatibility.md", metavar="PATH")
    compat.add_argument("--parallel", type=int, default=None, help="combinations run at once")
    compat.set_defaults(func=_compat)
    site = sub.add_parser("site", help="build the course website from executed lessons")
    site.add_argument("--executed", default="build/executed", help="executed notebooks (make test leaves them)")
    site.add_argument("--out", default="build/site", help="output folder (replaced)")
    site.add_argument("--slides", default="build/slides", help="built decks to link (if present)")
    site.add_argument("--tour", default="tour-report", help="the tour's report folder (if present)")
    site.set_defaults(func=_site)
    outputs = sub.add_parser("outputs", help="store the executed lessons' outputs in notebooks/ "
                             "(after `make test`), so students see results before running")
    outputs.add_argument("--executed", default="build/executed", help="executed notebooks (make test leaves them)")
    outputs.add_argument("--only", action="append", metavar="LESSON",
                         help="store this lesson only (e.g. 04_performance; repeatable): a lesson "
                         "whose code changed, run alone in normal mode")
    outputs.set_defaults(func=_outputs)
    retarget.add_cli(sub)
    term.add_cli(sub)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (ValueError, RuntimeError, FileNotFoundError, PermissionError) as error:
        # Bad input gets one clear line, not a traceback.
        print(f"tfdist-instructor {args.command}: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
