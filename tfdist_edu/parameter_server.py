"""Parameter-server training on one machine, always in child processes.

In parameter-server training the variables live on parameter servers (``ps`` tasks), workers
run training steps on their own data, and a coordinator (the ``chief``) schedules those steps
with ``tf.distribute.coordinator.ClusterCoordinator``: whichever worker is free takes the next
one, so workers go at their own pace (asynchronous training). :func:`run_parameter_server`
runs that for real and returns what it saw, for the lesson's loss and placement figures.

Why a child process: in-process ``tf.distribute.Server`` objects cannot be stopped, and a
strategy created later in the same process can hang, so the notebook's kernel never hosts them.
By default one child hosts the whole cluster (ps and worker servers on loopback ports, plus the
coordinator), as the TensorFlow tutorial does; with ``separate_processes=True`` every ps and
worker is its own process started from TF_CONFIG and the coordinator another: the same topology
as a real multi-host job, where each task runs ``scripts/ps_server.py`` on its own machine.

Importing this module does not import TensorFlow.
"""

import dataclasses
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from tfdist_edu import cluster, supervisor, tfconfig, worker

_SCRIPT = worker.SCRIPTS_DIR / "ps_train.py"
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


def run_parameter_server(
    num_workers=2,
    num_ps=1,
    steps=60,
    partition=False,
    min_shard_bytes=256,
    deadline_s=300,
    separate_processes=False,
    echo=True,
):
    """Train a small Keras 3 model with ParameterServerStrategy; return a :class:`PSRun`.

    The data are synthetic (labels from a fixed random linear teacher), generated in the child.

    ``steps`` training steps are scheduled over ``num_workers`` workers, with the variables on
    ``num_ps`` parameter servers. ``partition=True`` shards each variable along its first axis
    with ``MinSizePartitioner(min_shard_bytes, max_shards=num_ps)``. Output streams as
    ``[coordinator] ...`` (and ``[ps 0]``, ``[worker 1]``... with ``separate_processes``) when
    ``echo`` is true. Every process is killed by ``deadline_s`` at the latest, raising
    :class:`tfdist_edu.cluster.ClusterTimeout`; a process that fails raises
    :class:`tfdist_edu.cluster.WorkerFailed` with its last lines. Nothing outlives the call.
    """
    for name, value, low in (
        ("num_workers", num_workers, 1),
        ("num_ps", num_ps, 1),
        ("steps", steps, 1),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ValueError(f"{name} must be an int >= {low}, got {value!r}")
    if partition and (not isinstance(min_shard_bytes, int) or min_shard_bytes < 1):
        raise ValueError(f"min_shard_bytes must be a positive int, got {min_shard_bytes!r}")

    workdir = tempfile.mkdtemp(prefix="tfdist-ps-")
    result = Path(workdir, "result.json")
    coordinator = [
        sys.executable,
        "-u",
        str(_SCRIPT),
        f"--num-workers={num_workers}",
        f"--num-ps={num_ps}",
        f"--steps={steps}",
        f"--min-shard-bytes={min_shard_bytes if partition else 0}",
    ]
    # use_caller lets worker and ps failures reach the coordinator as errors (TensorFlow's advice
    # for parameter-server clusters) instead of RPCs waiting on a dead task.
    base = {**os.environ, "GRPC_FAIL_FAST": "use_caller"}
    try:
        with supervisor.Supervisor(deadline_s, echo=echo) as sup:
            if separate_processes:
                spec = tfconfig.ClusterSpec.local(workers=num_workers, ps=num_ps, chief=True)
                env = cluster.worker_env(base, threads=1)
                for task_type, index, _ in spec.tasks():
                    config = json.dumps(spec.tf_config(task_type, index))
                    if task_type == "chief":
                        sup.start(
                            "coordinator",
                            coordinator,
                            env={**env, "TF_CONFIG": config, worker.RESULT_ENV: str(result)},
                        )
                    else:
                        sup.start(
                            f"{task_type} {index}",
                            [sys.executable, "-u", str(_SERVER)],
                            env={**env, "TF_CONFIG": config},
                            service=True,
                        )
            else:
                env = {**cluster.worker_env(base), worker.RESULT_ENV: str(result)}
                sup.start("coordinator", coordinator + ["--in-process"], env=env)
            sup.wait()
        if not result.exists():
            raise supervisor.WorkerFailed("the coordinator finished without writing its result", None)
        return PSRun(**json.loads(result.read_text()))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
