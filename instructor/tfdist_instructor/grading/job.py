"""The contract between the grader and the runner: one job in (JSON on the runner's stdin).

``grade.py`` writes a job with :func:`make`; ``runner.py``, inside the sandbox, reads it with
:func:`read`. Both import this module, so a key added or renamed on one side fails on the other
at once, naming the key, instead of surfacing as a KeyError in the student's sandbox. Standard
library only: it runs in the sandbox's interpreter too. The time limits and ``clock`` are what
the runner needs of the run's ``GradeOptions`` (``timeout_s`` and the limits derived from it,
``profile``); the sandbox's limits stay with the grader, which applies them from outside.
"""

import json
from typing import TypedDict


class Probe(TypedDict):
    source: str  # the question file's probe(inputs), as source text
    inputs: dict  # the inputs the grader drew for this question (plain data)
    helpers: dict  # {module: [names]} the kernel watches for calls (own work)


class Job(TypedDict):
    notebook: str  # the cleaned notebook, nbformat JSON
    name: str  # the file name it is written under in the sandbox
    timeout_s: float  # the whole run's limit (GradeOptions.timeout_s)
    cell_limit_s: float  # one cell's limit (GradeOptions.cell_limit_s)
    probe_reserve_s: float  # kept for the probes after the student's cells (GradeOptions.probe_reserve_s)
    output_limit: int  # bytes of a cell's output kept
    clock: bool  # time the kernel's TensorFlow import (GradeOptions.profile)
    probes: dict  # {question: Probe}


def make(**fields):
    """A Job from exactly its fields (TypeError naming a missing or unknown one)."""
    _check(fields, Job, "job")
    for question, probe in fields["probes"].items():
        _check(probe, Probe, f"probe {question}")
    return Job(**fields)


def read(raw):
    """The Job in ``raw`` (bytes or text of JSON), checked as :func:`make` checks it."""
    fields = json.loads(raw)
    return make(**fields)


def _check(fields, kind, what):
    wanted = set(kind.__annotations__)
    missing, unknown = sorted(wanted - set(fields)), sorted(set(fields) - wanted)
    if missing or unknown:
        raise TypeError(f"a grading {what} must have exactly {', '.join(sorted(wanted))}; "
                        f"missing: {', '.join(missing) or 'none'}; unknown: {', '.join(unknown) or 'none'}")
