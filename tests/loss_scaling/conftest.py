"""Fixtures of the loss-scaling tests: a mirrored strategy on the 2 logical CPUs."""

import pytest

from tfdist_edu import strategies


@pytest.fixture(scope="module")
def strategy():
    strategy = strategies.make("mirrored")
    assert strategy.num_replicas_in_sync == 2, "tests/conftest.py should provide 2 logical CPUs"
    return strategy
