from otter.test_files import test_case

OK_FORMAT = False

name = "q3"
points = 2

@test_case(points=1, hidden=False)
def test_history_has_one_value_per_epoch(history, EPOCHS):
    assert isinstance(history, dict), 'history should be a dict'
    for key in ('loss', 'accuracy', 'val_loss', 'val_accuracy'):
        assert len(history.get(key, [])) == EPOCHS, f'history[{key!r}] should hold {EPOCHS} values, one per epoch, got {history.get(key)}'
        assert all((isinstance(v, float) for v in history[key])), f'history[{key!r}] should hold Python floats'

