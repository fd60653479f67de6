"""The graded questions: one file per question, ``grading/questions/<exercise>/<qN>.py``.

A question file holds everything that decides its points, and is never shown to students:

- ``inputs(rng)``: the inputs the grader chooses, new each run (``rng`` is a numpy Generator);
- ``probe(inputs)``: code run in the student's kernel after their cells; it calls their
  functions on ``inputs`` and returns plain data (wrap each call in ``attempt(...)`` so one
  exception costs only the cases that need that call);
- cases: functions ``(inputs, out)`` decorated with ``@case(points, public=..., hint=...)`` that
  ``assert`` on ``out``, the probe's data; they run in the grader's process, never the student's;
- optionally ``RUBRIC``: what the instructor looks for in a written answer the probe returns;
- optionally ``HELPERS``: the course helpers that answer the question (``{module: [names]}``):
  an answer that uses them scores 0 for it (:mod:`ownwork`).
"""

import dataclasses
import functools
import importlib.util
import inspect
import re
from pathlib import Path

from tfdist_instructor import REPO_ROOT

QUESTIONS_DIR = REPO_ROOT / "grading" / "questions"


@dataclasses.dataclass(frozen=True)
class Case:
    name: str
    points: float
    public: bool
    hint: str
    check: object
    diagnose: object = None


def case(points, public=False, hint="", diagnose=None):
    """Mark a function ``(inputs, out)`` as a test case worth ``points``.

    ``diagnose``: a function ``(inputs, out)`` called when the case fails, in the grader's
    process; it returns what it measured and the likely mistake, e.g. "your loss is 2.00x the
    one-device loss: ...", or None when no known mistake fits (see :mod:`diagnosis`).
    """
    def mark(check):
        check.case = Case(check.__name__, float(points), public, hint, check, diagnose)
        return check
    return mark


def returned(attempted, what):
    """The value inside an ``attempt(...)`` result; AssertionError naming ``what`` if it raised."""
    if not isinstance(attempted, dict) or set(attempted) not in ({"value"}, {"error"}):
        raise AssertionError(f"no answer for {what}")
    if "error" in attempted:
        raise AssertionError(f"{what} raised {attempted['error']}")
    return attempted["value"]


@dataclasses.dataclass(frozen=True)
class Question:
    name: str
    module: object

    @property
    def cases(self):
        found = [f.case for f in vars(self.module).values() if callable(f) and hasattr(f, "case")]
        return sorted(found, key=lambda c: inspect.getsourcelines(c.check)[1])

    @property
    def possible(self):
        return sum(c.points for c in self.cases)

    @property
    def probe_source(self):
        return inspect.getsource(self.module.probe)

    @property
    def helpers(self):
        """``{module: [names]}``: the course helpers that answer this question, so may not be used
        for it (``HELPERS`` in the question file; see :mod:`ownwork`)."""
        return getattr(self.module, "HELPERS", {})

    @property
    def rubric(self):
        return getattr(self.module, "RUBRIC", "")

    def inputs(self, rng):
        return self.module.inputs(rng) if hasattr(self.module, "inputs") else {}


def sibling(question_file, name):
    """Import the helper module ``name``.py that sits beside a question file (shared references)."""
    path = Path(question_file).with_name(f"{name}.py")
    spec = importlib.util.spec_from_file_location(f"tfdist_questions_{path.parent.name}_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def exercises():
    """Names of the graded exercises (``"01_global_batch"``, ...)."""
    return sorted(p.name for p in QUESTIONS_DIR.glob("[0-9][0-9]_*") if p.is_dir())


def load(exercise):
    """The questions of ``exercise`` in order; ValueError for an unknown exercise."""
    folder = QUESTIONS_DIR / exercise
    if exercise not in exercises():
        raise ValueError(f"unknown exercise {exercise!r}; the exercises are: {', '.join(exercises()) or 'none found'}")
    return [Question(path.stem, _import(path, exercise, *_version(path)))
            for path in sorted(folder.glob("q*.py"), key=_natural)]


def questions(exercise):
    """``{question: points possible}`` for ``exercise``."""
    return {q.name: q.possible for q in load(exercise)}


def _version(path):
    """What tells an edited question file from the one already loaded: its time and size."""
    status = path.stat()
    return status.st_mtime_ns, status.st_size


@functools.lru_cache(maxsize=None)
def _import(path, exercise, *version):
    """A question file's module, imported once per version of the file: a class graded in one run
    loads each question once, not once per submission and step (an edited file is loaded again)."""
    spec = importlib.util.spec_from_file_location(f"tfdist_questions_{exercise}_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _natural(path):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", path.name)]
