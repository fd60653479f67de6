"""TensorFlow workers as ipyparallel engines (tfdist_edu.engines): real engines, a real
MultiWorkerMirroredStrategy across them, and nothing left running afterwards."""

import os

import psutil
import pytest

from tfdist_edu import engines


# What a %%px cell runs on every worker: MultiWorkerMirroredStrategy over them, four custom steps.
TRAIN_FOUR_STEPS = """
import json
import os

import keras
import numpy as np
import tensorflow as tf

strategy = tf.distribute.MultiWorkerMirroredStrategy()
with strategy.scope():
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(4)])
    optimizer = keras.optimizers.SGD(0.1)
    optimizer.build(model.trainable_variables)
rng = np.random.default_rng(0)
x, y = rng.normal(size=(64, 8)).astype("float32"), rng.integers(0, 4, 64)
batches = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(16))
loss_of = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")

@tf.function
def step(features, labels):
    def replica_step(features, labels):
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(loss_of(labels, model(features)), global_batch_size=16)
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables),
                                      model.trainable_variables))
        return loss
    return strategy.reduce("SUM", strategy.run(replica_step, args=(features, labels)), axis=None)

losses = [round(float(step(f, l)), 6) for f, l in batches]
result = {"task": json.loads(os.environ["TF_CONFIG"])["task"], "replicas": strategy.num_replicas_in_sync,
          "losses": losses, "weights": [w.numpy().tolist() for w in model.weights]}
"""


def _own_processes():
    return [p for p in psutil.Process().children(recursive=True) if p.is_running()]


@pytest.mark.slow
def test_two_engines_are_worker_0_and_1_of_one_cluster_and_end_with_the_same_weights():
    with engines.start(2) as workers:
        assert len(workers) == 2 and len(set(workers.pids)) == 2
        assert workers.each(os.getpid) == workers.pids  # worker 0 first
        workers.view.execute(TRAIN_FOUR_STEPS, block=True)
        first, second = workers.view.pull("result", block=True)
    assert [first["task"], second["task"]] == [{"type": "worker", "index": 0}, {"type": "worker", "index": 1}]
    assert first["replicas"] == second["replicas"] == 2
    assert len(first["losses"]) == 4 and first["losses"] == second["losses"]
    assert first["weights"] == second["weights"]


@pytest.mark.slow
def test_an_error_inside_the_with_block_stops_every_engine_and_the_controller():
    before = {p.pid for p in _own_processes()}
    with pytest.raises(RuntimeError, match="a cell failed"):
        with engines.start(1) as workers:
            started = [p for p in _own_processes() if p.pid not in before]
            assert workers.pids[0] in {p.pid for p in started}
            raise RuntimeError("a cell failed")
    psutil.wait_procs(started, timeout=30)
    assert not [p for p in started if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]


def test_no_workers_is_refused_before_anything_starts():
    before = {p.pid for p in _own_processes()}
    with pytest.raises(ValueError, match="num_workers must be at least 1, got 0"):
        engines.start(0)
    assert {p.pid for p in _own_processes()} <= before

