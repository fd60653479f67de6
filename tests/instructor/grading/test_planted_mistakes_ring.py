"""Exercise 5's planted mistakes each lose the points of the questions they break; the solution
scores full marks.

Each mistake in ``tfdist_instructor/sample_class/ring_planted_mistakes.json`` is one substitution in one answer
cell of the reference solution, with the score it must get, the questions that lose points, and
the diagnosis (the measured factor and the mistake's name) its feedback and CSV row must show.
The solution and the five mistakes are graded in one folder, sandboxed, like a class's
submissions (about a minute on two cores); pytest -s prints the score table.
"""

import pytest

from tfdist_instructor.grading import sandbox
from tfdist_instructor.sample_class.mistakes import RING as SPEC
from tfdist_instructor.sample_class.planting import assert_diagnosed, grade_planted, lost_in, planted, solution

EXERCISE = SPEC["exercise"]
NO_MISTAKE = "none (the reference solution)"

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(sandbox.unavailable() is not None, reason=f"no sandbox: {sandbox.unavailable()}")]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    notebooks = {NO_MISTAKE: solution(EXERCISE)}
    notebooks.update({name: planted(EXERCISE, m["cell"], *m["sub"]) for name, m in SPEC["mistakes"].items()})
    return grade_planted(tmp_path_factory, notebooks, SPEC["timeout_s"])


def test_the_reference_solution_scores_full_marks(graded):
    result = graded[0][NO_MISTAKE]
    assert (result.status, result.score, result.possible) == ("graded", 10, 10), result.reason


@pytest.mark.parametrize("mistake", list(SPEC["mistakes"]))
def test_each_planted_mistake_loses_the_points_of_the_questions_it_breaks(graded, mistake):
    expected, result = SPEC["mistakes"][mistake], graded[0][mistake]
    assert (result.status, result.score) == ("graded", expected["score"]), result.reason
    assert lost_in(result) == expected["lost_in"]


@pytest.mark.parametrize("mistake", list(SPEC["mistakes"]))
def test_each_planted_mistake_is_named_with_its_measured_factor_in_feedback_and_csv(graded, mistake):
    results, out = graded
    assert_diagnosed(results[mistake], out, SPEC["mistakes"][mistake]["diagnosis"])


def test_the_reference_solution_has_no_diagnosis(graded):
    results, out = graded
    assert results[NO_MISTAKE].diagnoses == []
