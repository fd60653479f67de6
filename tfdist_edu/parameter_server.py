"""Parameter-server training on one machine: the tasks in processes of their own.

In parameter-server training the variables live on parameter servers (``ps`` tasks), workers
run training steps on their own data, and a coordinator (the ``chief``) schedules those steps
with ``tf.distribute.coordinator.ClusterCoordinator``: whichever worker is free takes the next
one, so workers go at their own pace (asynchronous training).

Two ways to run one. In a notebook, :func:`cluster_on` and :func:`serve` make ipyparallel
engines (:mod:`tfdist_edu.engines`) the ps and worker tasks, each a server that waits, and the
notebook's kernel is the chief: it runs the coordinator itself, so its cells schedule the steps.
As scripts, :func:`run_coordinator` runs a coordinator script (lesson 8 writes one) against a
local cluster and can kill a worker mid-run; :func:`run_parameter_server` runs lesson 8's
coordinator as the package ships it (``scripts/ps_coordinator.py``, generated from the lesson's
cells) and returns what it saw, for the loss and placement figures. There every ps and worker
task is its own process (``scripts/ps_server.py``) and the coordinator another: the same topology
as a real multi-host job.

In-process ``tf.distribute.Server`` objects cannot be stopped, so no server runs in the kernel
but the chief's own: the engines' servers end with their processes.

Importing this module does not import TensorFlow.
"""

import contextlib
import dataclasses
import json
import os
import shutil
import socket
import sys
import tempfile
import time
from pathlib import Path

from tfdist_edu import cluster, supervisor, tfconfig, worker

_SCRIPT = worker.SCRIPTS_DIR / "ps_coordinator.py"
_SERVER = worker.SCRIPTS_DIR / "ps_server.py"


@dataclasses.dataclass
class PSRun:
    """What a parameter-server run did; ``dataclasses.asdict(run)`` is its JSON-able record.

    ``loss``: the loss of each scheduled step, in scheduling order. ``steps_per_worker``:
    ``{"worker 0": steps, ...}``, how many steps each worker executed. ``placement``: one
    ``{"variable", "shard", "device", "shape"}`` row per variable shard (shard 0 only when not
    partitioned). ``seconds``: wall time of the scheduled steps (start-up excluded).
    """

    loss: list
    steps_per_worker: dict
    placement: list
    num_workers: int
    num_ps: int
    seconds: float


def server_config(num_workers):
    """The ConfigProto for worker servers (imports TensorFlow; used inside the child processes).

    On a machine with fewer cores than workers + 1, TensorFlow's default inter-op thread pool is
    too small for the coordinator's concurrent steps to make progress, so it is raised to that.
    """
    import tensorflow as tf

    config = tf.compat.v1.ConfigProto()
    if (os.cpu_count() or 1) < num_workers + 1:
        config.inter_op_parallelism_threads = num_workers + 1
    return config


def cluster_on(workers, num_ps=1):
    """The parameter-server cluster of the engines ``workers`` (:func:`tfdist_edu.engines.start`)
    with this process as its chief; return its :class:`tfdist_edu.tfconfig.ClusterSpec`.

    The last ``num_ps`` engines are the ps tasks and the others the workers, each at the address
    its engine reported; the chief is this process, at a free port of this machine. Raises
    ValueError, before anything starts, unless there is at least one worker and one ps.
    """
    hosts = [address for _, _, address in workers.spec.tasks()]
    if isinstance(num_ps, bool) or not isinstance(num_ps, int) or not 1 <= num_ps < len(hosts):
        raise ValueError(f"num_ps must be an int from 1 to {len(hosts) - 1} (one engine at least must "
                         f"be a worker), got {num_ps!r}")
    local = all(tfconfig.split_address(a)[0] == "localhost" for a in hosts)
    chief = f"{'localhost' if local else socket.getfqdn()}:{tfconfig.free_ports(1)[0]}"
    return tfconfig.ClusterSpec({"chief": [chief], "worker": hosts[:-num_ps], "ps": hosts[-num_ps:]})


