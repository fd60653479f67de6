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

