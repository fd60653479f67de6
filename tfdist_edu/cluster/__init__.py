"""Real multi-worker clusters of local processes.

:func:`launch_workers` runs a training script as N worker processes on loopback ports, each with
its own TF_CONFIG (:mod:`tfdist_edu.tfconfig`), so a lesson can run MultiWorkerMirroredStrategy
for real on one machine. It streams each worker's output with a ``[worker i]`` prefix, enforces a
deadline, never leaves a process behind (:mod:`tfdist_edu.supervisor`), and can kill a worker
mid-training and restart the cluster to show fault tolerance. Scripts report back through
:mod:`tfdist_edu.worker`.

On real machines, ``launch_workers(script, hosts=[...], dry_run=True)`` prints the TF_CONFIG
and command each host needs; docs/multi-host.md shows Slurm and Kubernetes patterns.
Importing this module does not import TensorFlow.

One concern a file:

- ``launch``: ``launch_workers``, its checks, and the plan ``dry_run`` prints
- ``ports``: the checks that every local port is free and every host is this machine
- ``environment``: ``worker_env``, the environment of every TensorFlow child process
- ``records``: ``ClusterRun`` and ``WorkerRecord``, what a launch returns
- ``run``: one launch at work: start the workers, follow their progress files, collect
- ``faults``: ``kill=(k, epoch)``: kill a worker, let its peers fail, restart the cluster;
  ``PEER_GRACE_S`` (read there, so patch ``cluster.faults.PEER_GRACE_S``)
"""

from tfdist_edu.cluster.environment import worker_env
from tfdist_edu.cluster.faults import PEER_GRACE_S
from tfdist_edu.cluster.launch import launch_workers
from tfdist_edu.cluster.records import ClusterRun, WorkerRecord

__all__ = ["launch_workers", "worker_env", "ClusterRun", "WorkerRecord", "PEER_GRACE_S"]
