"""Finding the real IDX files: the folders in order, their layouts, and the real Debian files."""

import os

import numpy as np
import pytest

from tfdist_edu import data
from tfdist_edu.data import idx, idx_source, specs
from idx_files import arrays, write

DEBIAN = specs.SPECS["fashion_mnist"].idx_debian


@pytest.mark.skipif(not os.path.isdir(DEBIAN), reason=f"{DEBIAN} is absent: the Debian package "
                    "dataset-fashion-mnist is not installed (scripts/install_datasets.sh)")
def test_the_real_debian_files_read_with_the_right_shapes_counts_and_hash(monkeypatch):
    spec = specs.SPECS["fashion_mnist"]
    train_images, train_labels, test_images, test_labels = idx_source.read(spec, DEBIAN, False)
    assert (train_images.shape, test_images.shape) == ((60_000, 28, 28), (10_000, 28, 28))
    assert list(np.bincount(train_labels)) == [6000] * 10
    assert list(np.bincount(test_labels)) == [1000] * 10
    course = data.load("fashion_mnist", source="idx", num_train=60_000, num_test=10_000)
    assert (course.num_train, course.num_test) == (60_000, 10_000)
    assert course.label == ("Fashion-MNIST, real (IDX files in /usr/share/datasets/"
                            "fashion-mnist), 60000 train examples")
    monkeypatch.setenv("TFDIST_EDU_FAST", "1")
    fast = data.load("fashion_mnist", source="idx")
    assert (fast.num_train, fast.num_test) == data.FAST_SIZES


def test_folders_are_tried_manual_dir_then_variable_then_keras_cache_then_debian(
        no_real_files, monkeypatch):
    monkeypatch.setenv("TFDIST_EDU_FASHION_MNIST_DIR", str(no_real_files / "mine"))
    found = idx_source.folders(specs.SPECS["fashion_mnist"], manual_dir=no_real_files / "manual")
    assert [(folder, named) for folder, _, named in found] == [
        (str(no_real_files / "manual"), True), (str(no_real_files / "mine"), True),
        (str(no_real_files / "keras" / "datasets" / "fashion-mnist"), False),
        (str(no_real_files / "debian"), False)]


def test_the_environment_variable_names_a_folder_of_idx_files(no_real_files, monkeypatch):
    folder = write(no_real_files / "mine")
    monkeypatch.setenv("TFDIST_EDU_FASHION_MNIST_DIR", str(folder))
    course = data.load("fashion_mnist", data_dir=no_real_files / "tfds")
    assert course.source == "idx" and course.location == str(folder)
    assert course.reason.startswith("TFDIST_EDU_FASHION_MNIST_DIR, contents checked")


def test_the_keras_cache_layout_is_found_under_keras_home(no_real_files):
    write(no_real_files / "keras" / "datasets" / "fashion-mnist")
    course = data.load("fashion_mnist", data_dir=no_real_files / "tfds")
    assert course.source == "idx" and course.reason.startswith("Keras cache")


def test_the_keras_cache_defaults_to_the_home_folder(no_real_files, monkeypatch):
    monkeypatch.delenv("KERAS_HOME")
    monkeypatch.setenv("HOME", str(no_real_files / "home"))
    keras_cache = idx_source.folders(specs.SPECS["fashion_mnist"])[0][0]
    assert keras_cache == str(no_real_files / "home" / ".keras" / "datasets" / "fashion-mnist")


def test_plain_uncompressed_files_are_read_too(no_real_files):
    folder = write(no_real_files / "plain", compress=False)
    course = data.load("fashion_mnist", manual_dir=folder, data_dir=no_real_files / "tfds",
                       num_train=60, num_test=20)
    images, labels = next(iter(course.train.batch(60)))
    np.testing.assert_allclose(images.numpy()[..., 0] * 255, arrays()[0], atol=1e-3)
    np.testing.assert_array_equal(labels.numpy(), arrays()[1])


def test_a_named_folder_lacking_files_says_which(no_real_files):
    folder = write(no_real_files / "manual")
    (folder / "t10k-labels-idx1-ubyte.gz").unlink()
    with pytest.raises(idx.IdxFileError, match=r"manual: lacks t10k-labels-idx1-ubyte.gz "):
        idx_source.read(specs.SPECS["fashion_mnist"], folder)


def test_a_named_folder_that_does_not_exist_is_reported(no_real_files):
    with pytest.raises(idx.IdxFileError, match=r"nowhere: not a folder; expected one holding "):
        idx_source.read(specs.SPECS["fashion_mnist"], no_real_files / "nowhere")


def test_an_absent_cache_or_package_folder_is_quietly_passed_over(no_real_files):
    with pytest.raises(idx_source.NoIdxFiles):
        idx_source.read(specs.SPECS["fashion_mnist"], no_real_files / "debian", False)
