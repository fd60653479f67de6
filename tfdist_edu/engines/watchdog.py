"""Nothing outlives the notebook: when the kernel that started engines dies, its engines end too.

ipyparallel stops its controller and engines when the kernel exits normally, but a kernel killed
outright (the OOM killer, a hung kernel restarted, ``kill -9``) runs no exit handler, and its
controller and engines, TensorFlow servers among them, would keep running. ``guard(cluster_id)``
starts a small process that waits for this kernel to end and then stops every process of that
ipyparallel cluster (they carry its id in ``IPP_CLUSTER_ID``) and cancels its Slurm job.
``Workers.stop()`` ends the guard with the engines.
"""

import argparse
import os
import subprocess
import sys


def guard(cluster_id, slurm_job_name=None):
    """Start the guard for ``cluster_id`` (and the Slurm job named ``slurm_job_name``); return
    its process."""
    argv = [sys.executable, "-m", "tfdist_edu.engines.watchdog", str(os.getpid()), cluster_id]
    if slurm_job_name:
        argv += ["--slurm-job-name", slurm_job_name]
    return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def cluster_processes(cluster_id):
    """The live processes on this machine started for ipyparallel cluster ``cluster_id``."""
    import psutil

    found = []
    for proc in psutil.process_iter():
        try:
            if proc.environ().get("IPP_CLUSTER_ID") == cluster_id:
                found.append(proc)
        except (psutil.AccessDenied, psutil.NoSuchProcess, psutil.ZombieProcess):
            continue
    return found


def end(cluster_id, slurm_job_name=None, grace_s=5):
    """Cancel the Slurm job, then stop the cluster's processes: SIGTERM, SIGKILL after
    ``grace_s`` (TensorFlow's servers may not exit on SIGTERM)."""
    import psutil

    if slurm_job_name:
        try:
            subprocess.run(["scancel", "--name", slurm_job_name], check=False, capture_output=True)
        except OSError:  # no scancel here: the job's processes on this machine are still ended
            pass
    procs = cluster_processes(cluster_id)
    for signal_ in ("terminate", "kill"):
        for proc in procs:
            try:
                getattr(proc, signal_)()
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                pass
        _, procs = psutil.wait_procs(procs, timeout=grace_s)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kernel_pid", type=int)
    parser.add_argument("cluster_id")
    parser.add_argument("--slurm-job-name")
    args = parser.parse_args(argv)
    import psutil

    try:
        kernel = psutil.Process(args.kernel_pid)
        # Not this process's child: wait() would not return while it is an unreaped zombie.
        while kernel.status() != psutil.STATUS_ZOMBIE:
            try:
                kernel.wait(timeout=1)
                break
            except psutil.TimeoutExpired:
                continue
    except psutil.NoSuchProcess:
        pass
    end(args.cluster_id, args.slurm_job_name)


if __name__ == "__main__":
    main()
