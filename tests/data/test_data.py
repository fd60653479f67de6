"""Tests for tfdist_edu.data.load: arguments, the stand-in, TFDS, and the offline fallback.

No test reaches the internet (see conftest.py).
"""

import time

import keras
import numpy as np
import pytest
import tensorflow as tf
import tensorflow_datasets as tfds

from tfdist_edu import data, models

UNREACHABLE = "192.0.2.1"  # TEST-NET-1, as in conftest.py: never answers


def test_an_unknown_dataset_name_lists_the_valid_names():
    with pytest.raises(ValueError, match="fashion_mnist, svhn"):
        data.load("mnist", source="synthetic")


def test_an_unknown_source_lists_the_valid_sources():
    with pytest.raises(ValueError, match="auto, idx, tfds, synthetic"):
        data.load("svhn", source="kaggle")


@pytest.mark.parametrize("size", [0, -5, 2.0, True])
def test_a_bad_split_size_is_refused(size):
    with pytest.raises(ValueError, match="num_train must be a positive integer"):
        data.load("svhn", source="synthetic", num_train=size)


def test_forced_synthetic_data_is_labelled_synthetic():
    course = data.load("fashion_mnist", source="synthetic", num_train=64, num_test=32)
    assert course.source == "synthetic"
    assert course.describe() == ("Fashion-MNIST: SYNTHETIC stand-in (forced by "
                                 "source='synthetic'), 64 train / 32 test, 28x28x1, 10 classes")


def test_the_environment_variable_forces_the_source(monkeypatch):
    monkeypatch.setenv("TFDIST_EDU_DATA", "synthetic")
    course = data.load("svhn", num_train=32, num_test=16)
    assert course.source == "synthetic" and "TFDIST_EDU_DATA=synthetic" in course.reason


@pytest.mark.parametrize("name, shape", [("fashion_mnist", (28, 28, 1)), ("svhn", (32, 32, 3))])
def test_synthetic_splits_are_float_images_in_unit_range_with_int64_labels(name, shape):
    course = data.load(name, source="synthetic", num_train=100, num_test=40)
    assert (course.image_shape, course.num_classes, len(course.class_names)) == (shape, 10, 10)
    for split, size in ((course.train, 100), (course.test, 40)):
        images, labels = next(iter(split.batch(1000)))
        assert images.shape == (size, *shape) and images.dtype == tf.float32
        assert labels.dtype == tf.int64 and set(labels.numpy()) <= set(range(10))
        assert 0.0 <= float(tf.reduce_min(images)) and float(tf.reduce_max(images)) <= 1.0
    assert (course.num_train, course.num_test) == (100, 40)


def test_train_and_test_splits_hold_different_images():
    course = data.load("fashion_mnist", source="synthetic", num_train=50, num_test=50)
    train, _ = next(iter(course.train.batch(50)))
    test, _ = next(iter(course.test.batch(50)))
    assert not np.allclose(train.numpy(), test.numpy())


def test_fast_mode_shrinks_the_default_sizes(monkeypatch):
    monkeypatch.setenv("TFDIST_EDU_FAST", "1")
    course = data.load("fashion_mnist", source="synthetic")
    assert (course.num_train, course.num_test) == data.FAST_SIZES


def test_network_probe_gives_up_within_its_timeout():
    start = time.perf_counter()
    assert data.network_available(host=UNREACHABLE, timeout=0.5) is False
    assert time.perf_counter() - start < 1.5


def test_forced_tfds_offline_fails_fast_with_a_clear_message(offline, tmp_path):
    start = time.perf_counter()
    with pytest.raises(data.DataUnavailableError, match="offline.*manual_dir=.*source='synthetic'"):
        data.load("svhn", source="tfds", data_dir=tmp_path)
    assert time.perf_counter() - start < 5


def test_auto_offline_falls_back_to_synthetic_within_5_seconds(offline, no_real_files, capsys):
    start = time.perf_counter()
    course = data.load("fashion_mnist", source="auto", data_dir=no_real_files / "tfds",
                       num_train=64, num_test=32)
    elapsed = time.perf_counter() - start
    assert course.source == "synthetic" and course.reason.startswith("offline")
    assert "SYNTHETIC" in capsys.readouterr().out
    assert elapsed < 5, f"auto fallback took {elapsed:.1f} s"


def test_available_source_says_synthetic_and_why_when_offline(offline, tmp_path):
    assert data.available_source("svhn", data_dir=tmp_path).startswith("synthetic (offline: ")


def test_auto_offline_reports_missing_manual_files(offline, tmp_path):
    (tmp_path / "train_32x32.mat").touch()
    course = data.load("svhn", source="auto", data_dir=tmp_path, manual_dir=tmp_path,
                       num_train=8, num_test=8)
    assert "manual_dir lacks test_32x32.mat, extra_32x32.mat" in course.reason


@pytest.mark.parametrize("name, shape", [("fashion_mnist", (28, 28, 1)), ("svhn", (32, 32, 3))])
def test_tfds_code_path_loads_supervised_splits_scaled_to_unit_range(online, tmp_path, name,
                                                                     shape):
    with tfds.testing.mock_data(num_examples=24):
        course = data.load(name, source="tfds", data_dir=tmp_path)
    assert course.source == "tfds" and f"{shape[0]}x" in course.describe()
    assert course.label.startswith(f"{course.title}, real (TFDS ")
    assert (course.num_train, course.num_test) == (24, 24)
    images, labels = next(iter(course.train.batch(24)))
    assert images.shape == (24, *shape) and images.dtype == tf.float32
    assert labels.dtype == tf.int64
    assert 0.0 <= float(tf.reduce_min(images)) and float(tf.reduce_max(images)) <= 1.0


def test_official_svhn_files_in_manual_dir_go_to_tfds_without_network(offline, tmp_path):
    for file in ("train_32x32.mat", "test_32x32.mat", "extra_32x32.mat"):
        (tmp_path / file).touch()
    with tfds.testing.mock_data(num_examples=8):
        course = data.load("svhn", source="auto", data_dir=tmp_path, manual_dir=tmp_path)
    assert course.source == "manual_dir"
    assert "SVHN: real (TFDS svhn_cropped from manual_dir)" in course.describe()


@pytest.mark.slow
def test_fashion_cnn_beats_80_percent_on_synthetic_fashion_mnist():
    keras.utils.set_random_seed(0)
    course = data.load("fashion_mnist", source="synthetic", num_train=6000, num_test=1000)
    model = models.for_data(course)
    model.compile(optimizer=keras.optimizers.Adam(1e-3), metrics=["accuracy"],
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    start = time.perf_counter()
    model.fit(data.batches(course.train, 64), epochs=3, verbose=0)
    _, accuracy = model.evaluate(data.batches(course.test, 256, shuffle=False), verbose=0)
    assert accuracy > 0.8
    assert time.perf_counter() - start < 60


def test_short_label_names_the_origin_for_figures():
    course = data.load("fashion_mnist", source="synthetic", num_train=64, num_test=16)
    assert course.label == "Fashion-MNIST, SYNTHETIC stand-in, 64 train examples"
