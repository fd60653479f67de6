from otter.test_files import test_case

OK_FORMAT = False

name = "q4"
points = 2

@test_case(points=0.5, hidden=False)
def test_test_accuracies_are_reported(test_accuracies):
    assert isinstance(test_accuracies, dict), 'evaluate_checkpoints should return a dict'
    assert set(test_accuracies) == {'mirrored, fit', 'mirrored, custom loop'}, f"use the keys 'mirrored, fit' and 'mirrored, custom loop', got {sorted(test_accuracies)}"
    assert all((isinstance(v, float) and 0.0 <= v <= 1.0 for v in test_accuracies.values())), 'accuracies are floats in [0, 1]'

