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

