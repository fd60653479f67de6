"""Exercise 5's hidden tests catch the planted mistakes: each wrong solution loses points.

Each mistake in ``grading_fixtures/ring_planted_mistakes.json`` is one substitution in one
answer cell of the reference solution. Every notebook is graded for real, in its own process,
through the grader's public function (``_grade`` is the one place that calls it).
"""

import json
from pathlib import Path

import nbformat
import pytest

from tfdist_instructor import grading

SPEC = json.loads((Path(__file__).parent / "grading_fixtures" / "ring_planted_mistakes.json").read_text())
EXERCISE = SPEC["exercise"]
SOLUTION = Path(__file__).resolve().parents[2] / "solutions" / EXERCISE / f"{EXERCISE}.ipynb"


def _grade(path):
    """The one call into the grader (being rewritten to run sandboxed): adapt it here only."""
    return grading.grade_submission(path, exercise=EXERCISE, timeout_s=SPEC["timeout_s"])


def _planted(folder, name, edit):
    nb = nbformat.read(SOLUTION, as_version=4)
    cell = next(c for c in nb.cells if c.get("id") == edit["cell"])
    old, new = edit["sub"]
    assert old in cell.source, f"{name}: {old!r} is not in cell {edit['cell']}"
    cell.source = cell.source.replace(old, new)
    path = folder / f"{name}.ipynb"
    nbformat.write(nb, path)
    return path


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ring-mistakes")
    results = {"solution": _grade(SOLUTION)}
    for name, edit in SPEC["mistakes"].items():
        results[name] = _grade(_planted(folder, name, edit))
    return results


@pytest.mark.slow
def test_the_reference_solution_scores_full_marks(graded):
    result = graded["solution"]
    assert (result.status, result.score, result.possible) == ("graded", 10, 10), result


@pytest.mark.slow
@pytest.mark.parametrize("mistake", sorted(SPEC["mistakes"]))
def test_each_planted_mistake_loses_points(graded, mistake):
    result = graded[mistake]
    assert result.status == "graded", result
    assert result.score < graded["solution"].score, (mistake, result.score, result.reason)
