"""One :func:`launch_workers` call at work: start every worker with its own files, follow their
progress, and collect exit codes, results and logs (the kill and restart are in ``faults``)."""

import json
import time
from pathlib import Path

from tfdist_edu.cluster.faults import _FaultInjection
from tfdist_edu.worker import KILL_EPOCH_ENV, PROGRESS_ENV, RESULT_ENV, RUN_DIR_ENV


def _read_progress(path):
    try:
        return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    except (OSError, ValueError):
        return []


class _MultiWorkerRun(_FaultInjection):
    """One launch_workers call: start workers, watch progress, kill and restart, collect."""

    def __init__(self, run, env, sup, kill):
        self.run, self.env, self.sup, self.pending_kill = run, env, sup, kill
        self.started = time.monotonic()
        self.seen_start = set()

    def execute(self):
        try:
            with self.sup:  # on any error or KeyboardInterrupt it kills every worker
                self.start_all()
                self.sup.wait(on_tick=self.on_tick, run=self.run)
        finally:
            self.run.seconds = round(time.monotonic() - self.started, 2)
            self.collect()
        self.event("finished", None, "every worker exited with status 0")
        return self.run

    def event(self, name, worker, detail):
        self.run.events.append(
            {
                "t": round(time.monotonic() - self.started, 2),
                "event": name,
                "worker": worker,
                "detail": detail,
            }
        )

    def paths(self, index):
        """The result JSON and progress file of one worker."""
        base = Path(self.run.workdir, f"worker-{index}")
        return base.with_suffix(".json"), base.with_suffix(".progress")

    def epochs_done(self, index):
        marks = _read_progress(self.paths(index)[1])
        return max([m["epoch"] for m in marks if m["event"] == "epoch"], default=0)

    def start_all(self):
        self.run.attempts += 1
        for rec in self.run.workers:
            result, progress = self.paths(rec.index)
            result.unlink(missing_ok=True)
            progress.unlink(missing_ok=True)
            env = {
                **self.env,
                "TF_CONFIG": json.dumps(rec.tf_config),
                RESULT_ENV: str(result),
                PROGRESS_ENV: str(progress),
                RUN_DIR_ENV: self.run.workdir,
            }
            if self.pending_kill is not None and self.pending_kill[0] == rec.index:
                env[KILL_EPOCH_ENV] = str(self.pending_kill[1])
            self.sup.start(f"worker {rec.index}", rec.command, env=env)
        self.event("started", None, f"attempt {self.run.attempts}: {len(self.run.workers)} workers")

    def on_tick(self):
        for rec in self.run.workers:
            for mark in _read_progress(self.paths(rec.index)[1]):
                key = (self.run.attempts, rec.index)
                if mark["event"] == "start" and key not in self.seen_start:
                    self.seen_start.add(key)
                    if mark["epoch"] > 0 or self.run.attempts > 1:
                        self.run.resumed_from = mark["epoch"]
                        self.event(
                            "resumed",
                            rec.index,
                            f"worker {rec.index} resumed from epoch {mark['epoch']}",
                        )
        self.kill_when_due()

    def collect(self):
        for rec in self.run.workers:
            child = self.sup.children.get(f"worker {rec.index}")
            if child is not None:
                rec.log += list(child.lines)
                rec.returncode = child.proc.returncode
            result = self.paths(rec.index)[0]
            try:
                rec.result = json.loads(result.read_text())
            except (OSError, ValueError):  # not written, or cut short by a kill
                rec.result = None
