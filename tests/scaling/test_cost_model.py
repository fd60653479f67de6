"""Tests for tfdist_edu.cost_model: fits recover known costs, predictions follow the formulas,
and lesson 5 and deck 5 read the published figures from it instead of typing them."""

import ast
import io
import json
import re
import tokenize
from pathlib import Path

import numpy as np
import pytest

from tfdist_edu import cost_model, fitting


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


def test_the_overlapped_step_is_the_larger_of_compute_and_communication_plus_overhead():
    model = _model()
    compute, communication = 0.01 + 0.001 * 64, 6 * 1e-5 + 1.5 * 1e8 / 1e10
    assert model.compute_s(4, 256) == pytest.approx(compute)
    assert model.communication_s(4) == pytest.approx(communication)
    assert model.overlapped_step_s(4, 256) == pytest.approx(max(compute, communication) + 0.002)


def test_the_overlapped_step_never_exceeds_the_additive_one_and_they_meet_on_one_device():
    for shared in (False, True):
        model = _model(shared)
        for n, batch in [(1, 8), (2, 64), (4, 4), (4, 4096)]:
            assert model.overlapped_step_s(n, batch) <= model.step_s(n, batch)
        assert model.overlapped_step_s(1, 64) == pytest.approx(model.step_s(1, 64))


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


# The GPU figures live in cost_model.PUBLISHED only: lesson 5 and deck 5 print what they use.
ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = [ROOT / "notebooks" / "05_by_hand.ipynb", ROOT / "slides" / "05_by_hand.ipynb"]
# A number with a unit, outside `code` and (links): a figure typed as a fact.
FIGURE_IN_TEXT = re.compile(r"(?<![\w.(/-])\d[\d,]*(\.\d+)?\s*(ms|us|µs|s|GB/s|GB|MB|%|M|x|"
                            r"examples|steps|parameters|multiply-adds)(?!\w)")


def _cells(path, kind):
    return [c["source"] if isinstance(c["source"], str) else "".join(c["source"])
            for c in json.loads(path.read_text())["cells"] if c["cell_type"] == kind]


def _literals(source):
    source = "\n".join(l for l in source.splitlines() if not l.lstrip().startswith(("%", "!")))
    return [ast.literal_eval(t.string) for t in tokenize.generate_tokens(io.StringIO(source).readline)
            if t.type == tokenize.NUMBER]


def _is_round(v):  # unit conversions (1e3), counts (2, 4, 8) and batch sizes (powers of two)
    return v == 0 or float(np.log10(abs(v))).is_integer() or (
        float(v).is_integer() and (abs(v) < 10 or (int(abs(v)) & (int(abs(v)) - 1)) == 0))


def _is_published(v):
    values = [f.value for f in cost_model.PUBLISHED.values() if len(f"{f.value:g}".strip("0.")) > 1]
    return any(v == pytest.approx(f * 10.0**k, rel=1e-9) for f in values for k in range(-9, 10))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.parent.name)
def test_markdown_types_no_figures(path):
    for text in _cells(path, "markdown"):
        text = re.sub(r"`[^`]*`|\]\([^)]*\)", "", text)
        assert not FIGURE_IN_TEXT.search(text), (path.name, FIGURE_IN_TEXT.search(text).group())


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.parent.name)
def test_code_reads_published_figures_instead_of_typing_them(path):
    code = _cells(path, "code")
    assert any("cost_model.PUBLISHED" in c for c in code)
    typed = [v for c in code for v in _literals(c) if not _is_round(v) and _is_published(v)]
    assert not typed, (path.name, typed)


def test_deck_types_no_measured_floats_and_lesson_prints_every_figure():
    deck_floats = [v for c in _cells(NOTEBOOKS[1], "code") for v in _literals(c)
                   if isinstance(v, float) and not _is_round(v)]
    assert not deck_floats
    lesson = "\n".join(_cells(NOTEBOOKS[0], "code"))
    assert "for figure in PUBLISHED.values():\n    print(figure)" in lesson
    unread = [key for key in cost_model.PUBLISHED if not re.search(rf"[\"']{key}[\"']", lesson)]
    assert not unread


def test_reduce_to_one_device_is_priced_by_its_root():
    assert cost_model.root_bytes(100.0, 4) == 600.0
    link = cost_model.Link(1e-5, 1e9, algorithm="one device")
    assert link.all_reduce_s(1e6, 4) == pytest.approx(6e-5 + 6e6 / 1e9)
    sizes, ns = [1e4, 1e6, 1e7, 1e4, 1e6, 1e7], [2, 2, 2, 4, 4, 4]
    fitted = cost_model.fit_link(sizes, ns, [link.all_reduce_s(s, n) for s, n in zip(sizes, ns)],
                                 algorithm="one device")
    assert fitted == cost_model.Link(pytest.approx(1e-5), pytest.approx(1e9), "one device")


# Non-negative fits: a time is a sum of costs, none of them negative.

