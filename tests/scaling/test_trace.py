"""Tests for tfdist_edu.trace: op names map to replicas and phases; a real profile converts."""

import pytest
import tensorflow as tf

from tfdist_edu import strategies, trace


@pytest.mark.parametrize("long_name, expected", [
    ("replica_1/fashion_cnn_1/conv2d_1/Relu:_MklNativeFusedConv2D", (1, "forward")),
    ("fashion_cnn_1/conv2d_1/Relu:_MklNativeFusedConv2D", (0, "forward")),
    ("gradient_tape/replica_3/fashion_cnn_1/dense_1/MatMul/MatMul:_MklMatMul", (3, "backward")),
    ("sgd/AddN_2:AddN", (0, "all-reduce")),
    ("replica_1/CollectiveReduceV2:CollectiveReduceV2", (1, "all-reduce")),
    ("sgd/update_1_4/AssignSubVariableOp:AssignSubVariableOp", (1, "update")),
    ("sgd/update_0/Mul:Mul", (0, "update")),
])
def test_ops_are_attributed_to_their_replica_and_phase(long_name, expected):
    assert trace.classify(long_name) == expected


@pytest.mark.parametrize("long_name", ["Iterator::Root::Prefetch", "replica_1/x/ReadVariableOp:ReadVariableOp", ""])
def test_bookkeeping_and_input_events_are_skipped(long_name):
    assert trace.classify(long_name) is None


def test_step_events_keeps_only_the_chosen_step():
    events = [
        {"ph": "X", "name": "step 1", "ts": 100.0, "dur": 50.0, "args": {"step_num": "1"}},
        {"ph": "X", "name": "Conv", "ts": 110.0, "dur": 5.0, "args": {"long_name": "replica_1/c:Conv2D"}},
        {"ph": "X", "name": "Conv", "ts": 10.0, "dur": 5.0, "args": {"long_name": "c:Conv2D"}},
    ]
    found = trace.step_events({"traceEvents": events}, step=1)
    assert found == [trace.Event(1, "forward", "replica_1/c:Conv2D", 0.01, 0.005)]
    with pytest.raises(ValueError, match="step 4"):
        trace.step_events({"traceEvents": events}, step=4)


@pytest.mark.skipif(not trace.available(), reason=trace.INSTALL_HINT)
def test_a_profiled_mirrored_step_gives_events_for_every_replica(tmp_path):
    strategy = strategies.make("mirrored")
    with strategy.scope():
        weights = tf.Variable(tf.ones([64, 64]))

    @tf.function
    def step():
        def replica_fn():
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.matmul(weights, weights))
            gradient = tape.gradient(loss, weights)
            return tf.distribute.get_replica_context().all_reduce("sum", gradient)
        return strategy.run(replica_fn)

    step()
    xplane = trace.profile(lambda i: step(), steps=3, logdir=str(tmp_path))
    events = trace.step_events(trace.chrome_trace(xplane), step=1)
    assert {e.replica for e in events} == set(range(strategy.num_replicas_in_sync))
    assert {"backward", "all-reduce"} <= {e.phase for e in events}
