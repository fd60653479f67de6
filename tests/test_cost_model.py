"""Tests for tfdist_edu.cost_model: fits recover known costs, predictions follow the formulas."""

import numpy as np
import pytest

from tfdist_edu import cost_model


def test_ring_moves_two_n_minus_one_over_n_of_the_bytes():
    assert cost_model.ring_bytes_per_device(100.0, 2) == 100.0
    assert cost_model.ring_bytes_per_device(100.0, 4) == 150.0
    assert cost_model.ring_bytes_per_device(100.0, 1) == 0.0


def test_fit_line_recovers_a_fixed_and_a_per_example_cost():
    batches = np.array([8, 16, 32, 64, 128])
    line = cost_model.fit_line(batches, 0.002 + 0.0001 * batches)
    assert line.fixed == pytest.approx(0.002) and line.slope == pytest.approx(0.0001)
    assert line(10) == pytest.approx(0.003)


def test_fit_link_recovers_latency_and_bandwidth_from_ring_timings():
    link = cost_model.Link(latency_s=5e-5, bandwidth=2e9)
    sizes, ns = [1e4, 1e6, 1e7, 1e4, 1e6, 1e7], [2, 2, 2, 4, 4, 4]
    fitted = cost_model.fit_link(sizes, ns, [link.all_reduce_s(s, n) for s, n in zip(sizes, ns)])
    assert fitted.latency_s == pytest.approx(5e-5) and fitted.bandwidth == pytest.approx(2e9)


def test_one_device_needs_no_all_reduce():
    assert cost_model.Link(1e-5, 1e9).all_reduce_s(1e8, 1) == 0.0


def _model(shared=False):
    return cost_model.StepModel(cost_model.Line(0.01, 0.001), cost_model.Link(1e-5, 1e10),
                                gradient_bytes=1e8, step_overhead_s={4: 0.002}, shared_cores=shared)


def test_step_is_compute_plus_all_reduce_plus_overhead_on_real_devices():
    expected = (0.01 + 0.001 * 256 / 4) + (6 * 1e-5 + 1.5 * 1e8 / 1e10) + 0.002
    assert _model().step_s(4, 256) == pytest.approx(expected)


def test_shared_cores_make_replicas_take_turns():
    model = _model(shared=True)
    assert model.step_s(4, 256) - model.link.all_reduce_s(1e8, 4) - 0.002 == pytest.approx(4 * (0.01 + 0.064))


def test_speedup_compares_the_same_global_batch_on_one_and_on_n_devices():
    model = _model()
    assert model.speedup(4, 64) == pytest.approx(model.step_s(1, 256) / model.step_s(4, 256))
    assert model.efficiency(4, 64) == pytest.approx(model.speedup(4, 64) / 4)
    assert model.throughput(4, 256) == pytest.approx(256 / model.step_s(4, 256))


def test_smallest_batch_where_devices_pay_grows_with_the_efficiency_asked():
    model = _model()
    any_gain, good = model.smallest_batch(4), model.smallest_batch(4, efficiency=0.8)
    assert any_gain is not None and good is not None and any_gain <= good
    assert model.speedup(4, good) >= 3.2
    fixed_only = cost_model.StepModel(cost_model.Line(0.01, 0.0), cost_model.Link(1e-3, 1e6), 1e8)
    assert fixed_only.smallest_batch(4) is None  # all fixed cost: splitting the batch never pays


def test_relative_errors_are_signed():
    assert list(cost_model.relative_errors([11, 9], [10, 10])) == pytest.approx([0.1, -0.1])
