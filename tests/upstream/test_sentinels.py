"""Sentinels: each upstream bug the course works around, reproduced; a test fails the day it is fixed.

A passing sentinel means the bug is still there and the lesson's workaround is still needed.
A failing one names the upstream issue and the places in the course to update, so a lesson
never keeps explaining a bug that a release has fixed. Bugs that need a cluster are reproduced
by the support matrix (tests/instructor/test_compat.py, the sentinels there). The whole list,
with where each workaround lives: docs/upstream.md. `make upstream-canary` runs these against
the newest TensorFlow and Keras on the registry, or (NIGHTLY=1) their nightlies. Versions are
read from the modules (``keras.__version__``), as the nightlies' distributions are named
tf-nightly and keras-nightly.
"""
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).parent / "scripts"


def _run(script):
    result = subprocess.run([sys.executable, str(SCRIPTS / script)], capture_output=True,
                            text=True, timeout=300)
    return result.returncode, result.stdout + result.stderr


def versions():
    """(TensorFlow, Keras) versions of the modules this process imports, whatever the
    distributions providing them are called (tensorflow or tf-nightly, keras or keras-nightly)."""
    import keras
    import tensorflow as tf

    return tf.__version__, keras.__version__


def _fixed(issue, what, where):
    tensorflow, keras = versions()
    return (f"{issue} looks fixed on TensorFlow {tensorflow} / Keras {keras}: {what}. "
            f"Update {where}, then this sentinel.")


@pytest.mark.slow
def test_tensorflow_62790_a_second_mirrored_strategy_still_breaks_the_collectives():
    code, output = _run("second_mirrored_strategy.py")
    assert code != 0 and "Shape mismatch in the collective instance" in output, _fixed(
        "tensorflow/tensorflow#62790", "a second MirroredStrategy() in one process trained",
        "tfdist_edu/strategies.py (fresh collective keys), lessons 2-5 and deck 2")


@pytest.mark.slow
def test_keras_19246_steps_per_execution_still_fails_under_mirrored_strategy():
    code, output = _run("steps_per_execution_mirrored.py")
    assert code != 0 and "multi_step_on_iterator" in output, _fixed(
        "keras-team/keras#19246", "fit(steps_per_execution=2) under MirroredStrategy trained",
        "lesson 4 (steps_per_execution) and deck 4")


def test_tensorflow_the_strategies_device_pipelines_still_run_autotuning_whatever_the_input_says(
        run_fresh):
    """No public option reaches the per-device pipelines of OneDeviceStrategy and MirroredStrategy:
    they autotune (and their tuning thread can hold a finished call) although the input says no."""
    seen = run_fresh(
        """
        import json
        import tensorflow as tf
        from tensorflow.python.data.ops import multi_device_iterator_ops as built_here
        build, seen = built_here._create_device_dataset, []
        def recording(*args, **kwargs):
            ds = build(*args, **kwargs)
            seen.append(ds.options().autotune.enabled is not False)  # None: the default, on
            return ds
        built_here._create_device_dataset = recording
        options = tf.data.Options()
        options.autotune.enabled = False
        pipeline = tf.data.Dataset.range(8).batch(4).with_options(options)
        strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
        next(iter(strategy.experimental_distribute_dataset(pipeline)))
        print(json.dumps(seen))
        """)
    assert seen == [True], _fixed(
        "tf.distribute's per-device pipelines", "they took the input's autotune.enabled=False",
        "tfdist_edu/data/device_pipelines.py (and drop it), lesson 1's fair-comparison text")


# What lesson 3 teaches about the activity-regulariser penalty, by Keras release:
# divided by the batch (keras-team/keras#22018) or summed over it.
DIVIDES_BY_BATCH = {"3.13.2": False, "3.15.1": True}


def divides_by_batch(keras_version):
    """Whether lesson 3 expects the penalty divided by the batch on this Keras: as listed, and
    for any other release or nightly (3.16.0.dev...) as 3.15.1 does."""
    return DIVIDES_BY_BATCH.get(keras_version, True)


def test_keras_22018_the_activity_regulariser_penalty_is_what_lesson_3_says():
    code, output = _run("activity_regulariser.py")
    assert code == 0, output[-2000:]
    divided = "PENALTY 1.0000" in output
    version = versions()[1]
    expected = divides_by_batch(version)
    assert divided == expected, _fixed(
        "keras-team/keras#22018", f"the penalty is {'divided by' if divided else 'summed over'} "
        f"the batch on Keras {version}", "lesson 3 (the activity-regulariser cells) and "
        "DIVIDES_BY_BATCH here")


def test_tensorflow_datasets_11212_still_does_not_declare_importlib_resources():
    from packaging.requirements import Requirement

    declared = [r for r in map(Requirement, metadata.requires("tensorflow-datasets") or [])
                if r.name.replace("-", "_") == "importlib_resources"
                and (r.marker is None or r.marker.evaluate({"extra": ""}))]
    assert not declared, _fixed(
        "tensorflow/datasets#11212", "tensorflow-datasets declares importlib_resources",
        "pyproject.toml (drop importlib_resources) and the Colab setup cells")


def test_keras_tensorflow_backend_still_does_not_accept_data_parallel():
    # Lesson 9 teaches keras.distribution on JAX because the TensorFlow backend lacks it.
    code, output = _run("keras_tf_data_parallel.py")
    outcome = next((line for line in output.splitlines() if line.startswith("OUTCOME")), "")
    assert code == 0 and outcome, output[-2000:]
    assert "accepted" not in outcome, _fixed(
        "keras.io's guide 'Distributed training with Keras' (https://keras.io/guides/distribution/, "
        "guides/distribution.py: 'TensorFlow support is currently in development')",
        "keras.distribution.DataParallel placed a TensorFlow-backend model's kernel as a DTensor "
        "over 2 devices", "lesson 9 (give it a TensorFlow section; 'Where each backend stands'), "
        "deck 8 and docs/upstream.md")
