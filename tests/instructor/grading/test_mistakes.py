"""The mistakes the course teaches, planted one at a time in a solution: each must lose points.

One folder is graded once (six notebooks, about 4-6 minutes on two cores). The table printed at
the end (pytest -s) maps each planted mistake to the score it got; each mistake's feedback and
CSV row must name it with the factor the grader measured.
"""

import pytest

from tfdist_instructor.grading import sandbox
from tfdist_instructor.sample_class.mistakes import MISTAKES
from tfdist_instructor.sample_class.planting import assert_diagnosed, grade_planted, lost_in, planted

FACTOR = r"\d+\.\d\dx"  # a measured factor, e.g. 2.00x
# name: what its feedback and CSV row must say (regular expressions): the measured factor, the mistake
DIAGNOSES = {
    "per-replica reduce_mean loss (gradients N times too large)": [
        "the sum of your replicas' losses is 2.00x the one-device loss: each replica averaged over its own slice",
        f"your train step's loss is {FACTOR} the one-device loss: each replica averaged over its own slice"],
    "regularisation not scaled by the replicas": [
        "the regularisation in your loss is 2.00x the model's regularisation loss: the regularisation loss was added "
        "in full on every replica",
        f"your train step's loss is {FACTOR} the one-device loss: the regularisation loss was added in full"],
    "ReduceOp.MEAN where the loss must be summed": [
        r"your train step's loss is 0.50x the one-device loss: strategy.reduce with ReduceOp.MEAN averaged"],
    "globally scaled loss fed to the Mean metric": [
        f"your test loss is {FACTOR} the one-device loss: the Mean metric was given each replica's loss already "
        "divided by the global batch"],
    "a test step that updates the weights": [
        rf"your test step changed the weights by up to \S+ \({FACTOR} of the largest weight\): the test step took "
        "a training step"],
    "model built outside strategy.scope()": [
        r"worker \d exited with status 1 and the launch cell raised WorkerFailed: the model and optimizer were built "
        r"outside strategy.scope\(\)"],
}

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(sandbox.unavailable() is not None, reason=f"no sandbox: {sandbox.unavailable()}")]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    notebooks = {name: planted(exercise, cell, right, wrong)
                 for name, (exercise, cell, right, wrong, *_) in MISTAKES.items()}
    return grade_planted(tmp_path_factory, notebooks, timeout_s=600)


@pytest.mark.parametrize("name", list(MISTAKES))
def test_each_taught_mistake_loses_points(graded, name):
    *_, score, lost = MISTAKES[name]
    result = graded[0][name]
    assert result.status == "graded" and result.score == score, (result.score, result.reason)
    assert lost_in(result) == lost


@pytest.mark.parametrize("name", list(MISTAKES))
def test_each_taught_mistake_is_named_with_its_measured_factor_in_feedback_and_csv(graded, name):
    results, out = graded
    assert_diagnosed(results[name], out, DIAGNOSES[name])


def test_a_hint_never_asks_for_what_the_answer_already_does(graded):
    """The per-replica reduce_mean answer scales its regularisation with tf.nn.scale_regularization_loss
    (the solution's line, untouched): its failed regularisation case says what is wrong (each
    replica averaged over its own slice), and never tells it to use the function it already calls."""
    results, out = graded
    result = results["per-replica reduce_mean loss (gradients N times too large)"]
    failed = next(t for t in result.tests if t["case"] == "regularisation_counted_once")
    assert not failed["passed"] and failed["hint"] == "" and "own slice" in failed["diagnosis"]
    assert "use tf.nn.scale_regularization_loss" not in (out / "feedback" / f"{result.student}.md").read_text()
    untouched = results["regularisation not scaled by the replicas"]  # this one does not call it: the hint stays
    kept = next(t for t in untouched.tests if t["case"] == "regularisation_counted_once")
    assert "scale_regularization_loss" in kept["hint"]