def _planted_bend():
    """Per-example cost that grows with the batch (caches overflow): a straight line through
    these points by plain least squares needs a negative fixed cost."""
    batches = np.array([64.0, 128, 256, 512, 1024])
    return batches, 1e-4 * batches * (1 + batches / 1024)


def test_plain_least_squares_gives_the_planted_data_a_negative_intercept():
    batches, seconds = _planted_bend()
    design = np.stack([np.ones_like(batches), batches], axis=1) / seconds[:, None]
    fixed, _ = np.linalg.lstsq(design, np.ones_like(seconds), rcond=None)[0]
    assert fixed < 0  # the dataset really is one where the unconstrained fit goes below zero


def test_fit_line_keeps_the_fixed_cost_at_zero_or_above_where_least_squares_goes_negative():
    batches, seconds = _planted_bend()
    line = cost_model.fit_line(batches, seconds)
    assert line.fixed >= 0 and line.slope > 0
    assert np.all(line(np.array([0, 1, 8, 16, 4096])) >= 0)


def test_nnls_matches_least_squares_when_the_unconstrained_answer_is_already_non_negative():
    rng = np.random.default_rng(0)
    design = rng.uniform(0.5, 2.0, size=(12, 3))
    truth = np.array([0.3, 1.2, 0.05])
    target = design @ truth + rng.normal(0, 1e-3, 12)
    assert fitting.nnls(design, target) == pytest.approx(np.linalg.lstsq(design, target, rcond=None)[0])


def test_nnls_finds_the_best_fit_among_non_negative_coefficients():
    rng = np.random.default_rng(1)
    design, target = rng.normal(size=(20, 3)), rng.normal(size=20)
    best = fitting.nnls(design, target)
    residual = np.sum((design @ best - target) ** 2)
    assert np.all(best >= 0)
    for _ in range(2000):  # no non-negative point nearby or far fits better
        other = np.abs(best + rng.normal(0, 0.5, 3))
        assert np.sum((design @ other - target) ** 2) >= residual - 1e-12


def test_nnls_refuses_bad_input_with_one_line():
    with pytest.raises(ValueError, match="design and m targets"):
        fitting.nnls(np.ones((3, 2)), np.ones(4))
    with pytest.raises(ValueError, match="finite"):
        fitting.nnls(np.ones((3, 2)), np.array([1.0, np.nan, 2.0]))


def test_fit_line_refuses_a_non_positive_time_or_a_single_point():
    with pytest.raises(ValueError, match="every y must be > 0"):
        cost_model.fit_line([1, 2, 3], [0.1, 0.0, 0.3])
    with pytest.raises(ValueError, match="2 or more"):
        cost_model.fit_line([1], [0.1])


def test_fit_link_never_fits_a_negative_latency_to_noisy_timings():
    sizes, ns = [1e4, 1e6, 1e7, 1e4, 1e6, 1e7], [2, 2, 2, 4, 4, 4]
    link = cost_model.Link(0.0, 5e9, "one device")
    noisy = [link.all_reduce_s(s, n) - 2e-5 for s, n in zip(sizes, ns)]  # a fixed cost over-subtracted
    fitted = cost_model.fit_link(sizes, ns, noisy, algorithm="one device")
    assert fitted.latency_s == 0.0 and 0 < fitted.bandwidth < np.inf
    assert all(fitted.all_reduce_s(s, n) >= 0 for s, n in zip(sizes, ns))


def test_fit_line_with_curvature_recovers_a_cost_per_example_that_grows_with_the_batch():
    batches, seconds = _planted_bend()
    line = cost_model.fit_line(batches, seconds, curvature=True)
    assert line.fixed == pytest.approx(0, abs=1e-9)
    assert line.slope == pytest.approx(1e-4) and line.curvature == pytest.approx(1e-4 / 1024)


def test_shared_cores_with_a_curvature_let_more_replicas_spend_less_compute():
    curved = cost_model.StepModel(cost_model.Line(0.001, 1e-4, 1e-7), cost_model.Link(0, 1e12), 1.0,
                                  shared_cores=True)
    assert curved.compute_s(4, 1024) < curved.compute_s(1, 1024)  # 4 x 256 costs less than 1024
    straight = cost_model.StepModel(cost_model.Line(0.001, 1e-4), cost_model.Link(0, 1e12), 1.0,
                                    shared_cores=True)
    assert straight.compute_s(4, 1024) > straight.compute_s(1, 1024)  # four fixed costs instead of one


def test_reaches_inverts_the_line_with_or_without_curvature():
    for line in (cost_model.Line(0.002, 1e-4), cost_model.Line(0.002, 1e-4, 3e-7)):
        b = line.reaches(0.01)
        assert float(line(b)) == pytest.approx(0.01)
    assert cost_model.Line(0.002, 1e-4).reaches(0.001) == 0.0
    assert cost_model.Line(0.002, 0.0).reaches(0.01) is None
