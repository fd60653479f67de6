"""Tests for tfdist_edu.strategy_choice: one decision for strategies.auto() and the chooser widget."""

import pytest
import tensorflow as tf

from tfdist_edu import strategies
from tfdist_edu.strategy_choice import choose


@pytest.mark.parametrize("setup, key", [
    (dict(machines=1, accelerator="cpu"), "default"),
    (dict(machines=1, accelerator="cpu", devices_per_machine=2), "mirrored"),
    (dict(machines=1, accelerator="gpu", devices_per_machine=1), "one_device"),
    (dict(machines=1, accelerator="gpu", devices_per_machine=4), "mirrored"),
    (dict(machines=3, accelerator="gpu", devices_per_machine=2), "multi_worker"),
    (dict(machines=3, accelerator="cpu", sync=False), "parameter_server"),
    (dict(machines=1, accelerator="tpu", sync=False), "tpu"),
])
def test_choose_maps_each_setup_to_a_known_strategy_with_runnable_code(setup, key):
    choice = choose(**setup)
    assert choice.key == key and choice.key in strategies.NAMES
    assert choice.reason and "\n" not in choice.reason
    compile(choice.code, "<strategy code>", "exec")


def test_strategy_code_for_this_machine_builds_that_strategy():
    for setup, expected in ((dict(accelerator="cpu"), tf.distribute.get_strategy()),
                            (dict(accelerator="gpu", devices_per_machine=2), tf.distribute.MirroredStrategy())):
        namespace = {"tf": tf}
        exec(choose(**setup).code, namespace)
        assert type(namespace["strategy"]) is type(expected)


def test_choose_names_the_bad_input():
    with pytest.raises(ValueError, match="accelerator"):
        choose(accelerator="fpga")
    with pytest.raises(ValueError, match="machines"):
        choose(machines=0)
    with pytest.raises(ValueError, match="devices_per_machine"):
        choose(accelerator="gpu", devices_per_machine=0)
