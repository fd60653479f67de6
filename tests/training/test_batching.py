"""Tests for tfdist_edu.batching: global batch, slices, denominators, the short last batch."""

import numpy as np
import pytest
import tensorflow as tf

from tfdist_edu.batching import BatchPlan


def test_batch_plan_multiplies_out_the_global_batch_and_cuts_consecutive_slices():
    plan = BatchPlan(4, 32, base_learning_rate=0.01)
    assert plan.global_batch == 128
    assert plan.slices == [(0, 32), (32, 64), (64, 96), (96, 128)]
    assert plan.learning_rate == pytest.approx(0.04)  # scaled from one replica's batch of 32
    denominators = [d for d, _ in plan.denominators().values()]
    assert denominators == [128, 32]
    assert "128" in str(plan) and "x4" in str(plan)


def test_batch_plan_finds_the_short_last_batch_and_its_three_denominators():
    plan = BatchPlan(2, 32, examples=1000)
    assert (plan.steps_per_epoch, plan.last_batch, plan.last_batch_split) == (16, 40, [20, 20])
    assert list(plan.last_batch_denominators().values()) == [[64, 64], [40, 40], [40, 40]]
    assert BatchPlan(2, 32, examples=640).last_batch == 0
    assert BatchPlan(np.int64(2), 32, examples=np.int64(1000)).last_batch == 40


@pytest.mark.parametrize("examples", [69, 65, 127])
def test_last_batch_split_is_the_one_tf_distribute_makes(examples):
    strategy = tf.distribute.MirroredStrategy()
    replicas = strategy.num_replicas_in_sync
    plan = BatchPlan(replicas, 32, examples=examples)
    dataset = tf.data.Dataset.range(examples).batch(plan.global_batch)
    *_, last = iter(strategy.experimental_distribute_dataset(dataset))
    sizes = [int(tf.size(t)) for t in strategy.experimental_local_results(last)]
    assert sizes == plan.last_batch_split


@pytest.mark.parametrize("kwargs, message", [
    (dict(replicas=0, per_replica_batch=8), "replicas"),
    (dict(replicas=2, per_replica_batch=2.5), "per_replica_batch"),
    (dict(replicas=2, per_replica_batch=8, examples=0), "examples"),
    (dict(replicas=2, per_replica_batch=8, base_learning_rate=-1), "base_learning_rate"),
])
def test_batch_plan_names_the_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        BatchPlan(**kwargs)


def test_derived_fields_are_properties_that_follow_the_inputs():
    plan = BatchPlan(3, 10, examples=95)
    assert [f.name for f in __import__('dataclasses').fields(plan)] == [
        "replicas", "per_replica_batch", "base_learning_rate", "base_batch", "examples"]
    assert (plan.global_batch, plan.steps_per_epoch, plan.last_batch, plan.last_batch_split) == (30, 4, 5, [2, 2, 1])
