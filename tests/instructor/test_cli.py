"""The ``tfdist-instructor`` command: one way to add a verb, ``add_cli(subparsers)`` in the module
that does its work; ``cli.py`` only lists those modules."""

import inspect

from tfdist_instructor import cli, compat, masters, outputs, site


def _verbs():
    parser = cli.build_parser()
    return next(a for a in parser._actions if a.dest == "command").choices


def test_every_verb_is_registered_by_the_module_that_does_its_work():
    verbs = _verbs()
    assert {"grade", "exercises", "slides", "handouts", "compat", "site", "outputs", "retarget", "release",
            "gradebook", "gradescope"} <= set(verbs)
    assert "add_parser" not in inspect.getsource(cli), "register a verb with add_cli in its own module"
    for verb, module in {"exercises": masters, "compat": compat.matrix, "site": site, "outputs": outputs}.items():
        assert verbs[verb].get_default("func") is module.run, verb


def test_the_verbs_keep_their_options_and_defaults():
    parser = cli.build_parser()
    assert parser.parse_args(["exercises", "--check"]).check is True
    args = parser.parse_args(["compat"])
    assert (args.write, args.parallel) == ("docs/compatibility.md", None)
    args = parser.parse_args(["site"])
    assert (args.executed, args.out, args.slides, args.tour) == ("build/executed", "build/site", "build/slides",
                                                                 "tour-report")
    args = parser.parse_args(["outputs", "--only", "04_performance", "--only", "05_by_hand"])
    assert (args.executed, args.only) == ("build/executed", ["04_performance", "05_by_hand"])
