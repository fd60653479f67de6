from otter.test_files import test_case

OK_FORMAT = False

name = "q3"
points = 3

@test_case(points=0.5, hidden=False)
def test_one_device_needs_no_all_reduce(all_reduce_seconds, predict_step_seconds):
    got = all_reduce_seconds(100000000.0, 1, 1e-05, 10000000000.0)
    assert got is not None, 'all_reduce_seconds returned None: replace the ... with your code'
    assert got == 0, f'one device has nothing to all-reduce, got {got}'
    step = predict_step_seconds(1, 64, 0.01, 0.001, 100000000.0, 1e-05, 10000000000.0)
    assert step is not None and abs(step - 0.074) < 1e-09, f'1 device, batch 64: 0.01 + 64 * 0.001 = 0.074 s, got {step}'

@test_case(points=1.5, hidden=True, 
    failure_message="the all-reduce costs 2(N-1) latencies plus 2(N-1)/N of the bytes over the bandwidth: check both terms")
def test_all_reduce_cost_random(all_reduce_seconds):
    import numpy as np
    rng = np.random.default_rng()
    for _ in range(20):
        n = int(rng.integers(2, 17))
        size, latency, bandwidth = (rng.uniform(100000.0, 1000000000.0), rng.uniform(1e-06, 0.001), rng.uniform(1000000000.0, 300000000000.0))
        expected = 2 * (n - 1) * latency + 2 * (n - 1) / n * size / bandwidth
        assert abs(all_reduce_seconds(size, n, latency, bandwidth) - expected) <= 1e-09 * expected, n

@test_case(points=1, hidden=True, 
    failure_message="a step on N devices is fixed_s + per_example_s * global_batch / N plus the all-reduce")
def test_step_prediction_random(predict_step_seconds):
    import numpy as np
    rng = np.random.default_rng()
    for _ in range(20):
        n, batch = (int(rng.integers(2, 9)), int(rng.integers(8, 4096)))
        fixed, per_example = (rng.uniform(0.0001, 0.01), rng.uniform(1e-06, 0.001))
        size, latency, bandwidth = (rng.uniform(100000.0, 1000000000.0), rng.uniform(1e-06, 0.001), rng.uniform(1000000000.0, 300000000000.0))
        expected = fixed + per_example * batch / n + 2 * (n - 1) * latency + 2 * (n - 1) / n * size / bandwidth
        got = predict_step_seconds(n, batch, fixed, per_example, size, latency, bandwidth)
        assert abs(got - expected) <= 1e-09 * expected, (n, batch)

