"""The mistakes the course teaches, each planted as one substitution in one answer cell of a
solution, with the score the grader must give it; and answers that delegate to a course helper
(which score 0 for their question). tests/instructor/grading/ grades them and checks each score
and diagnosis; ``class_mix`` puts them in a sample class.
"""

import json
from pathlib import Path

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

# Exercise 5's: {"exercise", "timeout_s", "mistakes": {name: {"cell", "sub": [right, wrong], "score",
# "lost_in", "diagnosis"}}}.
RING = json.loads((Path(__file__).with_name("ring_planted_mistakes.json")).read_text())

# Answers that call the course helper the question asks the student to write.
SPLIT_BY_HELPER = """\
from tfdist_edu.batching import split_batch as cut


def replica_batch_sizes(batch, num_replicas):
    return cut(batch, num_replicas)
"""
LINK = """\
from tfdist_edu import cost_model


def all_reduce_seconds(size_bytes, n, latency_s, bandwidth):
    return cost_model.Link(latency_s, bandwidth).all_reduce_s(size_bytes, n)


def predict_step_seconds(n, global_batch, fixed_s, per_example_s, size_bytes, latency_s, bandwidth):
    return fixed_s + per_example_s * global_batch / n + all_reduce_seconds(size_bytes, n, latency_s, bandwidth)
"""
