"""Fixtures of the figure tests: three timed runs, and a mirrored strategy on the 2 logical CPUs."""

import pytest

from figure_checks import run_timing
from tfdist_edu import strategies


@pytest.fixture(scope="module")
def runs():
    return [run_timing("default fit", "default", 1, 32, [3.0, 1.0, 1.2], [0.5, 0.7, 0.8]),
            run_timing("mirrored fit", "mirrored", 2, 64, [5.0, 1.5, 1.5], [0.45, 0.65, 0.75]),
            run_timing("mirrored ctl", "mirrored", 2, 128, [4.0, 1.25, 1.25], [0.4, 0.6, 0.72])]


@pytest.fixture(scope="module")
def strategy():
    strategy = strategies.make("mirrored")
    assert strategy.num_replicas_in_sync >= 2, "tests/conftest.py should provide 2 logical CPUs"
    return strategy