def serve(workers, spec, only=None):
    """Start on each engine of ``workers`` (or on engine ``only`` alone) the server of its task in
    ``spec`` (from :func:`cluster_on`: the workers first, then the ps), with that task's TF_CONFIG;
    return the servers' targets. Each server answers the chief until its engine ends."""
    from tfdist_edu.scripts import ps_server

    tasks = [(task_type, index) for task_type, index, _ in spec.tasks() if task_type != "chief"]
    chosen = range(len(tasks)) if only is None else [only]
    started = [workers.client[workers.ids[i]].apply_async(ps_server.serve, spec.tf_config(*tasks[i]))
               for i in chosen]
    return [done.get(timeout=120) for done in started]


@contextlib.contextmanager
def coordinator_log():
    """Collect what the coordinator logs while the block runs, a worker that failed included.

    ``ClusterCoordinator`` reports a failed step on TensorFlow's logger ("Worker ... failed with
    UnavailableError ...") before it puts the step back in the queue. Yields a list that fills
    with ``(seconds since the block began, first line of the message)`` for each warning and
    error logged; the lines still show where TensorFlow writes them.
    """
    import logging

    events, start = [], time.monotonic()

    class _Keep(logging.Handler):
        def emit(self, record):
            events.append((time.monotonic() - start, record.getMessage().splitlines()[0]))

    handler, logger = _Keep(logging.WARNING), logging.getLogger("tensorflow")
    logger.addHandler(handler)
    try:
        yield events
    finally:
        logger.removeHandler(handler)


def _hold_env(kill, resume):
    """Environment that makes the coordinator's report_epoch(n) wait for the kill of ``kill=(k, n)``."""
    if kill is None:
        return {}
    return {worker.HOLD_EPOCH_ENV: str(kill[1]), worker.RESUME_ENV: str(resume)}


def _check_counts(**counts):
    for name, value in counts.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be an int >= 1, got {value!r}")


def _start_servers(sup, spec, env):
    """Start every ps and worker task of ``spec`` as a ps_server.py child (a service)."""
    for task_type, index, _ in spec.tasks():
        if task_type != "chief":
            sup.start(
                f"{task_type} {index}",
                [sys.executable, "-u", str(_SERVER)],
                env={**env, "TF_CONFIG": json.dumps(spec.tf_config(task_type, index))},
                service=True,
            )


