from otter.test_files import test_case

OK_FORMAT = False

name = "q2"
points = 3

@test_case(points=1, hidden=False)
def test_train_step_returns_one_number(distributed_train_step, train_dist):
    import tensorflow as tf
    assert distributed_train_step is not None, 'define distributed_train_step'
    loss = distributed_train_step(next(iter(train_dist)))
    assert loss is not None, 'distributed_train_step returned None: return the reduced loss'
    assert tf.is_tensor(loss) and loss.shape.rank == 0, f'return one scalar for the whole global batch (strategy.reduce), got {type(loss).__name__}'

@test_case(points=1.5, hidden=True, 
    failure_message="distributed_train_step must return the loss of the whole global batch (the SUM of the replicas' scaled losses, regularisation included) and update the weights")
def test_train_step_loss_matches_single_device(distributed_train_step, model, strategy, course, GLOBAL_BATCH):
    import numpy as np
    import tensorflow as tf
    images, labels = next(iter(course.train.batch(GLOBAL_BATCH)))
    logits = model(images, training=True)
    reference = float(tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits)))
    reference += float(tf.add_n(model.losses))
    before = [np.array(w) for w in model.trainable_variables]
    dist = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((images, labels)).batch(GLOBAL_BATCH))
    loss = float(distributed_train_step(next(iter(dist))))
    assert abs(loss - reference) < 0.0001 * max(1.0, reference), (loss, reference)
    assert any((not np.allclose(b, np.array(w)) for b, w in zip(before, model.trainable_variables)))

@test_case(points=0.5, hidden=True, 
    failure_message="distributed_test_step must update test_accuracy (and test_loss) on every replica's slice")
def test_test_step_updates_the_metrics(distributed_test_step, model, strategy, course, test_accuracy, GLOBAL_BATCH):
    import numpy as np
    import tensorflow as tf
    images, labels = next(iter(course.test.batch(GLOBAL_BATCH)))
    expected = float(np.mean(np.argmax(model(images, training=False), axis=1) == labels.numpy()))
    test_accuracy.reset_state()
    dist = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((images, labels)).batch(GLOBAL_BATCH))
    distributed_test_step(next(iter(dist)))
    assert abs(float(test_accuracy.result()) - expected) < 1e-06

