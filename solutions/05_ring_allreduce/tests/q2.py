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

@test_case(points=2, hidden=True, 
    failure_message="every device must end with the element-wise SUM (not the mean) of all arrays, for any number of devices and any length, including lengths that do not split evenly")
def test_sum_on_every_device_random(ring_all_reduce):
    import numpy as np
    rng = np.random.default_rng()
    for _ in range(10):
        n = int(rng.integers(2, 8))
        size = int(rng.integers(n, 300))
        arrays = [rng.normal(size=size) for _ in range(n)]
        outputs, _ = ring_all_reduce(arrays)
        assert len(outputs) == n
        for out in outputs:
            assert np.allclose(out, np.sum(arrays, axis=0)), (n, size)

@test_case(points=2, hidden=True, 
    failure_message="a ring all-reduce takes 2(N-1) steps (N-1 per phase), each device sending one chunk per step to its right-hand neighbour: 2(N-1)/N of the array per device")
def test_ring_steps_and_traffic(ring_all_reduce):
    import numpy as np
    rng = np.random.default_rng()
    for _ in range(5):
        n = int(rng.integers(2, 8))
        size = n * int(rng.integers(1, 50))
        _, log = ring_all_reduce([rng.normal(size=size) for _ in range(n)])
        assert len({entry['step'] for entry in log}) == 2 * (n - 1), (n, 'steps')
        assert len(log) == 2 * (n - 1) * n, (n, 'sends')
        assert all((e['target'] == (e['source'] + 1) % n for e in log))
        for device in range(n):
            sent = sum((e['nbytes'] for e in log if e['source'] == device))
            assert sent == 2 * (n - 1) * (size // n) * 8, (n, size, device, sent)

