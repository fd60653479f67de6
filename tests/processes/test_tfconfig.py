"""Tests for tfdist_edu.tfconfig: TF_CONFIG built and checked, without starting processes."""


import json
import socket

import pytest

from tfdist_edu import tfconfig


def test_tf_config_gives_every_task_the_whole_cluster_and_its_own_task():
    spec = {"worker": ["localhost:2222", "localhost:2223"]}
    config = tfconfig.tf_config(spec, "worker", 1)
    assert config == {"cluster": spec, "task": {"type": "worker", "index": 1}}
    assert json.loads(tfconfig.tf_config(spec, "worker", 0, as_json=True))["task"] == {
        "type": "worker",
        "index": 0,
    }


@pytest.mark.parametrize(
    "spec, task, message",
    [
        (
            {"worker": ["localhost:2222", "127.0.0.1:2222"]},
            ("worker", 0),
            "used by both worker 0 and worker 1",
        ),
        ({"worker": ["localhost:2222"], "ps": ["localhost:2223"]}, ("ps", 0), "needs a 'chief'"),
        (
            {"worker": ["localhost:2222", "localhost:2223"]},
            ("worker", 2),
            "index 2 is out of range",
        ),
        ({"worker": ["localhost:2222"]}, ("worker", -1), "out of range"),
        ({"master": ["localhost:2222"]}, ("master", 0), "unknown task type 'master'"),
        ({"worker": ["localhost:2222"]}, ("boss", 0), "unknown task type 'boss'"),
        ({"worker": ["localhost:2222"]}, ("ps", 0), "'ps' is not in this cluster"),
        ({"worker": ["localhost"]}, ("worker", 0), "not a 'host:port' address"),
        ({"worker": ["localhost:99999"]}, ("worker", 0), "port between 1 and 65535"),
        ({"worker": "localhost:2222"}, ("worker", 0), "must be a list"),
        ({"chief": ["a:1", "b:1"], "worker": ["c:1"]}, ("chief", 0), "at most one chief"),
        ({"ps": ["a:1"], "chief": ["b:1"]}, ("chief", 0), "needs at least one 'worker'"),
        ({"worker": ["localhost:2222"]}, ("worker", "0"), "a task index is an int"),
    ],
)
def test_invalid_tf_config_input_is_refused_with_a_message_naming_the_problem(spec, task, message):
    with pytest.raises(tfconfig.TFConfigError, match=message):
        tfconfig.tf_config(spec, *task)


def test_an_evaluator_may_sit_outside_the_training_cluster():
    config = tfconfig.tf_config({"worker": ["localhost:2222"]}, "evaluator", 0)
    assert config["task"] == {"type": "evaluator", "index": 0}


def test_printed_cluster_spec_explains_each_task_and_names_the_chief():
    text = str(tfconfig.ClusterSpec({"worker": ["10.0.0.1:2222", "10.0.0.2:2222"]}))
    assert "worker 0" in text and "10.0.0.2:2222" in text
    assert "also the chief" in text.splitlines()[1]
    assert "TF_CONFIG" in text


def test_free_ports_are_distinct_and_bindable():
    ports = tfconfig.free_ports(4)
    assert len(set(ports)) == 4
    for port in ports:
        with socket.socket() as s:
            s.bind(("localhost", port))  # raises if the port is taken
