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

