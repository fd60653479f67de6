"""The ``tfdist-instructor`` command: grade, exercises, slides, handouts, compat, site, outputs, retarget
and the term's commands (release, gradebook, gradescope; grade --roster, --slurm).

Bad input (a missing folder, an unwritable output folder, an unknown exercise) gets one line
and a non-zero exit, before any work starts.
"""

import argparse
import sys


def build_parser():
    """Return the argument parser of the ``tfdist-instructor`` command: each verb is registered by
    the module that does its work (``add_cli(subparsers)``), in the order ``--help`` lists them. The
    term's adds its options to ``grade``, handed the parser that the grader's ``add_cli`` returned."""
    from tfdist_instructor import compat, grading, handouts, masters, outputs, retarget, site, slides, term

    parser = argparse.ArgumentParser(prog="tfdist-instructor",
                                     description="Instructor tools for the tf.distribute course.")
    sub = parser.add_subparsers(dest="command", required=True)
    grade = grading.add_cli(sub)
    for module in (masters, slides, handouts, compat, site, outputs, retarget):
        module.add_cli(sub)
    term.add_cli(sub, grade)
    return parser


def run_alone(module, add_cli, verb, argv=None, errors=(ValueError,)):
    """``python -m module``: run the one verb that ``add_cli`` registers, without importing the other
    verbs' modules (``make retarget`` and ``make release`` run so, with the standard library only).
    Bad input: one line and exit status 2."""
    parser = argparse.ArgumentParser(prog=f"python -m {module}")
    add_cli(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args([verb, *(sys.argv[1:] if argv is None else argv)])
    try:
        return args.func(args)
    except errors as error:
        print(f"{verb}: {error}", file=sys.stderr)
        return 2


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
