"""Kernel side of a probe: call the student's functions on the grader's inputs, save plain data.

This code runs in the student's kernel, after the student's cells, so the student's code can
change anything here. That is allowed for: it can only change the data it answers with, and
the points are decided from that data elsewhere (``verdict``), by code the student never ran.
"""

import contextlib
import importlib
import inspect
import json
import sys
import traceback

from tfdist_instructor.grading import codec


def attempt(call, *args, **kwargs):
    """``{"value": call(*args)}``, or ``{"error": "Type: message"}`` when it raises."""
    try:
        return {"value": call(*args, **kwargs)}
    except Exception as error:  # noqa: BLE001 - a student's exception is an answer too
        return {"error": describe(error)}


def describe(error):
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[-1] if lines else ''}"[:300]


def run_probe(namespace, source, inputs_json, out_path, helpers_json="{}"):
    """Define ``probe`` from ``source`` over a copy of ``namespace``; save its answer to ``out_path``,
    and the course helpers (``helpers_json``: the question's ``HELPERS``) that ran meanwhile to
    ``out_path + ".called"``."""
    scope, called = {**namespace, "attempt": attempt}, set()
    try:
        exec(compile(source, "<probe>", "exec"), scope)  # noqa: S102 - the grader's own probe code
        with watch_calls(json.loads(helpers_json), called):
            answer = codec.encode(scope["probe"](json.loads(inputs_json)))
    except BaseException as error:  # noqa: BLE001 - an interrupt (time limit) is reported too
        traceback.print_exc()
        answer = json.dumps({"__probe_error__": describe(error)})
    with open(out_path, "w") as f:
        f.write(answer)
    with open(f"{out_path}.called", "w") as f:
        json.dump(sorted(called), f)


@contextlib.contextmanager
def watch_calls(helpers, called):
    """Add to ``called`` the name of every helper (``{module: [function or class]}``) whose code
    runs inside the block; a class stands for its methods."""
    codes = {}
    for module, names in helpers.items():
        for name in names:
            try:
                found = getattr(importlib.import_module(module), name)
            except (ImportError, AttributeError):  # not in this version of the course package
                continue
            functions = [f for f in vars(found).values() if inspect.isfunction(f)] if inspect.isclass(found) else [found]
            codes.update({f.__code__: f"{module}.{name}" for f in functions})

    def profile(frame, event, arg):
        if event == "call" and frame.f_code in codes:
            called.add(codes[frame.f_code])

    previous = sys.getprofile()
    sys.setprofile(profile if codes else previous)
    try:
        yield
    finally:
        sys.setprofile(previous)
