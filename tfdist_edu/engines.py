"""Workers you can talk to: TensorFlow worker processes as ipyparallel engines.

Each engine is a Python process that runs what the notebook sends it (``%%px`` cells, or
``Workers.each``), so a multi-worker lesson can build the strategy, take a step and read every
worker's weights from its own cells instead of writing a script. ipyparallel (Jupyter's own
engine for this) starts, watches and stops the processes; this module only gives each engine the
environment of a TensorFlow worker and its ``TF_CONFIG`` before TensorFlow is imported there::

    workers = engines.start(2)           # two engines, worker 0 and worker 1 of one cluster
    workers.each(lambda: __import__("os").environ["TF_CONFIG"])
    workers.stop()                       # every engine and the controller exit

``start`` is also a context manager's value: ``with engines.start(2) as workers: ...`` stops
them whatever happens. Only what ipyparallel 8.8 (Colab's) and 9.x both offer is used.
"""

import json
import os

from tfdist_edu import tfconfig
from tfdist_edu.cluster.environment import worker_env


def _configure(env, config):
    """Runs on an engine: make its environment ``env`` with TF_CONFIG ``config``; return its
    process id."""
    import os

    os.environ.clear()
    os.environ.update(env, TF_CONFIG=config)
    return os.getpid()


class Workers:
    """Engines started by :func:`start`; ``view`` is their ipyparallel DirectView (``%%px``)."""

    def __init__(self, cluster, client, spec):
        self.cluster, self.client, self.spec = cluster, client, spec
        self.view = client[:]
        self.pids = []

    def __len__(self):
        return len(self.client.ids)

    def each(self, function, *args, timeout=600):
        """Run ``function(*args)`` on every worker at once; return the results, worker 0 first."""
        return self.view.apply_async(function, *args).get(timeout=timeout)

    def stop(self):
        """Stop the engines and the controller (ipyparallel kills what does not exit in time)."""
        if self.cluster is not None:
            self.client.close()
            self.cluster.stop_cluster_sync()
            self.cluster = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def start(num_workers=2, threads=None, legacy_keras=False):
    """Start ``num_workers`` engines as the workers of one local TensorFlow cluster.

    Each engine gets a TensorFlow worker's environment (quiet C++ logs, ``threads`` intra-op
    threads: by default this machine's cores shared among the workers) and its own TF_CONFIG,
    built by :mod:`tfdist_edu.tfconfig` on free ports. Raises ValueError before starting
    anything when ``num_workers`` is below 1.
    """
    if num_workers < 1:
        raise ValueError(f"num_workers must be at least 1, got {num_workers}")
    import ipyparallel as ipp

    spec = tfconfig.ClusterSpec.local(workers=num_workers)
    threads = threads or max(1, (os.cpu_count() or 1) // num_workers)
    env = worker_env(threads=threads, legacy_keras=legacy_keras)
    cluster = ipp.Cluster(n=num_workers, log_level=40)
    client = cluster.start_and_connect_sync()
    workers = Workers(cluster, client, spec)
    try:
        for index, engine_id in enumerate(sorted(client.ids)):
            config = json.dumps(spec.tf_config("worker", index))
            workers.pids.append(client[engine_id].apply_sync(_configure, env, config))
    except BaseException:
        workers.stop()
        raise
    return workers

