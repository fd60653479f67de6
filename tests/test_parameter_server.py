"""Tests for tfdist_edu.parameter_server: real parameter-server clusters in child processes."""

import dataclasses

import psutil
import pytest

from tfdist_edu import parameter_server, supervisor

RECORD_KEYS = {"loss", "steps_per_worker", "placement", "num_workers", "num_ps", "seconds"}


def live_children():
    return [
        p for p in psutil.Process().children(recursive=True) if p.status() != psutil.STATUS_ZOMBIE
    ]


def mean(values):
    return sum(values) / len(values)


def assert_trained(run, steps, num_workers):
    record = dataclasses.asdict(run)
    assert set(record) == RECORD_KEYS
    assert len(run.loss) == steps
    assert mean(run.loss[-10:]) < mean(run.loss[:10]), "the loss goes down"
    assert set(run.steps_per_worker) == {f"worker {i}" for i in range(num_workers)}
    assert sum(run.steps_per_worker.values()) == steps
    assert all(n > 0 for n in run.steps_per_worker.values()), "every worker took steps"


@pytest.mark.cluster
def test_one_ps_two_workers_lower_the_loss_and_every_variable_lives_on_the_ps():
    run = parameter_server.run_parameter_server(
        num_workers=2, num_ps=1, steps=40, deadline_s=180, echo=False
    )
    assert_trained(run, 40, 2)
    assert {row["device"] for row in run.placement} == {"/job:ps/replica:0/task:0/device:CPU:0"}
    assert {row["shard"] for row in run.placement} == {0}
    assert live_children() == []


@pytest.mark.cluster
def test_separate_processes_with_partitioning_put_variable_shards_on_both_ps():
    run = parameter_server.run_parameter_server(
        num_workers=2,
        num_ps=2,
        steps=40,
        partition=True,
        min_shard_bytes=256,
        separate_processes=True,
        deadline_s=180,
        echo=False,
    )
    assert_trained(run, 40, 2)
    kernel = [row for row in run.placement if row["variable"].endswith("dense/kernel")]
    assert [row["shard"] for row in kernel] == [0, 1]
    assert sum(row["shape"][0] for row in kernel) == 20  # the shards split the first axis
    assert {row["device"].split("/")[3] for row in run.placement} == {"task:0", "task:1"}
    assert live_children() == [], "the ps and worker servers were killed"


@pytest.mark.cluster
def test_deadline_kills_the_parameter_server_cluster_and_says_so():
    with pytest.raises(supervisor.ClusterTimeout, match="deadline of 2 s passed: coordinator"):
        parameter_server.run_parameter_server(deadline_s=2, echo=False)
    assert live_children() == []


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"num_workers": 0}, "num_workers must be an int >= 1"),
        ({"num_ps": 1.5}, "num_ps"),
        ({"partition": True, "min_shard_bytes": 0}, "min_shard_bytes"),
    ],
)
def test_invalid_arguments_are_refused_before_anything_starts(kwargs, message):
    with pytest.raises(ValueError, match=message):
        parameter_server.run_parameter_server(**kwargs)