def run_coordinator(
    script, num_workers=2, num_ps=1, args=(), deadline_s=600, kill=None, echo=True
):
    """Run a coordinator ``script`` of your own against a local parameter-server cluster.

    Every ps and worker task is its own process (``scripts/ps_server.py``, a gRPC server from
    its TF_CONFIG), and ``python script *args`` runs as the chief with its TF_CONFIG, as on a
    real cluster: the script connects with ``TFConfigClusterResolver()``. Returns the dict the
    script passed to :func:`tfdist_edu.worker.write_result`, plus ``"events"``: what the runner
    did, with times in seconds since the start.

    ``kill=(k, n)`` SIGKILLs worker k as soon as the script has called
    ``worker.report_epoch(m)`` with ``m >= n`` (use it to mark rounds of scheduled steps), to
    show that the coordinator goes on with the workers that are left; ``report_epoch(n)`` waits
    until the worker is dead, so round n + 1 starts after the kill. Every process is killed
    by ``deadline_s`` at the latest (:class:`ClusterTimeout`); a failing coordinator raises
    :class:`WorkerFailed` with its last lines. Nothing outlives the call.
    """
    _check_counts(num_workers=num_workers, num_ps=num_ps)
    script = Path(script)
    if not script.is_file():
        raise FileNotFoundError(f"no coordinator script at {script} (write it first, e.g. with %%writefile)")
    if kill is not None:
        k, n = kill
        if not 0 <= k < num_workers or n < 1:
            raise ValueError(f"kill=(worker, round) needs 0 <= worker < {num_workers} and round >= 1, got {kill!r}")
    workdir = tempfile.mkdtemp(prefix="tfdist-ps-")
    result, progress = Path(workdir, "result.json"), Path(workdir, "progress")
    resume = Path(workdir, "resume")
    events, start = [], time.monotonic()

    def tick():
        nonlocal kill
        if kill is None:
            return
        marks = [json.loads(line) for line in progress.read_text().splitlines()] if progress.exists() else []
        done = max([m["epoch"] for m in marks if m["event"] == "epoch"], default=0)
        if done >= kill[1]:
            sup.kill(f"worker {kill[0]}")  # returns once the process is reaped
            resume.touch()  # the coordinator, waiting in report_epoch, schedules the next round
            events.append({"t": round(time.monotonic() - start, 2), "event": "killed",
                           "detail": f"worker {kill[0]} SIGKILLed after round {done}"})
            kill = None

    spec = tfconfig.ClusterSpec.local(workers=num_workers, ps=num_ps, chief=True)
    env = cluster.worker_env({**os.environ, "GRPC_FAIL_FAST": "use_caller"}, threads=1)
    try:
        with supervisor.Supervisor(deadline_s, echo=echo) as sup:
            _start_servers(sup, spec, env)
            sup.start(
                "coordinator",
                [sys.executable, "-u", str(script), *map(str, args)],
                env={**env, "TF_CONFIG": json.dumps(spec.tf_config("chief", 0)),
                     worker.RESULT_ENV: str(result), worker.PROGRESS_ENV: str(progress),
                     **_hold_env(kill, resume)},
            )
            sup.wait(on_tick=tick)
        if not result.exists():
            raise supervisor.WorkerFailed("the coordinator finished without writing its result", None)
        return {**json.loads(result.read_text()), "events": events}
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def run_parameter_server(
    num_workers=2, num_ps=1, steps=60, partition=False, min_shard_bytes=256, deadline_s=300, echo=True
):
    """Train the course CNN with lesson 8's coordinator for ``steps`` steps; return a :class:`PSRun`.

    The steps are scheduled in one round over ``num_workers`` workers, with the variables on
    ``num_ps`` parameter servers. ``partition=True`` shards each variable along its first axis
    with ``MinSizePartitioner(min_shard_bytes, max_shards=num_ps)`` (and differentiates the
    shards, as Keras 3 needs). Output streams as ``[coordinator] ...``, ``[ps 0]``,
    ``[worker 1]``... when ``echo`` is true. Every process is killed by ``deadline_s`` at the
    latest (:class:`tfdist_edu.supervisor.ClusterTimeout`); a process that fails raises
    :class:`tfdist_edu.supervisor.WorkerFailed` with its last lines. Nothing outlives the call.
    """
    _check_counts(num_workers=num_workers, num_ps=num_ps, steps=steps)
    if partition and (isinstance(min_shard_bytes, bool) or not isinstance(min_shard_bytes, int)
                      or min_shard_bytes < 1):
        raise ValueError(f"min_shard_bytes must be a positive int, got {min_shard_bytes!r}")
    args = ["--rounds", 1, "--steps-per-round", steps]
    if partition:
        args += ["--min-shard-bytes", min_shard_bytes, "--by-shard"]
    record = run_coordinator(_SCRIPT, num_workers=num_workers, num_ps=num_ps, args=args,
                             deadline_s=deadline_s, echo=echo)
    if "error" in record:
        raise supervisor.WorkerFailed(f"the coordinator's training failed: {record['error']}", None)
    return PSRun(loss=record["loss"], placement=record["placement"], num_workers=num_workers,
                 num_ps=num_ps, seconds=round(record["seconds"], 3),
                 steps_per_worker={f"worker {i}": record["worker"].count(i) for i in range(num_workers)})
