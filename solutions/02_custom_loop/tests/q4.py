from otter.test_files import test_case

OK_FORMAT = False

name = "q4"
points = 1

@test_case(points=0.5, hidden=False)
def test_pitfall_of_the_lesson(loss_views):
    assert loss_views is not None, 'define a function named loss_views'
    got = loss_views([[2, 3], [4, 5]], 4)
    assert isinstance(got, tuple) and len(got) == 2, f'return a tuple (correct_loss, mean_metric_value), got {got!r}'
    assert abs(got[0] - 3.5) < 1e-09 and abs(got[1] - 1.75) < 1e-09, f'expected (3.5, 1.75), got {got}'

