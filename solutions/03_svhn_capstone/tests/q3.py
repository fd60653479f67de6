from otter.test_files import test_case

OK_FORMAT = False

name = "q3"
points = 2

@test_case(points=0.5, hidden=False)
def test_updates_for_the_mirrored_fit_run(updates_per_epoch):
    assert updates_per_epoch is not None, 'define a function named updates_per_epoch'
    got = updates_per_epoch(1024, 128, False)
    assert got == 8, f'1024 examples in global batches of 128: expected 8 updates, got {got!r}'

