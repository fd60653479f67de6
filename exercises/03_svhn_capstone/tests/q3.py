from otter.test_files import test_case

OK_FORMAT = False

name = "q3"
points = 2

@test_case(points=0.5, hidden=False)
def test_explanation_is_written(explanation):
    assert isinstance(explanation, str), 'explanation should be a string'
    assert 'Replace this text' not in explanation, 'replace the placeholder text with your explanation'

