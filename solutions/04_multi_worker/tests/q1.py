from otter.test_files import test_case

OK_FORMAT = False

name = "q1"
points = 3

@test_case(points=1, hidden=False)
def test_tf_config_of_the_described_cluster(make_tf_config):
    import json
    assert make_tf_config is not None, 'define a function named make_tf_config'
    got = make_tf_config(['node-a.example.org:2222', 'node-b.example.org:2222'], 1)
    assert isinstance(got, dict), f'return a dict, got {type(got).__name__}'
    assert set(got) == {'cluster', 'task'}, f"TF_CONFIG has two keys, 'cluster' and 'task'; got {sorted(got)}"
    assert got['task'] == {'type': 'worker', 'index': 1}, f"task of worker 1: got {got['task']}"
    json.dumps(got)

@test_case(points=1, hidden=True, 
    failure_message="the cluster lists every worker address in order under 'worker'; the task is {'type': 'worker', 'index': i} with an int index")
def test_tf_config_matches_the_reference_for_every_worker(make_tf_config):
    from tfdist_edu import cluster, tfconfig, worker
    addresses = ['10.0.0.1:2222', '10.0.0.2:2222', '10.0.0.3:2345']
    for i in range(3):
        assert make_tf_config(addresses, i) == tfconfig.tf_config({'worker': addresses}, 'worker', i)

@test_case(points=1, hidden=True, 
    failure_message="raise ValueError for an index outside the cluster (negative, too large)")
def test_tf_config_rejects_a_task_outside_the_cluster(make_tf_config):
    for bad in (2, -1):
        try:
            make_tf_config(['a:1', 'b:2'], bad)
        except ValueError:
            continue
        raise AssertionError(f'no ValueError for index {bad}')

