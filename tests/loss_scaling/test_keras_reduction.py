"""tfdist_edu.loss_scaling.keras_reduction: what Keras 3's default reduction divides by under a
strategy, as lesson 3 and deck 3 state it."""

import pytest

from tfdist_edu import loss_scaling, models, synthetic


def test_keras_3_default_reduction_divides_by_the_replicas_whenever_a_strategy_is_active(strategy):
    images, labels = synthetic.fashion_mnist(16)
    with strategy.scope():
        model = models.fashion_cnn()
    result = loss_scaling.keras_default_reduction(strategy, model, images / 255, labels)
    assert result.reduction == "sum_over_batch_size" and result.replicas == 2
    assert result.summed_ratio == pytest.approx(1.0, rel=1e-5)
    assert result.in_scope_ratio == pytest.approx(1 / 2, rel=1e-5)
    with strategy.scope(), pytest.raises(RuntimeError, match="outside"):
        loss_scaling.keras_default_reduction(strategy, model, images / 255, labels)
