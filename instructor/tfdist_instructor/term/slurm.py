"""``grade --slurm``: the class as a Slurm job array, merged into one report as a local run writes it.

The submitting host writes ``REPORT_DIR/slurm/manifest.json`` (the run's options with the class's
exercise and every student's seed written in; each submission's file, student and seed) and a job
script, and submits one array (``sbatch --requeue``); task k grades submissions k, k+N, k+2N, ...
in the same bubblewrap sandbox, each result written atomically to ``results/<index>.json``. A
task that dies (FAILED, NODE_FAIL, OUT_OF_MEMORY, TIMEOUT) is requeued (``scontrol requeue``) up
to ``retries`` times; its rerun skips the submissions whose result exists. The merge reads exactly
one result per submission index, so nothing is counted twice, and writes ``scores.csv`` and
``feedback/`` with the grader's own ``write_report``. The report folder, the submissions and this
Python must be on storage every node sees.
"""

import dataclasses
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from tfdist_instructor.grading import GradeOptions, GradeResult, grade_submission, write_report
from tfdist_instructor.grading.result import NOT_GRADED
from tfdist_instructor.grading.seeds import new_seed

DIED = {"FAILED", "NODE_FAIL", "OUT_OF_MEMORY", "TIMEOUT", "BOOT_FAIL", "PREEMPTED"}
FINAL = DIED | {"COMPLETED", "CANCELLED", "DEADLINE"}
PER_TASK = 10  # submissions per array task by default


@dataclasses.dataclass
class SlurmGrader:
    tasks: int | None = None
    sbatch_args: list = dataclasses.field(default_factory=list)  # extra sbatch arguments (--slurm-option)
    retries: int = 2
    poll_s: float = 3.0
    client: object = None  # runs a Slurm command (argv) and returns CompletedProcess; default: locally
    env: dict | None = None  # the environment jobs are submitted with (sbatch passes it on)
    records: list = dataclasses.field(default_factory=list)  # the array's tasks as Slurm last reported them

    def grade(self, files, out, options=GradeOptions(), named=None):
        """Grade ``{path: student}`` on Slurm with the run's ``options``, as ``options.exercise`` or else
        ``named`` (the exercise the class's files name). A student the options give no seed gets a new
        one here, so that a task and a rerun of it draw the same inputs: the manifest holds the options
        as plain data with that exercise and every student's seed written in, and each task builds its
        own copy from it. Write the report; return the results."""
        work = Path(out).resolve() / "slurm"
        (work / "results").mkdir(parents=True, exist_ok=True)
        exercise = options.exercise or named
        entries = [{"file": str(Path(p).resolve()), "student": s,
                    "seed": new_seed() if options.seed_for(s) is None else options.seed_for(s)}
                   for p, s in files.items()]
        tasks = max(1, min(len(entries), self.tasks or -(-len(entries) // PER_TASK)))
        given = {**options.as_dict(), "exercise": exercise, "seeds": {e["student"]: e["seed"] for e in entries}}
        manifest = {"options": given, "tasks": tasks, "submissions": entries}
        (work / "manifest.json").write_text(json.dumps(manifest, indent=1))
        script = work / "job.sh"
        script.write_text(f"#!/bin/bash\nexec {sys.executable} -m tfdist_instructor.term.slurm "
                          f"{work / 'manifest.json'} \"$SLURM_ARRAY_TASK_ID\"\n")
        job = self._run(["sbatch", "--parsable", "--requeue", f"--array=0-{tasks - 1}", f"--job-name=tfdist-grade",
                         f"--output={work}/task-%a.log", *self.sbatch_args,
                         str(script)]).stdout.strip().split(";")[0]
        print(f"Slurm job {job}: {len(entries)} submissions in {tasks} array task(s)", flush=True)
        share = -(-len(entries) // tasks)
        per_try = share * (options.timeout_s + 60) + 300
        self._wait(job, tasks, deadline=time.monotonic() + per_try * (self.retries + 1))
        results = merge(work, entries, exercise)
        write_report(results, out)
        return results

    def _wait(self, job, tasks, deadline):
        restarts = {}
        while time.monotonic() < deadline:
            self.records = [r for r in self._records(job) if r.get("ArrayTaskId", "").isdigit()]
            died = [r for r in self.records
                    if r["JobState"] in DIED and restarts.get(r["ArrayTaskId"], 0) < self.retries]
            for r in died:
                task = r["ArrayTaskId"]
                restarts[task] = restarts.get(task, 0) + 1
                print(f"Slurm task {job}_{task} {r['JobState']}: requeued ({restarts[task]}/{self.retries})",
                      flush=True)
                self._run(["scontrol", "requeue", f"{job}_{task}"])
            if not died and sum(r["JobState"] in FINAL for r in self.records) == tasks:
                return
            time.sleep(self.poll_s)
        self._run(["scancel", job], check=False)
        raise TimeoutError(f"Slurm job {job} was still running at its deadline: cancelled; rerun grade to finish")

    def _records(self, job):
        out = self._run(["scontrol", "show", "job", "-o", job], check=False).stdout
        return [dict(re.findall(r"(\w+)=(\S*)", line)) for line in out.splitlines() if line.strip()]

    def _run(self, argv, check=True):
        done = self.client(argv) if self.client else subprocess.run(argv, capture_output=True, text=True,
                                                                     env=self.env)
        if check and done.returncode:
            raise RuntimeError(f"{' '.join(argv[:2])} failed: {done.stderr.strip()}")
        return done


def merge(work, entries, exercise):
    """One GradeResult per submission, in manifest order; a missing result is a failed row."""
    results = []
    for index, entry in enumerate(entries):
        path = Path(work) / "results" / f"{index}.json"
        if path.is_file():
            results.append(GradeResult(**json.loads(path.read_text())))
        else:
            results.append(GradeResult(student=entry["student"], file=Path(entry["file"]).name, exercise=exercise,
                                       status=NOT_GRADED, problems=["its Slurm task never finished grading it"]))
    return results


def task(manifest_path, index):
    """Grade this array task's share of the manifest, with the options it holds (the exercise and every
    seed in them); skip what an earlier run of it finished."""
    manifest = json.loads(Path(manifest_path).read_text())
    options = GradeOptions.from_dict(manifest["options"])
    results = Path(manifest_path).parent / "results"
    for i in range(int(index), len(manifest["submissions"]), manifest["tasks"]):
        target = results / f"{i}.json"
        if target.exists():
            continue
        entry = manifest["submissions"][i]
        result = grade_submission(entry["file"], options, student=entry["student"])
        partial = target.with_suffix(f".{os.getpid()}.part")
        partial.write_text(json.dumps(dataclasses.asdict(result)))
        os.replace(partial, target)  # atomic: a result is whole or absent
        print(f"graded {i}: {result.student} {result.score:g}/{result.possible:g} ({result.status})", flush=True)


if __name__ == "__main__":
    task(*sys.argv[1:3])
