"""Tests for tfdist_edu.hardware.detection: ``detect()`` and the platform."""

import sys
import types

import tensorflow as tf

from tfdist_edu import hardware


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
