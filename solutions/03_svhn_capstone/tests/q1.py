from otter.test_files import test_case

OK_FORMAT = False

name = "q1"
points = 3

@test_case(points=1, hidden=False)
def test_fit_runs_return_model_history_seconds(single_fit, mirrored_fit, EPOCHS):
    import keras
    for name, run in (('single_fit', single_fit), ('mirrored_fit', mirrored_fit)):
        assert isinstance(run, tuple) and len(run) == 3, f'{name}: train_with_fit should return (model, history, seconds), got {type(run).__name__}'
        model, history, seconds = run
        assert isinstance(model, keras.Model), f'{name}: the first item should be the Keras model'
        assert isinstance(history, dict) and len(history.get('loss', [])) == EPOCHS, f"{name}: history should be fit's .history dict with {EPOCHS} losses"
        assert 'accuracy' in history, f"{name}: compile with metrics=['accuracy']"
        assert isinstance(seconds, float) and seconds > 0, f'{name}: seconds should be the positive wall time in seconds'

