"""Workers you can talk to: TensorFlow worker processes as ipyparallel engines.

Each engine is a Python process that runs what the notebook sends it (``%%px`` cells, or
``Workers.each``), so a multi-worker lesson can build the strategy, take a step and read every
worker's weights from its own cells instead of writing a script. ipyparallel (Jupyter's own
engine for this) starts, watches and stops the processes; this module only gives each engine the
environment of a TensorFlow worker and its ``TF_CONFIG`` before TensorFlow is imported there::

    workers = engines.start(2)           # two engines, worker 0 and worker 1 of one cluster
    workers.activate()                   # in a notebook: %%px cells now run on both
    workers.each(lambda: __import__("os").environ["TF_CONFIG"])
    workers.kill(1)                      # worker 1 dies at once, as a machine that loses power
    workers.stop()                       # every engine and the controller exit

``start`` is also a context manager's value: ``with engines.start(2) as workers: ...`` stops
them whatever happens. On a Slurm cluster the same cells run on engines that Slurm starts, one
per node: ``engines.start(2, slurm=engines.Slurm())``. Each engine reports its own address, so
TF_CONFIG names the nodes the workers really run on. Only what ipyparallel 8.8 (Colab's) and 9.x
both offer is used.
"""

import contextlib
import json
import os
import socket
import time

from tfdist_edu import tfconfig
from tfdist_edu.engines import on_engine, watchdog
from tfdist_edu.engines.slurm import Slurm

__all__ = ["Slurm", "Workers", "start"]

# ipyparallel's hub registers an engine at the engine's first heartbeat and pings every 3 s by
# default, so every start waited about 4 s with the cores idle. Pinged every 0.5 s, with as much
# silence allowed as before on both sides: 30 s before the hub drops an engine, 150 s before an
# engine gives up on the hub.
CONTROLLER_ARGS = ["--HeartMonitor.period=500", "--HeartMonitor.max_heartmonitor_misses=60"]
ENGINE_ARGS = ["--IPEngine.max_heartbeat_misses=300"]


def _cluster_spec(client, ids, location):
    """Ask every engine for its address; return the workers' ClusterSpec and their nodes."""
    for _ in range(3):  # two engines of one machine may draw the same free port: draw again
        places = [client[i].apply_sync(on_engine.address, location) for i in ids]
        try:
            return tfconfig.ClusterSpec({"worker": [a for a, _ in places]}), [n for _, n in places]
        except tfconfig.TFConfigError:
            continue
    raise RuntimeError("the engines drew the same free port three times")


