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

