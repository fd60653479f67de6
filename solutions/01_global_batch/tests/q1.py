from otter.test_files import test_case

OK_FORMAT = False

name = "q1"
points = 3

@test_case(points=1, hidden=False)
def test_global_batch_on_this_strategy(global_batch_size, strategy):
    assert global_batch_size is not None, 'define a function named global_batch_size'
    got = global_batch_size(strategy, 32)
    assert got is not None, 'global_batch_size returned None: replace the ... with a return statement'
    assert got == 32 * strategy.num_replicas_in_sync, f'with {strategy.num_replicas_in_sync} replicas and 32 per replica, expected {32 * strategy.num_replicas_in_sync}, got {got}'

@test_case(points=1, hidden=True, 
    failure_message="read the number of replicas from the strategy (num_replicas_in_sync) instead of assuming two")
def test_global_batch_on_one_device(global_batch_size):
    import tensorflow as tf
    one = tf.distribute.OneDeviceStrategy('/cpu:0')
    assert global_batch_size(one, 16) == 16
    assert global_batch_size(tf.distribute.get_strategy(), 8) == 8

@test_case(points=1, hidden=True, 
    failure_message="return a Python int (not a float or a tensor)")
def test_global_batch_is_an_int(global_batch_size, strategy):
    got = global_batch_size(strategy, 32)
    assert isinstance(got, int) and (not isinstance(got, bool))

