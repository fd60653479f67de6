from otter.test_files import test_case

OK_FORMAT = False

name = "q1"
points = 2

@test_case(points=0.5, hidden=False)
def test_chunks_of_ten_in_four(chunk_bounds):
    bounds = chunk_bounds(10, 4)
    assert bounds is not None, 'chunk_bounds returned None: replace the ... with your code'
    assert len(bounds) == 4, f'expected 4 chunks, got {bounds}'
    assert bounds[0][0] == 0 and bounds[-1][1] == 10, f'the chunks must cover 0..10, got {bounds}'

@test_case(points=1.5, hidden=True, 
    failure_message="chunks must follow each other with no gap or overlap, cover 0..size and differ by at most one element, for any size and n (check the boundary arithmetic)")
def test_chunks_partition_random_sizes(chunk_bounds):
    import numpy as np
    rng = np.random.default_rng()
    for _ in range(50):
        n = int(rng.integers(2, 9))
        size = int(rng.integers(n, 5000))
        bounds = [(int(a), int(b)) for a, b in chunk_bounds(size, n)]
        assert len(bounds) == n
        assert bounds[0][0] == 0 and bounds[-1][1] == size, (size, n, bounds)
        assert all((b[1] == c[0] for b, c in zip(bounds, bounds[1:]))), (size, n, bounds)
        lengths = [b - a for a, b in bounds]
        assert max(lengths) - min(lengths) <= 1, (size, n, bounds)

