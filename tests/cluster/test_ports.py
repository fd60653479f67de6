"""Tests for tfdist_edu.cluster.ports: hosts that are not this machine, busy ports."""

import socket

import pytest

from cluster_checks import children, loopback_hosts, write_script
from tfdist_edu import cluster, supervisor, tfconfig


def test_hosts_that_are_not_this_machine_need_a_dry_run(tmp_path):
    script = write_script(tmp_path, "pass\n")
    with pytest.raises(tfconfig.TFConfigError, match="not an address of this machine"):
        cluster.launch_workers(script, hosts=["192.0.2.1:2222", "192.0.2.2:2222"], echo=False)


def test_busy_port_is_reported_with_its_holder_before_any_worker_starts(tmp_path):
    script = write_script(tmp_path, "pass\n")
    with socket.socket() as holder:
        holder.bind(("", 0))
        holder.listen()
        busy = holder.getsockname()[1]
        with pytest.raises(
            supervisor.PortInUseError, match=f"port {busy} for worker 0 .* is already in use"
        ):
            cluster.launch_workers(
                script, hosts=[f"localhost:{busy}", *loopback_hosts(1)], echo=False
            )
    assert children() == []
