"""Helpers of the cluster tests: the test process's live children, free ports, worker scripts."""

import socket
import textwrap

import psutil

from tfdist_edu import tfconfig


def children():
    """This test process's live descendants (zombies do not count: they hold no resources)."""
    alive = []
    for proc in psutil.Process().children(recursive=True):
        try:
            if proc.status() != psutil.STATUS_ZOMBIE:
                alive.append(proc)
        except psutil.NoSuchProcess:
            pass
    return alive


def port_is_free(address):
    host, _, port = address.rpartition(":")
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, int(port)))
        except OSError:
            return False
    return True


def assert_nothing_left(addresses):
    assert children() == [], "a worker process outlived the launcher"
    assert all(port_is_free(a) for a in addresses), "a cluster port is still held"


def loopback_hosts(n):
    return [f"localhost:{port}" for port in tfconfig.free_ports(n)]


def write_script(tmp_path, body):
    """A worker script that knows its index as INDEX (from TF_CONFIG) and can import tfdist_edu."""
    path = tmp_path / "worker.py"
    header = (
        "import json, os, sys, time\nINDEX = json.loads(os.environ['TF_CONFIG'])['task']['index']\n"
    )
    path.write_text(header + textwrap.dedent(body))
    return path


FAST = ["--epochs", "2", "--steps-per-epoch", "5"]
