"""The parent side: start a combination's processes, read what they wrote, return an Outcome.

A local strategy runs in one ``python -m tfdist_instructor.compat --probe`` process;
``multi_worker`` runs this package's ``__main__.py`` as the script of 2 workers through
:func:`tfdist_edu.cluster.launch_workers`.
"""

import json
import sys
from pathlib import Path

from tfdist_edu import cluster, supervisor, worker
from tfdist_instructor.compat.outcome import FAILS, WORKS, Outcome, one_line


def run_probe(strategy, path, deadline_s, workdir):
    result = Path(workdir, "result.json")
    env = cluster.worker_env(legacy_keras=path == "tf_keras_fit")
    env[worker.RESULT_ENV] = str(result)
    argv = [sys.executable, "-u", "-m", "tfdist_instructor.compat", "--probe", strategy, path]
    try:
        with supervisor.Supervisor(deadline_s, echo=False) as sup:
            sup.start("probe", argv, env=env)
            sup.wait()
    except supervisor.ClusterError as err:
        return _from_result(strategy, path, result) or Outcome(strategy, path, FAILS, _crash_line(err, deadline_s))
    return _from_result(strategy, path, result) or Outcome(
        strategy, path, FAILS, "RuntimeError: the probe exited without writing a result")


def run_workers(path, deadline_s, workdir):
    script = Path(__file__).resolve().with_name("__main__.py")
    try:
        run = cluster.launch_workers(script, num_workers=2, args=["--worker", path], deadline_s=deadline_s,
                                     legacy_keras=path == "tf_keras_fit", echo=False, workdir=workdir)
    except supervisor.ClusterError as err:
        written = [r for r in (err.run.results if err.run else []) if r]
        if written:
            return Outcome("multi_worker", path, FAILS, written[0]["error"])
        return Outcome("multi_worker", path, FAILS, _crash_line(err, deadline_s))
    results = run.results
    if any(r is None for r in results):
        return Outcome("multi_worker", path, FAILS, "RuntimeError: a worker exited without writing a result")
    failed = [r for r in results if r["status"] != WORKS]
    if failed:
        return Outcome("multi_worker", path, failed[0]["status"], failed[0]["error"])
    if len({r["weights_sha256"] for r in results}) != 1:
        return Outcome("multi_worker", path, FAILS,
                       "AssertionError: the workers ended with different weights: the updates were not in sync")
    first = results[0]
    return Outcome("multi_worker", path, WORKS,
                   detail=f"2 workers, {first['replicas']} replicas, same weights on both, loss {first['loss']:.2f}")


def _from_result(strategy, path, result):
    try:
        data = json.loads(result.read_text())
    except (OSError, ValueError):
        return None
    return Outcome(strategy, path, data["status"], data.get("error"), data.get("detail", ""))


def _crash_line(err, deadline_s):
    if isinstance(err, supervisor.ClusterTimeout):
        return f"TimeoutError: no result within {deadline_s} s (the run hung)"
    tail = [line for line in str(err).splitlines()[1:] if line.strip()]
    return "RuntimeError: the process died: " + (one_line(tail[-1]) if tail else "no output")
