from otter.test_files import test_case

OK_FORMAT = False

name = "q2"
points = 3

@test_case(points=1, hidden=False)
def test_worker_0_is_the_chief_without_a_chief_task(is_chief):
    assert is_chief is not None, 'run the cell that imports chief.py'
    config = {'cluster': {'worker': ['a:1', 'b:2']}, 'task': {'type': 'worker', 'index': 0}}
    assert is_chief(config) is True, "without a 'chief' task, worker 0 is the chief"
    config['task']['index'] = 1
    assert is_chief(config) is False, 'worker 1 is not the chief'

