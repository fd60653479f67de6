from otter.test_files import test_case

OK_FORMAT = False

name = "q4"
points = 2

@test_case(points=1, hidden=False)
def test_even_split(replica_batch_sizes):
    assert replica_batch_sizes is not None, 'define a function named replica_batch_sizes'
    got = replica_batch_sizes(64, 2)
    assert got is not None, 'replica_batch_sizes returned None: replace the ... with your code'
    assert isinstance(got, list), f'return a list, got {type(got).__name__}'
    assert got == [32, 32], f'64 examples over 2 replicas: expected [32, 32], got {got}'

@test_case(points=1, hidden=True, 
    failure_message="compare your rule with what TensorFlow does for short batches (e.g. 9 over 2, 5 over 4) and return a list of ints")
def test_short_batches_match_tensorflow(replica_batch_sizes, strategy):
    import tensorflow as tf
    n = strategy.num_replicas_in_sync
    for batch in (9, 3, 1, 63):
        dist = strategy.experimental_distribute_dataset(tf.data.Dataset.range(batch).batch(batch))
        actual = [int(t.shape[0]) for t in strategy.experimental_local_results(next(iter(dist)))]
        got = replica_batch_sizes(batch, n)
        assert isinstance(got, list) and all((isinstance(s, int) for s in got))
        assert got == actual, (batch, got, actual)
    for batch, actual in {5: [2, 2, 1, 0], 6: [2, 2, 2, 0], 1: [1, 0, 0, 0], 13: [4, 4, 4, 1]}.items():
        assert replica_batch_sizes(batch, 4) == actual

