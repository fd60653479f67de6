"""tfdist_edu.loss_scaling.metrics: the metric pitfall, on one device and under a strategy."""

import numpy as np
import pytest

from tfdist_edu import loss_scaling


def test_metric_pitfall_reports_3_5_as_the_loss_and_1_75_from_a_mean_of_scaled_losses():
    pitfall = loss_scaling.metric_pitfall()
    assert pitfall.global_batch == 4
    assert pitfall.scaled == [1.25, 2.25]
    assert pitfall.summed == pytest.approx(3.5)
    assert pitfall.metric_of_scaled == pytest.approx(1.75)
    assert pitfall.metric_of_examples == pytest.approx(3.5)


def test_metric_pitfall_gives_the_same_numbers_under_a_two_replica_strategy(strategy):
    losses = [[2.0, 3.0], [4.0, 5.0], [6.0, 7.0], [8.0, 9.0]][:strategy.num_replicas_in_sync]
    pitfall = loss_scaling.metric_pitfall(losses, strategy=strategy)
    mean = float(np.mean(losses))
    assert pitfall.summed == pytest.approx(mean)
    assert pitfall.metric_of_scaled == pytest.approx(mean / len(losses))
    assert pitfall.metric_of_examples == pytest.approx(mean)


def test_metric_pitfall_refuses_a_strategy_with_another_replica_count(strategy):
    with pytest.raises(ValueError, match="replicas"):
        loss_scaling.metric_pitfall([[1.0]] * (strategy.num_replicas_in_sync + 1), strategy=strategy)
    with pytest.raises(ValueError, match="same"):
        loss_scaling.metric_pitfall([[1.0, 2.0], [3.0]])
