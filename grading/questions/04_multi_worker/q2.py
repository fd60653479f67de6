"""Q2: is_chief and save_dir for clusters with and without a chief task."""
# ruff: noqa: F821 - probe() runs in the student's namespace, where their names are defined

import os

from tfdist_instructor.grading.catalog import case, returned

# The course helpers that answer this question: an answer that uses them scores 0 here.
HELPERS = {"tfdist_edu.tfconfig": ["ClusterSpec"]}


def inputs(rng):
    return {"workers": int(rng.integers(2, 6)), "base": f"/ckpt-{int(rng.integers(1000))}"}


def _tasks(inputs):  # the same list the probe builds in the student's kernel
    n = inputs["workers"]
    return [("worker", i, False) for i in range(n)] + [("chief", 0, True)] + [("worker", i, True) for i in range(n)]


def probe(inputs):
    n = inputs["workers"]
    tasks = [("worker", i, False) for i in range(n)] + [("chief", 0, True)] + [("worker", i, True) for i in range(n)]

    def config(task_type, index, chief):
        cluster = {"worker": [f"w{i}:1" for i in range(n)], **({"chief": ["c:1"]} if chief else {})}
        return {"cluster": cluster, "task": {"type": task_type, "index": index}}

    return {"chief": [attempt(is_chief, config(*t)) for t in tasks],
            "dirs": [attempt(save_dir, inputs["base"], config(*t)) for t in tasks]}


@case(1, public=True)
def worker_0_is_the_chief_without_a_chief_task(inputs, out):
    flags = [returned(a, "is_chief") for a in out["chief"][:2]]
    assert flags == [True, False], f"without a 'chief' task worker 0 is the chief, and worker 1 is not; got {flags}"


@case(1, hint="when the cluster has a 'chief' task, that task is the chief and worker 0 is not")
def chief_task_wins(inputs, out):
    expected = [t[0] == "chief" or (not t[2] and t[1] == 0) for t in _tasks(inputs)]
    assert [returned(a, "is_chief") for a in out["chief"]] == expected


@case(1, hint="save_dir: base_dir for the chief, os.path.join(base_dir, f'{type}_{index}_temp') for the others")
def save_dirs(inputs, out):
    base = inputs["base"]
    for (task_type, index, chief), attempted in zip(_tasks(inputs), out["dirs"], strict=True):
        is_chief = task_type == "chief" or (not chief and index == 0)
        expected = base if is_chief else os.path.join(base, f"{task_type}_{index}_temp")
        assert returned(attempted, "save_dir") == expected, (task_type, index, chief)
