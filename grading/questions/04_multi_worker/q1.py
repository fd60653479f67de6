"""Q1: make_tf_config(worker_addresses, index) for any cluster, and ValueError outside it."""
# ruff: noqa: F821 - probe() runs in the student's namespace, where their names are defined

from tfdist_instructor.grading.catalog import case, returned

# The course helpers that answer this question: an answer that uses them scores 0 here.
HELPERS = {"tfdist_edu.tfconfig": ["tf_config", "ClusterSpec"]}


def inputs(rng):
    size = int(rng.integers(2, 6))
    hosts = [f"10.{int(rng.integers(256))}.{int(rng.integers(256))}.{i}:{int(rng.integers(2000, 9000))}"
             for i in range(size)]
    return {"hosts": hosts, "bad": [size, size + int(rng.integers(1, 5)), -1, -int(rng.integers(2, 5))]}


def probe(inputs):
    def rejects(index):
        try:
            make_tf_config(inputs["hosts"], index)
        except ValueError:
            return True
        return False

    return {"described": attempt(make_tf_config, ["node-a.example.org:2222", "node-b.example.org:2222"], 1),
            "every": [attempt(make_tf_config, inputs["hosts"], i) for i in range(len(inputs["hosts"]))],
            "rejects": [attempt(rejects, i) for i in inputs["bad"]]}


@case(1, public=True)
def tf_config_of_the_described_cluster(inputs, out):
    got = returned(out["described"], "make_tf_config")
    assert isinstance(got, dict), f"return a dict, got {type(got).__name__}"
    assert set(got) == {"cluster", "task"}, f"TF_CONFIG has two keys, 'cluster' and 'task'; got {sorted(got)}"
    assert got["task"] == {"type": "worker", "index": 1}, f"task of worker 1: got {got['task']}"


@case(1, hint="the cluster lists every worker address in order under 'worker'; the task is "
              "{'type': 'worker', 'index': i} with an int index")
def tf_config_of_every_worker(inputs, out):
    for i, attempted in enumerate(out["every"]):
        got = returned(attempted, "make_tf_config")
        assert got == {"cluster": {"worker": inputs["hosts"]}, "task": {"type": "worker", "index": i}}
        assert type(got["task"]["index"]) is int


@case(1, hint="raise ValueError for an index outside the cluster (negative, too large)")
def tf_config_rejects_a_task_outside_the_cluster(inputs, out):
    assert all(returned(a, "make_tf_config") is True for a in out["rejects"])
