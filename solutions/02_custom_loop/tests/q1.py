from otter.test_files import test_case

OK_FORMAT = False

name = "q1"
points = 4

@test_case(points=1, hidden=False)
def test_loss_on_one_device(compute_loss):
    import numpy as np
    import tensorflow as tf
    assert compute_loss is not None, 'define a function named compute_loss'
    logits = tf.constant([[2.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 3.0], [1.0, 1.0, 1.0]])
    labels = tf.constant([0, 2, 2, 1], dtype=tf.int64)
    got = compute_loss(labels, logits, [], 4)
    assert got is not None, 'compute_loss returned None: replace the ... with your code'
    assert tf.is_tensor(got) and got.shape.rank == 0, f'return a scalar tensor, got {got!r}'
    expected = float(tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits)))
    assert abs(float(got) - expected) < 1e-05, f'one device, batch of 4: expected the mean loss {expected:.5f}, got {float(got):.5f}'

@test_case(points=1.5, hidden=True, 
    failure_message="on 2 replicas the SUM of the replicas' losses must equal the single-device mean loss: divide by the global_batch_size argument (not the replica's own batch, not GLOBAL_BATCH)")
def test_distributed_loss_matches_single_device(compute_loss, strategy):
    import numpy as np
    import tensorflow as tf
    rng = np.random.default_rng(7)
    n = 12 * strategy.num_replicas_in_sync
    logits = rng.normal(size=(n, 10)).astype('float32')
    labels = rng.integers(0, 10, size=n).astype('int64')
    reference = float(tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits)))
    batch = next(iter(strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((labels, logits)).batch(n))))
    per_replica = strategy.run(tf.function(lambda y, z: compute_loss(y, z, [], n)), args=batch)
    total = float(strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None))
    assert abs(total - reference) < 1e-05, (total, reference)

@test_case(points=1.5, hidden=True, 
    failure_message="the regularisation loss must be counted once in total, not once per replica: use tf.nn.scale_regularization_loss")
def test_distributed_loss_with_regularisation(compute_loss, strategy):
    import numpy as np
    import tensorflow as tf
    rng = np.random.default_rng(8)
    n = 12 * strategy.num_replicas_in_sync
    logits = rng.normal(size=(n, 10)).astype('float32')
    labels = rng.integers(0, 10, size=n).astype('int64')
    reference = float(tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))) + 0.5
    batch = next(iter(strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((labels, logits)).batch(n))))
    step = tf.function(lambda y, z: compute_loss(y, z, [tf.constant(0.3), tf.constant(0.2)], n))
    total = float(strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(step, args=batch), axis=None))
    assert abs(total - reference) < 1e-05, (total, reference)

