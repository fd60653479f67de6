from otter.test_files import test_case

OK_FORMAT = False

name = "q4"
points = 1

@test_case(points=0, hidden=False)
def test_pitfall_answers_are_numbers(correct_loss, mean_metric_value):
    for name, value in (('correct_loss', correct_loss), ('mean_metric_value', mean_metric_value)):
        assert isinstance(value, (int, float)) and (not isinstance(value, bool)), f'{name} should be a number, got {value!r}'