class Workers:
    """Engines started by :func:`start`; ``view`` is their ipyparallel DirectView (``%%px``)."""

    def __init__(self, cluster, guard, job=None):
        self.cluster, self.guard, self.job = cluster, guard, job  # guard: ends them if the kernel dies
        self.client = self.view = self.spec = None
        self.ids, self.nodes, self.pids = [], [], []  # the engines' ids, nodes and pids, worker 0 first
        self.engine_options, self.configure_args = {}, ()  # how start() started and set up each engine

    def __len__(self):
        return len(self.ids)  # the workers started, a killed one included

    def activate(self):
        """In a notebook: make every ``%%px`` cell run on all the workers and wait for them. Each
        worker's output shows under the cell when the cell ends, labelled ``[stdout:0]``,
        ``[stdout:1]``: not streamed, nor with a progress bar, as both update what they displayed
        first, which a saved notebook does not keep (it would show a first line and 0%)."""
        from IPython import get_ipython

        shell = get_ipython()
        if shell is None:
            raise RuntimeError("%%px cells need IPython or Jupyter; use Workers.each elsewhere")
        self.view.block = True
        self.view.activate()
        shell.run_line_magic("pxconfig", "--no-stream --progress-after -1")

    def each(self, function, *args, timeout=600):
        """Run ``function(*args)`` on every worker at once; return the results, worker 0 first."""
        return self.view.apply_async(function, *args).get(timeout=timeout)

    def kill(self, index, signal="SIGKILL"):
        """Send worker ``index`` the ``signal`` named (SIGKILL: it dies at once and nothing
        cleans up, as when a machine loses power). ipyparallel delivers it through the engine's
        nanny process, here or on a Slurm node, and fails the dead worker's pending results."""
        if not 0 <= index < len(self.ids):
            raise ValueError(f"there is no worker {index}: the workers are 0 to {len(self.ids) - 1}")
        self.client.send_signal(signal, targets=[self.ids[index]], block=True)

    def restart(self, index, timeout=60):
        """Start a new engine in the place of worker ``index`` (one that was killed), with that
        worker's environment and TF_CONFIG, and make it worker ``index``; return its pid. Its
        TensorFlow task starts afresh: whatever the old process held is gone with it. ``each``
        then runs on the new engine; ``%%px`` cells do after ``activate()`` again."""
        if not 0 <= index < len(self.ids):
            raise ValueError(f"there is no worker {index}: the workers are 0 to {len(self.ids) - 1}")
        known = set(self.client.ids) | set(self.ids)
        self.cluster.start_engines_sync(1, **self.engine_options)
        deadline = time.monotonic() + timeout
        while not (new := sorted(set(self.client.ids) - known)):
            if time.monotonic() > deadline:
                raise TimeoutError(f"no new engine registered within {timeout} s")
            time.sleep(0.1)
        config = json.dumps(self.spec.tf_config("worker", index))
        pid = self.client[new[0]].apply_sync(on_engine.configure, *self.configure_args, config)
        self.view = self.client[[*self.ids[:index], new[0], *self.ids[index + 1:]]]  # for each()
        self.ids[index], self.pids[index] = new[0], pid
        return pid

    def stop(self):
        """Stop the engines and the controller, and cancel their Slurm job; then end whatever
        of them did not exit and the guard. Engines of this machine get SIGKILL first: nothing
        in them needs a clean exit, and one that holds a TensorFlow server ignores the polite
        signal, so ipyparallel would wait 5 s for each before killing it."""
        cluster, self.cluster = self.cluster, None
        if cluster is not None:
            try:
                if self.client is not None:
                    live = [i for i in self.ids if i in set(self.client.ids)]
                    if self.job is None and live:
                        with contextlib.suppress(Exception):  # one may have died meanwhile
                            self.client.send_signal("SIGKILL", targets=live, block=True)
                    self.client.close()
                cluster.stop_cluster_sync()
            finally:
                watchdog.end(cluster.cluster_id, self.job)
        if self.guard is not None:
            self.guard.terminate()
            self.guard.wait()
            self.guard = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def start(num_workers=2, threads=None, legacy_keras=False, slurm=None):
    """Start ``num_workers`` engines as the workers of one TensorFlow cluster.

    Each engine gets a TensorFlow worker's environment (quiet C++ logs, ``threads`` intra-op
    threads: by default, on this machine, its cores shared among the workers) and its own
    TF_CONFIG, built by :mod:`tfdist_edu.tfconfig` from the address each engine reports. The
    engines run here, or on Slurm's nodes when ``slurm`` is a :class:`Slurm`. Raises ValueError
    before starting anything when ``num_workers`` is below 1.
    """
    if num_workers < 1:
        raise ValueError(f"num_workers must be at least 1, got {num_workers}")
    import ipyparallel as ipp

    if slurm is None:
        threads = threads or max(1, (os.cpu_count() or 1) // num_workers)
        cluster = ipp.Cluster(n=num_workers, log_level=40, controller_args=CONTROLLER_ARGS)
        location = "localhost"
    else:
        location = slurm.location or socket.gethostname()
        cluster = ipp.Cluster(engines="slurm", n=num_workers, log_level=40, controller_ip="*",
                              controller_location=location, controller_args=CONTROLLER_ARGS)
    job = slurm.job_name(cluster.cluster_id) if slurm else None
    workers = Workers(cluster, watchdog.guard(cluster.cluster_id, job), job)
    try:
        cluster.start_controller_sync()
        workers.engine_options = {"engine_args": ENGINE_ARGS,
                                  **(slurm.launcher_options(cluster) if slurm else {})}
        workers.configure_args = (threads, legacy_keras)
        cluster.start_engines_sync(num_workers, **workers.engine_options)
        workers.client = cluster.connect_client_sync()
        # A Slurm job may wait in the queue: up to 10 minutes.
        workers.client.wait_for_engines(num_workers, timeout=600 if slurm else 60, interactive=False)
        workers.view = workers.client[:]
        workers.ids = ids = sorted(workers.client.ids)
        workers.spec, workers.nodes = _cluster_spec(workers.client, ids, location)
        configured = [workers.client[engine_id].apply_async(  # all at once: each imports TensorFlow
            on_engine.configure, threads, legacy_keras, json.dumps(workers.spec.tf_config("worker", index)))
            for index, engine_id in enumerate(ids)]
        workers.pids = [done.get(timeout=300) for done in configured]
    except BaseException:
        with contextlib.suppress(Exception):  # the error that stopped the start is the one to see
            workers.stop()
        raise
    return workers
