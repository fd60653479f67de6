"""A hint never tells a student to do what the submission already does, and an answer that computed
nothing is said to be 0, not "0.00x" of the reference."""

import nbformat

from tfdist_instructor.grading import catalog, diagnosis, hints, report
from tfdist_instructor.grading.result import GradeResult

USES_SCALE = '''\
def compute_loss(labels, logits, model_losses, global_batch_size):
    per_example = loss_object(labels, logits)
    loss = tf.reduce_mean(per_example)  # the mistake: this replica's own mean
    if model_losses:
        loss += tf.nn.scale_regularization_loss(tf.add_n(model_losses))
    return loss
'''


def _regularisation_case():
    q1 = next(q for q in catalog.load("02_custom_loop") if q.name == "q1")
    return next(c for c in q1.cases if c.name == "regularisation_counted_once")


def _failed(hint, question="q1"):
    return {"question": question, "case": "c", "hidden": True, "passed": False, "points": 1.5, "message": "",
            "hint": hint, "diagnosis": "your regularised loss is 1.93x the one-device loss: each replica averaged "
                                       "over its own slice"}


def test_the_scale_regularization_hint_is_not_shown_to_an_answer_that_calls_it():
    hint = _regularisation_case().hint
    assert "tf.nn.scale_regularization_loss" in hint  # the question's own hint, as written
    cells = [nbformat.v4.new_code_cell(USES_SCALE)]
    cells[0]["id"] = "q1-answer"
    tests = hints.prune([_failed(hint)], cells, {"q1-answer": "q1"})
    line = report._case_line(tests[0])
    assert "scale_regularization_loss" not in line and "each replica averaged over its own slice" in line


def test_the_hint_stays_for_an_answer_that_does_not_call_it_or_only_mentions_it_in_a_comment():
    hint = _regularisation_case().hint
    for source in ("def compute_loss(l, z, m, g):\n    return tf.reduce_mean(loss_object(l, z)) + tf.add_n(m)\n",
                   "def compute_loss(l, z, m, g):  # tf.nn.scale_regularization_loss(...) later\n    return 0\n"):
        cell = nbformat.v4.new_code_cell(source)
        cell["id"] = "q1-answer"
        assert hints.prune([_failed(hint)], [cell], {"q1-answer": "q1"})[0]["hint"] == hint


def test_only_the_answer_cells_of_the_hints_question_count():
    hint = _regularisation_case().hint
    other = nbformat.v4.new_code_cell(USES_SCALE)
    other["id"] = "q2-answer"
    mine = nbformat.v4.new_code_cell("def compute_loss(l, z, m, g):\n    return 0\n")
    mine["id"] = "q1-answer"
    assert hints.prune([_failed(hint)], [mine, other], {"q1-answer": "q1", "q2-answer": "q2"})[0]["hint"] == hint


def test_an_answer_that_computed_nothing_is_said_to_be_0_not_a_factor():
    said = diagnosis.explain("your test loss", 0.0, 2.31, "the one-device loss", [(0.58, "scaled")])
    assert said == "your test loss is 0: the code that should compute it did not run, or never updated it"
    assert "0.00x" not in said
    assert diagnosis.explain("x", 0.0, 2.0, "y", [(0.0, "the zero mistake")]) == "x is 0.00x y: the zero mistake"
    assert diagnosis.explain("x", 4.0, 2.0, "y") == "x is 2.00x y"


def test_the_feedback_of_a_hidden_failed_case_keeps_hint_and_diagnosis_when_both_apply():
    result = GradeResult(student="s", file="s.ipynb", exercise="02_custom_loop", possible_by_question={"q1": 1.5},
                         tests=[_failed("divide by the global batch")])
    assert "failed: your regularised loss is 1.93x" in report.feedback(result)
    assert "divide by the global batch" in report.feedback(result)
