"""Tests for tfdist_edu.dynamic_loss_scale: the mixed-precision loss scale, step by step."""

import pytest

from tfdist_edu import dynamic_loss_scale


def test_loss_scale_grows_after_finite_steps_and_halves_skipping_the_step_at_an_overflow():
    trace = dynamic_loss_scale.loss_scale_trace(steps=10, overflow_steps=(7,), growth_steps=3,
                                          initial_scale=2.0**8)
    assert trace.overflow_steps == [7] and len(trace.scale) == 10
    assert trace.scale[1] == 2.0**8 and trace.scale[2] == 2.0**9  # doubled after 3 finite steps
    assert trace.scale[7] == trace.scale[6] / 2
    assert trace.skipped == [step == 7 for step in range(10)]
    assert trace.loss[8] == trace.loss[7]  # the skipped step changed no weight


def test_loss_scale_trace_refuses_overflow_steps_outside_the_run():
    with pytest.raises(ValueError, match="overflow_steps"):
        dynamic_loss_scale.loss_scale_trace(steps=5, overflow_steps=(5,))
