"""Tests for tfdist_edu.hardware.

Splitting devices only works before TensorFlow's runtime starts, and this test process may
already have started it, so the checks that need a fresh runtime run in a child Python.
"""

import sys
import types

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


def make_report(**changes):
    fields = dict(
        platform="local", python="3.11.7", tensorflow="2.21.0", keras="3.15.1", tpu=None,
        gpus=[], cpu_cores=2, logical_devices=["/device:CPU:0", "/device:CPU:1"],
        simulated=True, runtime_started=True,
    )
    return hardware.HardwareReport(**{**fields, **changes})


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


def test_connect_tpu_without_a_tpu_says_how_to_get_one_on_colab():
    with pytest.raises(hardware.NoTPUError) as caught:
        hardware.connect_tpu()
    assert "Runtime > Change runtime type > TPU" in str(caught.value)
    assert "pip install tensorflow-tpu" in str(caught.value)


def test_detect_reports_versions_cpus_and_no_accelerator_here():
    import keras

    report = hardware.detect(probe_tpu=True)
    assert (report.tensorflow, report.keras) == (tf.__version__, keras.__version__)
    assert report.python.count(".") == 2 and report.platform == "local"
    assert report.cpu_cores >= 1 and report.tpu is None and report.notes == []
    assert "/device:CPU:0" in report.logical_devices
    assert len(report.gpus) == len(tf.config.list_physical_devices("GPU"))


def test_platform_name_recognises_colab_and_kaggle(monkeypatch):
    monkeypatch.delenv("KAGGLE_KERNEL_RUN_TYPE", raising=False)
    monkeypatch.delitem(sys.modules, "google.colab", raising=False)
    assert (hardware.is_colab(), hardware.platform_name()) == (False, "local")
    monkeypatch.setenv("KAGGLE_KERNEL_RUN_TYPE", "Interactive")
    assert hardware.platform_name() == "Kaggle"
    monkeypatch.setitem(sys.modules, "google.colab", types.ModuleType("google.colab"))
    assert (hardware.is_colab(), hardware.platform_name()) == (True, "Colab")


def test_summary_labels_simulated_cpus():
    expected = "2 CPU cores, 2 logical CPU devices (simulated), no GPU, no TPU"
    assert make_report().summary() == expected


def test_summary_labels_split_gpu_and_tpu():
    gpu = hardware.GPUInfo("NVIDIA T4", "7.5", memory_limits_mb=[1024, 1024])
    report = make_report(
        gpus=[gpu], tpu="8 TPU cores",
        logical_devices=["/device:CPU:0", "/device:GPU:0", "/device:GPU:1"],
    )
    assert report.summary() == (
        "2 CPU cores, 1 logical CPU device, 1 GPU (NVIDIA T4) as 2 logical GPUs (simulated), "
        "TPU: 8 TPU cores"
    )
    assert str(gpu) == (
        "NVIDIA T4, compute capability 7.5, split into 2 logical GPUs of 1024 MB, 1024 MB"
    )


def test_report_renders_as_text_and_escaped_html_tables():
    report = make_report(notes=["a <note>"])
    text = str(report).splitlines()
    assert text[0].split() == ["Platform", "local"]
    assert "Logical devices" in text[7] and text[7].endswith("(simulated)")
    assert text[-1].split(None, 1) == ["Note", "a <note>"]
    page = report._repr_html_()
    assert page.startswith("<table>") and page.count("<tr>") == len(text)
    assert "a &lt;note&gt;" in page and report.summary() in page
