"""Tests for tfdist_edu.hardware.simulated: splitting devices with ``simulate_devices()``.

Splitting devices only works before TensorFlow's runtime starts, and this test process may
already have started it, so the checks that need a fresh runtime run in a child Python.
"""

import pytest
import tensorflow as tf

from tfdist_edu import hardware


@pytest.fixture(scope="module")
def fresh_split(run_fresh):
    """detect(), then simulate_devices(2) twice, then detect() again, in a fresh runtime."""
    return run_fresh(
        """
        import dataclasses, json
        from tfdist_edu import hardware
        before = hardware.detect()
        started_after_detect = hardware.runtime_started()
        names = hardware.simulate_devices(2)
        again = hardware.simulate_devices(2)
        after = hardware.detect()
        print(json.dumps({
            "before": dataclasses.asdict(before), "started_after_detect": started_after_detect,
            "names": names, "again": again,
            "after": dataclasses.asdict(after), "summary": after.summary(),
        }))
        """
    )


def test_detect_before_simulate_devices_does_not_start_the_runtime(fresh_split):
    assert fresh_split["started_after_detect"] is False
    assert fresh_split["before"]["runtime_started"] is False
    assert fresh_split["before"]["logical_devices"] == ["/device:CPU:0"]


def test_simulate_devices_splits_the_cpu_into_n_logical_devices(fresh_split):
    assert fresh_split["names"] == ["/device:CPU:0", "/device:CPU:1"]
    assert fresh_split["after"]["simulated"] is True
    assert fresh_split["after"]["logical_devices"] == fresh_split["names"]
    assert "2 logical CPU devices (simulated)" in fresh_split["summary"]


def test_simulate_devices_twice_with_the_same_n_returns_the_same_devices(fresh_split):
    assert fresh_split["again"] == fresh_split["names"]


@pytest.mark.parametrize("n", [0, -1, 1.5, True, "2"])
def test_simulate_devices_rejects_anything_but_a_whole_number_from_1(n):
    with pytest.raises(ValueError, match="at least 1"):
        hardware.simulate_devices(n)


def test_simulate_devices_rejects_unknown_kind_and_cpu_memory_limit():
    with pytest.raises(ValueError, match="'CPU' or 'GPU'"):
        hardware.simulate_devices(2, kind="TPU")
    with pytest.raises(ValueError, match="kind='GPU' only"):
        hardware.simulate_devices(2, memory_limit_mb=512)


@pytest.mark.skipif(bool(tf.config.list_physical_devices("GPU")), reason="this machine has a GPU")
def test_simulate_devices_on_a_gpu_says_there_is_none():
    with pytest.raises(ValueError, match="no GPU"):
        hardware.simulate_devices(2, kind="GPU")


def test_simulate_devices_after_the_runtime_started_says_restart_first():
    have = len(tf.config.list_logical_devices("CPU"))  # starts the runtime, if nothing did yet
    with pytest.raises(hardware.RuntimeAlreadyStartedError) as caught:
        hardware.simulate_devices(have + 1)
    message = str(caught.value)
    assert isinstance(caught.value, RuntimeError)
    assert "Runtime > Restart session" in message
    assert f"simulate_devices({have + 1}) first, before any other TensorFlow work" in message


def test_simulate_devices_after_start_with_the_current_n_is_harmless():
    names = [d.name for d in tf.config.list_logical_devices("CPU")]
    assert hardware.simulate_devices(len(names)) == names
