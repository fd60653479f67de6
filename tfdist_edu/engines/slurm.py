"""Engines that Slurm starts: one job, one engine per node, its script filled in by ipyparallel."""

import dataclasses
import os

JOB_NAME = "tfdist-workers-{cluster_id}"  # the Slurm job of a cluster's engines


@dataclasses.dataclass(frozen=True)
class Slurm:
    """Engines started by Slurm (``sbatch``, one task per node) instead of on this machine.

    ``location``: the address the compute nodes reach this machine at (default: its host name);
    ``sbatch_args``: more options for the job, e.g. ``("--time=30", "--partition=cpu")``.
    """

    location: str = None
    sbatch_args: tuple = ()

    def __post_init__(self):
        if isinstance(self.sbatch_args, str):
            raise TypeError(f"sbatch_args is a tuple of options, e.g. ({self.sbatch_args!r},)")

    @staticmethod
    def job_name(cluster_id):
        return JOB_NAME.format(cluster_id=cluster_id)

    def launcher_options(self, cluster):
        """ipyparallel's Slurm engine launcher options: the job script it fills in ({n} tasks,
        its engine command) and where it writes it (the cluster's log folder, not the
        notebook's)."""
        extra = "".join(f"#SBATCH {arg}\n".replace("{", "{{").replace("}", "}}")
                        for arg in self.sbatch_args)
        template = ("#!/bin/sh\n#SBATCH --export=ALL\n#SBATCH --job-name=" + JOB_NAME + "\n"
                    "#SBATCH --ntasks={n}\n#SBATCH --ntasks-per-node=1\n"
                    "#SBATCH --output={output_file}\n" + extra + "srun {program_and_args}\n")
        folder = os.path.join(cluster.profile_dir, "log")
        os.makedirs(folder, exist_ok=True)
        return {"batch_template": template, "batch_file_name": os.path.join(
            folder, self.job_name(cluster.cluster_id) + ".sbatch")}
