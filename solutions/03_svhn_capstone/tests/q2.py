from otter.test_files import test_case

OK_FORMAT = False

name = "q2"
points = 3

@test_case(points=1, hidden=False)
def test_custom_loop_returns_model_history_seconds(mirrored_ctl, EPOCHS):
    import keras
    assert isinstance(mirrored_ctl, tuple) and len(mirrored_ctl) == 3, 'train_with_custom_loop should return (model, history, seconds)'
    model, history, seconds = mirrored_ctl
    assert isinstance(model, keras.Model), 'the first item should be the Keras model'
    for key in ('loss', 'accuracy'):
        assert len(history.get(key, [])) == EPOCHS, f'history[{key!r}] should hold {EPOCHS} values, got {history.get(key)}'
    assert seconds > 0, 'seconds should be the positive wall time'

