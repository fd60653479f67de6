"""tfdist_edu.loss_scaling.comparison: the named cases under a strategy against one device,
and the record they return."""

import dataclasses
import json

import keras
import numpy as np
import pytest

from tfdist_edu import loss_scaling, models


@pytest.fixture(scope="module")
def batch(strategy):
    rng = np.random.default_rng(0)
    size = 4 * strategy.num_replicas_in_sync
    return rng.random((size, 28, 28, 1), dtype=np.float32), rng.integers(0, 10, size)


def test_compute_average_loss_gives_single_device_gradients_and_reduce_mean_n_times_them(
        strategy, batch):
    with strategy.scope():
        model = models.fashion_cnn()
    result = loss_scaling.loss_scaling_demo(strategy, model, *batch)
    n = strategy.num_replicas_in_sync
    right, wrong = result.cases["compute_average_loss"], result.cases["reduce_mean"]
    single = result.cases[loss_scaling.SINGLE_DEVICE]
    assert result.replicas == n and result.global_batch == len(batch[0])
    assert len(right.replica_losses) == n and len(single.replica_losses) == 1
    np.testing.assert_allclose(right.grad_norm, single.grad_norm, rtol=1e-5)
    np.testing.assert_allclose(right.total_loss, single.total_loss, rtol=1e-5)
    np.testing.assert_allclose(wrong.grad_norm, n * single.grad_norm, rtol=1e-5)
    np.testing.assert_allclose(wrong.total_loss, n * single.total_loss, rtol=1e-5)
    assert result.ratio("reduce_mean") == pytest.approx(n, rel=1e-5)


def test_scaled_penalty_matches_single_device_and_unscaled_penalty_counts_once_per_replica(
        strategy, batch):
    with strategy.scope():
        model = models.fashion_cnn(l2=1e-2)
    result = loss_scaling.regularization_demo(strategy, model, *batch)
    n = strategy.num_replicas_in_sync
    scaled, unscaled = result.cases["scale_regularization_loss"], result.cases["unscaled penalty"]
    single = result.cases[loss_scaling.SINGLE_DEVICE]
    assert result.kind == "regularization" and result.penalty > 0
    np.testing.assert_allclose(scaled.grad_norm, single.grad_norm, rtol=1e-5)
    np.testing.assert_allclose(scaled.total_loss, single.total_loss, rtol=1e-5)
    np.testing.assert_allclose(unscaled.total_loss - scaled.total_loss, (n - 1) * result.penalty,
                               rtol=1e-4)
    assert unscaled.grad_norm > single.grad_norm * (1 + 1e-3)


def test_result_survives_a_json_round_trip(strategy, batch):
    with strategy.scope():
        model = models.fashion_cnn()
    result = loss_scaling.loss_scaling_demo(strategy, model, *batch)
    record = json.loads(json.dumps(dataclasses.asdict(result)))
    assert loss_scaling.LossScalingResult.from_dict(record) == result


def test_demo_explains_an_uneven_batch_a_reduced_loss_and_a_missing_penalty(strategy, batch):
    images, labels = batch
    with strategy.scope():
        model = models.fashion_cnn()
    with pytest.raises(ValueError, match="does not split evenly"):
        loss_scaling.loss_scaling_demo(strategy, model, images[:-1], labels[:-1])
    with pytest.raises(ValueError, match="reduction=None"):
        loss_scaling.loss_scaling_demo(strategy, model, images, labels,
                                       loss_fn=keras.losses.SparseCategoricalCrossentropy(True))
    with pytest.raises(ValueError, match="weight penalties"):
        loss_scaling.regularization_demo(strategy, model, images, labels)
    with strategy.scope(), pytest.raises(RuntimeError, match="outside"):
        loss_scaling.loss_scaling_demo(strategy, model, images, labels)
