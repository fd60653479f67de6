"""tfdist_edu.plots.replica_loss: the loss-scaling and metric-pitfall figures."""

import numpy as np
import pytest

from figure_checks import all_text, saved
from tfdist_edu import loss_scaling, models, plots


def _bar_tops(ax):
    return [p.get_y() + p.get_height() for p in ax.patches]


def test_loss_scaling_figure_plots_equal_norms_for_a_and_c_and_n_times_for_b(strategy, tmp_path):
    n = strategy.num_replicas_in_sync
    rng = np.random.default_rng(1)
    with strategy.scope():
        model = models.fashion_cnn()
    result = loss_scaling.loss_scaling_demo(
        strategy, model, rng.random((4 * n, 28, 28, 1), dtype=np.float32), rng.integers(0, 10, 4 * n))
    fig = plots.plot_loss_scaling(result)
    loss_ax, grad_ax = fig.axes
    a, b, c = [p.get_height() for p in grad_ax.patches]
    np.testing.assert_allclose(a, c, rtol=1e-5)
    np.testing.assert_allclose(b, n * c, rtol=1e-5)
    stacked = _bar_tops(loss_ax)  # n stacked replica losses per case, then the single device
    np.testing.assert_allclose([stacked[n - 1], stacked[2 * n - 1], stacked[-1]],
                               [result.cases[k].total_loss for k in result.cases], rtol=1e-6)
    assert f"{n:.2f} x single device" in all_text(fig)
    saved(fig, tmp_path)


def test_regularization_figure_lists_the_code_of_each_case_and_the_penalty(tmp_path):
    case = loss_scaling.Case
    result = loss_scaling.LossScalingResult(
        "regularization", 2, 8,
        {"scale_regularization_loss": case("scaled code", [1.5, 1.5], 3.0, 0.5),
         "unscaled penalty": case("raw code", [2.0, 2.0], 4.0, 0.6),
         loss_scaling.SINGLE_DEVICE: case("reference code", [3.0], 3.0, 0.5)}, penalty=1.0)
    fig = plots.plot_loss_scaling(result)
    assert [p.get_height() for p in fig.axes[1].patches] == [0.5, 0.6, 0.5]
    text = all_text(fig)
    assert "scaled code" in text and "raw code" in text and "= 1.0000" in text
    saved(fig, tmp_path)


def test_metric_pitfall_figure_shows_3_5_against_1_75(tmp_path):
    fig = plots.plot_metric_pitfall(loss_scaling.metric_pitfall())
    assert _bar_tops(fig.axes[0]) == pytest.approx([1.25, 3.5, 1.75, 3.5])
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "3.5" in texts and "1.75" in texts
    saved(fig, tmp_path)
