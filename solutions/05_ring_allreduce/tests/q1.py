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

