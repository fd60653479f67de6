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
