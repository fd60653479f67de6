from otter.test_files import test_case

OK_FORMAT = False

name = "q3"
points = 4

@test_case(points=1, hidden=False)
def test_both_workers_finished(run):
    assert run is not None, 'run the launch cell: run = cluster.launch_workers(...)'
    codes = [w.returncode for w in run.workers]
    assert codes == [0, 0], f'both workers should exit with status 0, got {codes}'

@test_case(points=1, hidden=True, 
    failure_message="both workers must train the same model in sync: create the strategy before the model and build the model inside strategy.scope()")
def test_workers_trained_in_sync(run):
    first, second = run.results
    assert first['losses'] == second['losses'] and len(first['losses']) > 0
    assert first['weights_sum'] == second['weights_sum']

@test_case(points=1, hidden=True, 
    failure_message="exactly one worker, worker 0, should report is_chief")
def test_worker_0_was_the_only_chief(run):
    assert [r['is_chief'] for r in run.results] == [True, False]

@test_case(points=1, hidden=True, 
    failure_message="the chief's checkpoint must stay in the checkpoint directory, and no worker's temporary directory may remain")
def test_only_the_chief_checkpoint_remains(run):
    import os
    directory = os.path.join(run.workdir, 'checkpoint')
    entries = os.listdir(directory)
    assert 'checkpoint' in entries and any((e.startswith('ckpt-1.') for e in entries)), entries
    assert not [e for e in entries if e.endswith('_temp')], entries

