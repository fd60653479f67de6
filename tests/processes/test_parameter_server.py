"""Tests for tfdist_edu.parameter_server: real parameter-server clusters in child processes.

run_parameter_server runs lesson 8's coordinator as the package ships it: the course CNN on
Fashion-MNIST, every ps and worker task its own process.
"""

import dataclasses

import psutil
import pytest

from tfdist_edu import parameter_server, supervisor

RECORD_KEYS = {"loss", "steps_per_worker", "placement", "num_workers", "num_ps", "seconds"}


def live_children():
    return [
        p for p in psutil.Process().children(recursive=True) if p.status() != psutil.STATUS_ZOMBIE
    ]


def mean(values):
    return sum(values) / len(values)


def assert_trained(run, steps, num_workers):
    record = dataclasses.asdict(run)
    assert set(record) == RECORD_KEYS
    assert len(run.loss) == steps
    assert mean(run.loss[-10:]) < mean(run.loss[:10]), "the loss goes down"
    assert set(run.steps_per_worker) == {f"worker {i}" for i in range(num_workers)}
    assert sum(run.steps_per_worker.values()) == steps
    assert all(n > 0 for n in run.steps_per_worker.values()), "every worker took steps"


@pytest.mark.cluster
def test_one_ps_two_workers_lower_the_loss_and_every_variable_lives_on_the_ps():
    run = parameter_server.run_parameter_server(
        num_workers=2, num_ps=1, steps=40, deadline_s=180, echo=False
    )
    assert_trained(run, 40, 2)
    assert {row["device"] for row in run.placement} == {"/job:ps/replica:0/task:0/device:CPU:0"}
    assert {row["shard"] for row in run.placement} == {0}
    assert live_children() == []


@pytest.mark.cluster
def test_partitioning_puts_variable_shards_on_both_ps_and_the_shards_train():
    run = parameter_server.run_parameter_server(
        num_workers=2,
        num_ps=2,
        steps=40,
        partition=True,
        min_shard_bytes=256,
        deadline_s=180,
        echo=False,
    )
    assert_trained(run, 40, 2)
    kernel = [row for row in run.placement if row["variable"].endswith("dense/kernel")]
    assert [row["shard"] for row in kernel] == [0, 1]
    # the shards split the first axis: the CNN's first Dense layer reads 5 x 5 x 64 = 1600 values
    assert sum(row["shape"][0] for row in kernel) == 1600
    assert {row["device"].split("/")[3] for row in run.placement} == {"task:0", "task:1"}
    assert live_children() == [], "the ps and worker servers were killed"


@pytest.mark.cluster
def test_deadline_kills_the_parameter_server_cluster_and_says_so():
    with pytest.raises(supervisor.ClusterTimeout, match="deadline of 2 s passed: coordinator"):
        parameter_server.run_parameter_server(deadline_s=2, echo=False)
    assert live_children() == []


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"num_workers": 0}, "num_workers must be an int >= 1"),
        ({"num_ps": 1.5}, "num_ps"),
        ({"partition": True, "min_shard_bytes": 0}, "min_shard_bytes"),
    ],
)
def test_invalid_arguments_are_refused_before_anything_starts(kwargs, message):
    with pytest.raises(ValueError, match=message):
        parameter_server.run_parameter_server(**kwargs)


COORDINATOR = '''
import numpy as np
import tensorflow as tf
import keras
from tfdist_edu import worker

resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
strategy = tf.distribute.ParameterServerStrategy(resolver)
coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)


def dataset_fn():
    x = tf.random.stateless_normal((512, 8), seed=(1, 2))
    y = tf.cast(tf.reduce_sum(x, axis=1) > 0, tf.int64)
    return tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(32)


iterator = iter(coordinator.create_per_worker_dataset(dataset_fn))
with strategy.scope():
    model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(2)])
    optimizer = keras.optimizers.Adam(1e-2)
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)


@tf.function
def step(iterator):
    def replica_fn(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    loss = strategy.run(replica_fn, args=next(iterator))
    return loss, tf.distribute.coordinator.experimental_get_current_worker_index()


losses, workers = [], []
for round_ in (1, 2, 3):
    remotes = [coordinator.schedule(step, args=(iterator,)) for _ in range(15)]
    coordinator.join()
    for r in remotes:
        loss, index = r.fetch()
        losses.append(float(loss))
        workers.append(int(index))
    worker.report_epoch(round_)
worker.write_result({"loss": losses, "worker": workers})
'''


@pytest.mark.cluster
def test_a_coordinator_script_goes_on_with_one_worker_after_the_other_is_killed(tmp_path):
    script = tmp_path / "coordinator.py"
    script.write_text(COORDINATOR)
    result = parameter_server.run_coordinator(
        script, num_workers=2, num_ps=1, deadline_s=240, kill=(1, 1), echo=False
    )
    assert [e["event"] for e in result["events"]] == ["killed"]
    assert len(result["loss"]) == 45, "every scheduled step ran, the interrupted one included"
    assert set(result["worker"][15:]) == {0}, "from the round after the kill, worker 0 runs every step"
    assert mean(result["loss"][-10:]) < mean(result["loss"][:10])
    assert live_children() == []


def test_run_coordinator_refuses_a_missing_script_and_a_bad_kill(tmp_path):
    with pytest.raises(FileNotFoundError, match="no coordinator script"):
        parameter_server.run_coordinator(tmp_path / "missing.py")
    script = tmp_path / "c.py"
    script.write_text("")
    with pytest.raises(ValueError, match="kill=\\(worker, round\\)"):
        parameter_server.run_coordinator(script, num_workers=2, kill=(2, 1))
    with pytest.raises(ValueError, match="num_ps must be an int >= 1"):
        parameter_server.run_coordinator(script, num_ps=0)


def test_a_cluster_on_engines_has_the_last_engines_as_ps_and_this_process_as_chief():
    from tfdist_edu import engines, tfconfig

    workers = engines.Workers(None, None)  # what start() fills in: here only the engines' addresses
    workers.spec = tfconfig.ClusterSpec.local(workers=3)
    hosts = [address for _, _, address in workers.spec.tasks()]
    spec = parameter_server.cluster_on(workers, num_ps=1)
    assert spec.as_dict()["worker"] == hosts[:2] and spec.as_dict()["ps"] == hosts[2:]
    [chief] = spec.as_dict()["chief"]
    assert chief.startswith("localhost:") and chief not in hosts
    for bad in (0, 3, True, "1"):
        with pytest.raises(ValueError, match=r"num_ps must be an int from 1 to 2 \(one engine at least must be a worker\)"):
            parameter_server.cluster_on(workers, num_ps=bad)


def test_the_coordinators_log_keeps_the_first_line_of_each_warning_and_error_in_the_block():
    import logging

    logger = logging.getLogger("tensorflow")
    logger.error("outside the block")
    with parameter_server.coordinator_log() as events:
        logger.error("Worker /job:worker/replica:0/task:1 failed with UnavailableError()\nAdditional GRPC error")
        logger.warning("a warning")
        logger.info("an info line")
    logger.error("after the block")
    assert [line for _, line in events] == [
        "Worker /job:worker/replica:0/task:1 failed with UnavailableError()", "a warning"]
    assert all(0 <= seconds < 5 for seconds, _ in events)
