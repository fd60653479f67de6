"""Kernel side of a probe: call the student's functions on the grader's inputs, save plain data.

This code runs in the student's kernel, after the student's cells, so the student's code can
change anything here. That is allowed for: it can only change the data it answers with, and
the points are decided from that data elsewhere (``verdict``), by code the student never ran.
"""

import json
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


def run_probe(namespace, source, inputs_json, out_path):
    """Define ``probe`` from ``source`` over a copy of ``namespace``; save its answer to ``out_path``."""
    scope = {**namespace, "attempt": attempt}
    try:
        exec(compile(source, "<probe>", "exec"), scope)  # noqa: S102 - the grader's own probe code
        answer = codec.encode(scope["probe"](json.loads(inputs_json)))
    except BaseException as error:  # noqa: BLE001 - an interrupt (time limit) is reported too
        traceback.print_exc()
        answer = json.dumps({"__probe_error__": describe(error)})
    with open(out_path, "w") as f:
        f.write(answer)
