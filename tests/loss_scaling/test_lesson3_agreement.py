"""Lesson 3 prints its loss-scaling numbers from its own cells; its figures and deck 3 draw them
from ``tfdist_edu.loss_scaling``. The two must agree: the lesson's stored outputs (which nbval
compares with every run) are recomputed here with the package's functions."""

from pathlib import Path

import nbformat

from tfdist_edu import loss_scaling, models, synthetic

LESSON = Path(__file__).resolve().parents[2] / "notebooks" / "03_mirrored_custom_loop.ipynb"


def _stored_output(cell_id):
    cell = next(c for c in nbformat.read(LESSON, as_version=4).cells if c.get("id") == cell_id)
    assert "nbval-check-output" in cell.metadata.get("tags", []), f"{cell_id} is not checked by nbval"
    return "".join(o.get("text", "") for o in cell.outputs)


def test_the_short_batch_rows_of_lesson_3_are_what_short_batch_demo_computes(strategy):
    rows = [f"batch {step}: split {b.split}  fixed {b.losses['fixed']:g}  default "
            f"{b.losses['default']:g}  actual {b.losses['actual']:g}  (true mean {b.true_mean:g})"
            for step, b in enumerate(loss_scaling.short_batch_demo(strategy))]
    assert _stored_output("l03-three-denominators").splitlines() == rows


def test_the_metric_pitfall_of_lesson_3_is_what_metric_pitfall_computes(strategy):
    losses = [[2.0 + 2 * i, 3.0 + 2 * i] for i in range(strategy.num_replicas_in_sync)]
    pitfall = loss_scaling.metric_pitfall(losses, strategy=strategy)
    assert _stored_output("l03-metric-pitfall").splitlines() == [
        f"scaled loss per replica: {[float(s) for s in pitfall.scaled]}",
        f"training loss, strategy.reduce(SUM): {pitfall.summed:g}",
        f"Mean metric fed the scaled losses:   {pitfall.metric_of_scaled:g}",
        f"Mean metric fed per-example losses:  {pitfall.metric_of_examples:g}",
    ]


def test_the_keras_reduction_ratios_of_lesson_3_are_what_keras_default_reduction_measures(strategy):
    images, labels = synthetic.fashion_mnist(16)
    with strategy.scope():
        model = models.fashion_cnn()
    measured = loss_scaling.keras_default_reduction(strategy, model, images / 255, labels)
    lines = _stored_output("l03-keras-default-ratio").splitlines()
    assert lines[1] == f"sum over replicas / one-device loss = {measured.summed_ratio:.3f}"
    assert lines[2] == f"called in strategy.scope() / one-device loss = {measured.in_scope_ratio:.3f}"
