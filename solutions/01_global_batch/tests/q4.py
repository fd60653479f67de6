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

