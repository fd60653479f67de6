from otter.test_files import test_case

OK_FORMAT = False

name = "q3"
points = 4

@test_case(points=1, hidden=False)
def test_both_workers_finished(run):
    assert run is not None, 'run the launch cell: run = cluster.launch_workers(...)'
    codes = [w.returncode for w in run.workers]
    assert codes == [0, 0], f'both workers should exit with status 0, got {codes}'

