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

