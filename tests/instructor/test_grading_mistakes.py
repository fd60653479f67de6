"""The mistakes the course teaches, planted one at a time in a solution: each must lose points.

One folder is graded once (six notebooks, about 4-6 minutes on two cores). The table printed at
the end (pytest -s) maps each planted mistake to the score it got.
"""

import pytest
from planting import grade_planted, lost_in, planted

from tfdist_instructor.grading import sandbox

TAPE_IN_TEST_STEP = """\
    with tf.GradientTape() as tape:
        logits = model(images, training=False)
        loss = compute_loss(labels, logits, model.losses, GLOBAL_BATCH)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
"""
# name: (exercise, answer cell, text in the solution, wrong text, score, questions that lose points)
MISTAKES = {
    "per-replica reduce_mean loss (gradients N times too large)": (
        "02_custom_loop", "q1-answer",
        "tf.nn.compute_average_loss(per_example_loss, global_batch_size=global_batch_size)",
        "tf.reduce_mean(per_example_loss)", 5.5, ["q1", "q2"]),
    "regularisation not scaled by the replicas": (
        "02_custom_loop", "q1-answer", "tf.nn.scale_regularization_loss(tf.add_n(model_losses))",
        "tf.add_n(model_losses)", 7, ["q1", "q2"]),
    "ReduceOp.MEAN where the loss must be summed": (
        "02_custom_loop", "q2-answer", "ReduceOp.SUM, per_replica_losses", "ReduceOp.MEAN, per_replica_losses",
        9, ["q2"]),
    "globally scaled loss fed to the Mean metric": (
        "02_custom_loop", "q2-answer", "test_loss.update_state(loss_object(labels, logits))",
        "test_loss.update_state(compute_loss(labels, logits, [], GLOBAL_BATCH))", 9.5, ["q2"]),
    "a test step that updates the weights": (
        "02_custom_loop", "q2-answer", "    logits = model(images, training=False)\n", TAPE_IN_TEST_STEP,
        9.5, ["q2"]),
    "model built outside strategy.scope()": (
        "04_multi_worker", "q3-answer", "with strategy.scope():", "if True:  # no strategy.scope()", 6, ["q3"]),
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
    result = graded[name]
    assert result.status == "graded" and result.score == score, (result.score, result.reason)
    assert lost_in(result) == lost

