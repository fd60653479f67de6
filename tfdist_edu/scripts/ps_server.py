"""A ps or worker task of a parameter-server cluster: a gRPC server from TF_CONFIG, forever.

Workers and parameter servers run no training code of their own: the coordinator (the chief)
sends them functions and variables. This process never exits by itself; whoever started it
kills it when the coordinator is done.
"""

import json
import os

import tensorflow as tf

from tfdist_edu import parameter_server


def main():
    config = json.loads(os.environ["TF_CONFIG"])
    task = config["task"]
    server = tf.distribute.Server(
        tf.train.ClusterSpec(config["cluster"]),
        job_name=task["type"],
        task_index=task["index"],
        protocol="grpc",
        config=parameter_server.server_config(len(config["cluster"]["worker"])),
        start=True,
    )
    print(f"{task['type']} {task['index']} serving at {server.target}", flush=True)
    server.join()


if __name__ == "__main__":
    main()
