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

@test_case(points=1, hidden=True, 
    failure_message="when the cluster has a 'chief' task, that task is the chief and worker 0 is not")
def test_chief_task_wins(is_chief):
    cluster = {'chief': ['c:1'], 'worker': ['a:1', 'b:2']}
    assert is_chief({'cluster': cluster, 'task': {'type': 'chief', 'index': 0}}) is True
    assert is_chief({'cluster': cluster, 'task': {'type': 'worker', 'index': 0}}) is False

@test_case(points=1, hidden=True, 
    failure_message="save_dir: base_dir for the chief, os.path.join(base_dir, f'{type}_{index}_temp') for the others")
def test_save_dirs(save_dir):
    import os
    cluster = {'worker': ['a:1', 'b:2', 'c:3']}

    def config(i):
        return {'cluster': cluster, 'task': {'type': 'worker', 'index': i}}
    assert save_dir('/ckpt', config(0)) == '/ckpt'
    assert save_dir('/ckpt', config(2)) == os.path.join('/ckpt', 'worker_2_temp')
    with_chief = {'cluster': {'chief': ['c:0'], **cluster}, 'task': {'type': 'worker', 'index': 0}}
    assert save_dir('/ckpt', with_chief) == os.path.join('/ckpt', 'worker_0_temp')

