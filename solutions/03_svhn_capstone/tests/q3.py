from otter.test_files import test_case

OK_FORMAT = False

name = "q3"
points = 2

@test_case(points=0.5, hidden=False)
def test_explanation_is_written(explanation):
    assert isinstance(explanation, str), 'explanation should be a string'
    assert 'Replace this text' not in explanation, 'replace the placeholder text with your explanation'

@test_case(points=1.5, hidden=True, 
    failure_message="write at least 60 words and quote at least two of your measured numbers")
def test_explanation_length_and_numbers(explanation):
    import re
    assert len(explanation.split()) >= 60
    assert len(re.findall('\\d+(?:\\.\\d+)?', explanation)) >= 2

