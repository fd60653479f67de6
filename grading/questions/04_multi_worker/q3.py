"""Q3: the two-worker run: both finished, in sync, one chief, only the chief's checkpoint kept."""
# ruff: noqa: F821 - probe() runs in the student's namespace, where their names are defined

import re

from tfdist_instructor.grading.catalog import case, returned

OUTSIDE_SCOPE = ("the model and optimizer were built outside strategy.scope(), so their variables are not the "
                 "strategy's and the optimizer's distributed update fails: build both inside `with strategy.scope():`")


def probe(inputs):
    import os
    import sys

    def entries():
        return sorted(os.listdir(os.path.join(run.workdir, "checkpoint")))

    def failure():  # the exception of the last cell that raised (IPython keeps it), e.g. a WorkerFailed
        error = getattr(sys, "last_value", None)
        return None if error is None else f"{type(error).__name__}: {error}"[-4000:]

    return {"failure": attempt(failure),
            "codes": attempt(lambda: [w.returncode for w in run.workers]),
            "results": attempt(lambda: [{"losses": r["losses"], "weights_sum": r["weights_sum"],
                                         "is_chief": r["is_chief"]} for r in run.results]),
            "entries": attempt(entries)}


def _failure_diagnosis(inputs, out):
    """What the launch cell's WorkerFailed says: which worker, its exit status, and the likely mistake."""
    text = returned(out["failure"], "the last error") or ""
    exited = re.search(r"worker (\d+) exited with status (-?\d+)", text)
    if not exited:
        return None
    said = f"worker {exited[1]} exited with status {exited[2]} and the launch cell raised WorkerFailed"
    if "AssertionError" in text and "extended.update" in text:
        return f"{said}: {OUTSIDE_SCOPE}"
    return f"{said}; its last line: {text.strip().splitlines()[-1].strip()[:200]}"


@case(1, public=True, diagnose=_failure_diagnosis)
def both_workers_finished(inputs, out):
    codes = returned(out["codes"], "run")
    assert codes == [0, 0], f"both workers should exit with status 0, got {codes}"


@case(1, hint="both workers must train the same model in sync: create the strategy before the model and build "
              "the model inside strategy.scope()", diagnose=_failure_diagnosis)
def workers_trained_in_sync(inputs, out):
    first, second = returned(out["results"], "run.results")
    assert first["losses"] == second["losses"] and len(first["losses"]) > 0
    assert first["weights_sum"] == second["weights_sum"]


@case(1, hint="exactly one worker, worker 0, should report is_chief")
def worker_0_was_the_only_chief(inputs, out):
    assert [r["is_chief"] for r in returned(out["results"], "run.results")] == [True, False]


@case(1, hint="the chief's checkpoint must stay in the checkpoint directory, and no worker's temporary "
              "directory may remain")
def only_the_chief_checkpoint_remains(inputs, out):
    entries = returned(out["entries"], "the checkpoint directory")
    assert "checkpoint" in entries and any(e.startswith("ckpt-1.") for e in entries), entries
    assert not [e for e in entries if e.endswith("_temp")], entries
