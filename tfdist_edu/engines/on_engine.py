"""What runs on each engine when it starts, sent by :func:`tfdist_edu.engines.start`."""


def address(location):
    """Runs on an engine: its "host:port" for TF_CONFIG (a free port on its own node) and its
    node's name. ``location``: an address of the notebook's host, to find the node's own
    address where its name resolves to a loopback one."""
    import os
    import socket

    import portpicker

    node = os.environ.get("SLURMD_NODENAME")
    host = socket.gethostbyname(node) if node else "localhost"
    if node and host.startswith("127."):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect((location, 9))  # no packet is sent: only a route is chosen
            host = probe.getsockname()[0]
    return f"{host}:{portpicker.pick_unused_port()}", node or socket.gethostname()


def configure(threads, legacy_keras, config):
    """Runs on an engine: give it a TensorFlow worker's environment (its own, made quiet, with
    ``threads`` intra-op threads) and TF_CONFIG ``config``, import TensorFlow with only its errors
    shown; return its process id."""
    import os

    from tfdist_edu.cluster.environment import worker_env

    env = worker_env(os.environ, threads=threads, legacy_keras=legacy_keras)
    os.environ.clear()
    os.environ.update(env, TF_CONFIG=config)
    from tfdist_edu import quiet

    quiet.import_tensorflow()  # here, so its start-up lines (absl, CUDA probe) never reach a cell
    return os.getpid()
