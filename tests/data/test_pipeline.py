"""Tests for tfdist_edu.data.batches: global batches, shuffling, repeating, bad sizes."""

import numpy as np
import pytest
import tensorflow as tf

from tfdist_edu import data


def test_batches_have_the_global_batch_size_and_a_short_last_batch():
    ds = tf.data.Dataset.range(10)
    sizes = [len(b) for b in data.batches(ds, 4, shuffle=False)]
    assert sizes == [4, 4, 2]
    assert [len(b) for b in data.batches(ds, 4, drop_remainder=True)] == [4, 4]


def test_batches_shuffle_every_epoch_reproducibly_and_keep_every_example():
    ds = tf.data.Dataset.range(100)
    pipeline = data.batches(ds, 100, seed=1)
    first, second = (next(iter(pipeline)).numpy() for _ in range(2))
    assert sorted(first) == list(range(100)) and not np.array_equal(first, second)
    np.testing.assert_array_equal(first, next(iter(data.batches(ds, 100, seed=1))).numpy())


def test_repeated_batches_run_past_one_epoch():
    ds = tf.data.Dataset.range(6)
    assert len(list(data.batches(ds, 4, repeat=True).take(5))) == 5


@pytest.mark.parametrize("global_batch", [0, 2.5, True])
def test_a_bad_global_batch_is_refused(global_batch):
    with pytest.raises(ValueError, match="global_batch must be a positive integer"):
        data.batches(tf.data.Dataset.range(4), global_batch)


def _device_pipelines_autotuning(strategy, pipeline, monkeypatch):
    """autotune.enabled of each per-device pipeline ``strategy`` builds to read ``pipeline``."""
    from tensorflow.python.data.ops import multi_device_iterator_ops as built_here

    build, seen = built_here._create_device_dataset, []

    def recording(*args, **kwargs):
        ds = build(*args, **kwargs)
        seen.append(ds.options().autotune.enabled)
        return ds

    monkeypatch.setattr(built_here, "_create_device_dataset", recording)
    next(iter(strategy.experimental_distribute_dataset(pipeline)))
    return seen


def test_batches_turn_autotuning_off_in_the_pipeline_and_in_every_device_pipeline_a_strategy_builds(
        monkeypatch):
    pipeline = data.batches(tf.data.Dataset.range(16), 4, shuffle=False)
    assert pipeline.options().autotune.enabled is False
    assert data.device_pipelines.status() == "off"
    mirrored = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    assert _device_pipelines_autotuning(mirrored, pipeline, monkeypatch) == [False, False]
    one_device = tf.distribute.OneDeviceStrategy("/cpu:0")
    assert _device_pipelines_autotuning(one_device, pipeline, monkeypatch) == [False]
    assert data.device_pipelines.turn_off() == "off"  # a second call wraps nothing twice


def test_batches_keep_autotuning_on_when_asked():
    assert data.batches(tf.data.Dataset.range(8), 4, autotune=True).options().autotune.enabled
