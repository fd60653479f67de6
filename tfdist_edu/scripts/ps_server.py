"""A ps or worker task of a parameter-server cluster: a gRPC server from TF_CONFIG, forever.

Workers and parameter servers run no training code of their own: the coordinator (the chief)
sends them functions and variables. Run as a script, this process never exits by itself; whoever
started it kills it when the coordinator is done. On an ipyparallel engine, lesson 8 calls
:func:`serve` instead: the engine keeps the server and goes on answering the notebook.
"""

import json
import os

import tensorflow as tf

from tfdist_edu import parameter_server

_SERVING = []  # the servers this process started: a server lives as long as its process


def serve(tf_config=None):
    """Start this task's server from ``tf_config`` (a JSON string or dict; default: $TF_CONFIG),
    set TF_CONFIG to it, and return the server's target ("grpc://host:port"). The server serves
    until the process ends."""
    tf_config = tf_config or os.environ["TF_CONFIG"]
    config = json.loads(tf_config) if isinstance(tf_config, str) else tf_config
    os.environ["TF_CONFIG"] = json.dumps(config)
    task = config["task"]
    server = tf.distribute.Server(
        tf.train.ClusterSpec(config["cluster"]),
        job_name=task["type"],
        task_index=task["index"],
        protocol="grpc",
        config=parameter_server.server_config(len(config["cluster"]["worker"])),
        start=True,
    )
    _SERVING.append(server)
    return server.target


def main():
    target = serve()
    task = json.loads(os.environ["TF_CONFIG"])["task"]
    print(f"{task['type']} {task['index']} serving at {target}", flush=True)
    _SERVING[-1].join()


if __name__ == "__main__":
    main()
