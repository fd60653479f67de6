"""Checks before any worker starts: every local port of the cluster is free, and every address
belongs to this machine (unless a ``prefix`` runs the workers elsewhere)."""

import errno
import socket

from tfdist_edu.supervisor import PortInUseError
from tfdist_edu.tfconfig import TFConfigError, split_address


def _port_holder(port):
    """A short description of the process listening on ``port``, or '' when it cannot be found."""
    try:
        import psutil

        for conn in psutil.net_connections("tcp"):
            if (
                conn.laddr
                and conn.laddr.port == port
                and conn.status == psutil.CONN_LISTEN
                and conn.pid
            ):
                proc = psutil.Process(conn.pid)
                return f" (held by pid {conn.pid}: {' '.join(proc.cmdline())[:80]})"
    except Exception:  # psutil missing, or no permission to see other users' sockets
        pass
    return ""


def _check_ports(spec, remote_ok):
    """Raise PortInUseError for a busy local port, TFConfigError for a host that is not this one."""
    for task_type, index, address in spec.tasks():
        host, port = split_address(address)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            # gRPC sets SO_REUSEADDR too: a port left in TIME_WAIT is fine, a listening one is not.
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind((host.strip("[]"), port))
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:
                    raise PortInUseError(
                        f"port {port} for {task_type} {index} ({address}) is already in use"
                        f"{_port_holder(port)}. "
                        "Stop that process, or leave `hosts` out to get free ports."
                    ) from None
                if remote_ok:
                    continue
                raise TFConfigError(
                    f"{address} ({task_type} {index}) is not an address of this machine "
                    f"({exc.strerror}); "
                    "to run on other hosts use dry_run=True and start the printed commands there"
                ) from None
