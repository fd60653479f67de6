"""Tests for tfdist_edu.cluster.launch: the dry-run plan, and workers started through a prefix.

The test marked ``cluster`` starts real TensorFlow worker processes in two network namespaces.
"""

import json
import shutil
import subprocess
import uuid

import pytest

from cluster_checks import FAST, children
from tfdist_edu import cluster, worker


def test_dry_run_prints_the_tf_config_each_host_needs_and_starts_nothing(capsys):
    hosts = ["10.0.0.1:2222", "10.0.0.2:2222"]
    run = cluster.launch_workers("train.py", hosts=hosts, args=["--epochs", 3], dry_run=True)
    out = capsys.readouterr().out
    for index, host in enumerate(hosts):
        expected = {"cluster": {"worker": hosts}, "task": {"type": "worker", "index": index}}
        assert f"export TF_CONFIG='{json.dumps(expected)}'" in out
        assert run.workers[index].tf_config == expected
    assert "python train.py --epochs 3" in out
    assert run.attempts == 0 and children() == []


def _network_namespaces(tag):
    """Create two namespaces joined by a veth pair; return their names, or skip with the reason."""
    if shutil.which("ip") is None:
        pytest.skip("needs the `ip` command (iproute2)")
    names = [f"tfe{tag}a", f"tfe{tag}b"]
    commands = [
        ["ip", "netns", "add", names[0]],
        ["ip", "netns", "add", names[1]],
        ["ip", "link", "add", f"v{tag}a", "type", "veth", "peer", "name", f"v{tag}b"],
    ]
    for side, (name, address) in enumerate(zip(names, ["10.199.0.1/24", "10.199.0.2/24"])):
        dev = f"v{tag}{'ab'[side]}"
        commands += [
            ["ip", "link", "set", dev, "netns", name],
            ["ip", "-n", name, "addr", "add", address, "dev", dev],
            ["ip", "-n", name, "link", "set", dev, "up"],
            ["ip", "-n", name, "link", "set", "lo", "up"],
        ]
    for command in commands:
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            _remove_namespaces(names)
            pytest.skip(
                f"cannot create network namespaces here "
                f"({' '.join(command[:3])}: {done.stderr.strip()})"
            )
    return names


def _remove_namespaces(names):
    for name in names:  # deleting a namespace deletes its end of the veth pair, and so the pair
        subprocess.run(["ip", "netns", "del", name], capture_output=True)


@pytest.mark.cluster
def test_two_workers_in_separate_network_namespaces_train_like_two_hosts(tmp_path):
    names = _network_namespaces(uuid.uuid4().hex[:6])
    try:
        run = cluster.launch_workers(
            worker.reference_script("mwms_ctl"),
            hosts=["10.199.0.1:2222", "10.199.0.2:2222"],
            prefix=[["ip", "netns", "exec", name] for name in names],
            args=[*FAST, "--checkpoint-dir", tmp_path / "ckpt"],
            deadline_s=180,
            echo=False,
            workdir=tmp_path,
        )
    finally:
        _remove_namespaces(names)
    first, second = run.results
    assert first["final_weights"] == second["final_weights"]
    assert children() == []
