from otter.test_files import test_case

OK_FORMAT = False

name = "q2"
points = 5

@test_case(points=1, hidden=False)
def test_two_devices(ring_all_reduce):
    import numpy as np
    result = ring_all_reduce([np.arange(6.0), 10 * np.arange(6.0)])
    assert result is not None and result != (None, None), 'ring_all_reduce returned nothing: replace the ... with your code'
    outputs, log = result
    for out in outputs:
        assert np.allclose(out, 11 * np.arange(6.0)), f'expected the sum 11 * arange(6) on every device, got {out}'

