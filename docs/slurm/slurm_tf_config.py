"""Print this Slurm task's TF_CONFIG, as SlurmClusterResolver lays out the job step.

Run it inside a job step (one copy per task, under srun):

    export TF_CONFIG=$(python slurm_tf_config.py --port-base 2222)
    export TF_CONFIG=$(python slurm_tf_config.py --port-base 2222 --jobs chief=1,worker=2,ps=1)

The resolver reads SLURM_PROCID and the step's node list and tasks per node; the n-th task on a
node listens on port-base + n. Task types are filled in alphabetical order of job name.
A script of your own can skip TF_CONFIG and pass the resolver to the strategy directly:
``tf.distribute.MultiWorkerMirroredStrategy(cluster_resolver=resolver(...))``.
"""

import argparse
import json
import os
import shutil

import tensorflow as tf


def parse_jobs(text):
    """"chief=1,worker=2,ps=1" -> {"chief": 1, "worker": 2, "ps": 1}."""
    jobs = {}
    for part in text.split(","):
        name, _, count = part.partition("=")
        if not name or not count.isdigit():
            raise SystemExit(f"--jobs: expected name=count[,name=count...], got {text!r}")
        jobs[name] = int(count)
    return jobs


def resolver(jobs, port_base):
    """A SlurmClusterResolver that also works on nodes without GPUs.

    Unless told, the resolver counts GPUs with nvidia-smi and fails where there is none; and it
    hands tasks out one GPU slice at a time, so on CPU-only nodes it gets one placeholder slot per
    task and is kept from touching CUDA_VISIBLE_DEVICES.
    """
    slurm_resolver = tf.distribute.cluster_resolver.SlurmClusterResolver
    if shutil.which("nvidia-smi") or os.environ.get("CUDA_VISIBLE_DEVICES"):
        return slurm_resolver(jobs=jobs, port_base=port_base)
    slots = int(os.environ["SLURM_STEP_NUM_TASKS"])
    return slurm_resolver(jobs=jobs, port_base=port_base, gpus_per_node=slots, gpus_per_task=1,
                    auto_set_gpu=False)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port-base", type=int, default=2222)
    parser.add_argument("--jobs", type=parse_jobs, default=None,
                        help="task types and counts, e.g. chief=1,worker=2,ps=1 "
                        "(default: every task a worker)")
    args = parser.parse_args()
    if "SLURM_PROCID" not in os.environ:
        raise SystemExit("no SLURM_PROCID: run this inside a Slurm job step (srun)")
    found = resolver(args.jobs, args.port_base)
    spec = found.cluster_spec().as_dict()  # also sets task_type and task_id
    print(json.dumps({"cluster": spec, "task": {"type": found.task_type, "index": found.task_id}}))


if __name__ == "__main__":
    main()
