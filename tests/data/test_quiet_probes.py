"""Finding the data prints nothing of TensorFlow's own: no absl "Variant folder" warning from
probing an unprepared TFDS folder, no AutoGraph warning when a dataset_fn inside a tf.function
(a parameter-server coordinator's per-worker dataset) calls ``data.load``."""

import json
import logging

import pytest
import tensorflow as tf

from tfdist_edu import data
from tfdist_edu.data import specs, tfds_source
from idx_files import write


@pytest.fixture
def logged(caplog):
    caplog.set_level(logging.DEBUG)
    return caplog


def test_asking_whether_tfds_prepared_a_dataset_warns_about_no_folder(tmp_path, logged):
    half_made = tmp_path / "fashion_mnist" / "3.0.1"
    half_made.mkdir(parents=True)  # what an interrupted download leaves
    for data_dir in (tmp_path, tmp_path / "never-made"):
        is_prepared, folder = tfds_source.prepared(specs.SPECS["fashion_mnist"], str(data_dir))
        assert not is_prepared and folder.endswith("fashion_mnist/3.0.1")
    warned = [r.getMessage() for r in logged.records if r.levelno >= logging.WARNING]
    assert not warned, warned


def test_a_folder_with_its_dataset_info_counts_as_prepared(tmp_path):
    folder = tmp_path / "fashion_mnist" / "3.0.1"
    folder.mkdir(parents=True)
    (folder / "dataset_info.json").write_text(json.dumps({"name": "fashion_mnist", "version": "3.0.1"}))
    assert tfds_source.prepared(specs.SPECS["fashion_mnist"], str(tmp_path))[0]


def test_a_dataset_fn_traced_by_a_tf_function_calls_load_without_autograph_warnings(
        no_real_files, logged):
    write(no_real_files / "debian")  # load looks for them with os.path.isfile and isdir

    @tf.function
    def first_labels():
        course = data.load("fashion_mnist", source="auto", num_train=16, num_test=16)
        return next(iter(course.train.batch(8)))[1]

    assert first_labels().shape == (8,)
    autograph = [r.getMessage() for r in logged.records if "AutoGraph" in r.getMessage()]
    assert not autograph, autograph[:1]
