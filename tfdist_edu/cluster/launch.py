"""The multi-worker launcher: :func:`launch_workers`, and the plan it prints for ``dry_run``."""

import json
import os
import shlex
import sys
import tempfile
from pathlib import Path

from tfdist_edu.cluster.environment import worker_env
from tfdist_edu.cluster.ports import _check_ports
from tfdist_edu.cluster.records import ClusterRun, WorkerRecord
from tfdist_edu.cluster.run import _MultiWorkerRun
from tfdist_edu.supervisor import Supervisor
from tfdist_edu.tfconfig import ClusterSpec, TFConfigError


def _print_plan(spec, command):
    print("Start the same command on every host; only TF_CONFIG differs.\n")
    for task_type, index, address in spec.tasks():
        who = " (the chief)" if spec.is_chief(task_type, index) else ""
        print(f"# on {address.rpartition(':')[0]}: {task_type} {index}{who}")
        print(f"export TF_CONFIG='{json.dumps(spec.tf_config(task_type, index))}'")
        print(shlex.join(command) + "\n")


def launch_workers(
    script,
    num_workers=2,
    hosts=None,
    args=(),
    deadline_s=300,
    env=None,
    legacy_keras=False,
    kill=None,
    echo=True,
    dry_run=False,
    prefix=None,
    workdir=None,
):
    """Run ``python script *args`` as a multi-worker cluster and return a :class:`ClusterRun`.

    Each worker gets its own TF_CONFIG (``num_workers`` workers on free loopback ports, or one
    per ``hosts`` entry, ``"host:port"``, which then sets the number of workers), the paths of
    its result and progress files (``TFDIST_EDU_RESULT``, ``TFDIST_EDU_PROGRESS``) and a shared
    ``TFDIST_EDU_RUN_DIR`` (``workdir``, a new temporary directory by default) for checkpoints.
    Output streams live as ``[worker i] ...`` when ``echo`` is true. ``env`` adds variables;
    ``legacy_keras=True`` sets ``TF_USE_LEGACY_KERAS=1`` in the workers only, so ``tf.keras``
    there is tf-keras while this process stays on Keras 3.

    ``kill=(k, epoch)`` simulates a machine failure: worker k waits inside
    ``report_epoch(epoch)`` and is SIGKILLed once every worker has reported that epoch (so the
    chief's checkpoint of it exists); then the launcher restarts the cluster. As
    MultiWorkerMirroredStrategy cannot replace one worker, every worker is restarted (the
    survivors first get ``PEER_GRACE_S`` seconds to fail on their own) and the script resumes
    from its checkpoint or backup. The events and ``resumed_from`` of the returned record show it.

    ``dry_run=True`` starts nothing: it prints the TF_CONFIG and command for every host (use it
    with ``hosts`` for real machines). ``prefix`` is a list, per worker, of argv words to put
    before the command (e.g. ``["ip", "netns", "exec", "h1"]``).

    Raises :class:`WorkerFailed` (a worker exited non-zero; named, with its last lines),
    :class:`ClusterTimeout` (``deadline_s`` passed for the whole run; all killed),
    :class:`PortInUseError` and :class:`TFConfigError`. A KeyboardInterrupt kills every worker
    and is re-raised. No worker process outlives the call.
    """
    script = Path(script)
    if not dry_run and not script.is_file():
        raise FileNotFoundError(
            f"no worker script at {script} (write it first, e.g. with %%writefile)"
        )
    if hosts is not None:
        spec = ClusterSpec({"worker": list(hosts)})
    else:
        if not isinstance(num_workers, int) or num_workers < 1:
            raise TFConfigError(f"num_workers must be a positive int, got {num_workers!r}")
        spec = ClusterSpec.local(workers=num_workers)
    num_workers = len(spec.tasks())
    if prefix is not None and len(prefix) != num_workers:
        raise ValueError(
            f"prefix needs one argv list per worker ({num_workers}), got {len(prefix)}"
        )
    if kill is not None:
        k, kill_epoch = kill
        if not 0 <= k < num_workers or kill_epoch < 1:
            raise ValueError(
                f"kill=(worker, epoch) needs 0 <= worker < {num_workers} and epoch >= 1, "
                f"got {kill!r}"
            )
    command = [sys.executable, "-u", str(script), *map(str, args)]
    records = [
        WorkerRecord(
            i,
            address,
            spec.tf_config("worker", i),
            list((prefix or [[]] * num_workers)[i]) + command,
        )
        for i, (_, _, address) in enumerate(spec.tasks())
    ]
    run = ClusterRun(cluster=spec.as_dict(), workers=records)
    if dry_run:
        _print_plan(spec, ["python", str(script), *map(str, args)])
        return run

    _check_ports(spec, remote_ok=prefix is not None)
    run.workdir = str(workdir or tempfile.mkdtemp(prefix="tfdist-cluster-"))
    Path(run.workdir).mkdir(parents=True, exist_ok=True)
    threads = max(1, (os.cpu_count() or 1) // num_workers)
    env = worker_env({**os.environ, **(env or {})}, threads=threads, legacy_keras=legacy_keras)
    return _MultiWorkerRun(run, env, Supervisor(deadline_s, echo=echo), kill).execute()
