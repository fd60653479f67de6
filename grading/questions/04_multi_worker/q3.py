"""Q3: the two-worker run: both finished, in sync, one chief, only the chief's checkpoint kept."""
# ruff: noqa: F821 - probe() runs in the student's namespace, where their names are defined

from tfdist_instructor.grading.catalog import case, returned


def probe(inputs):
    import os

    def entries():
        return sorted(os.listdir(os.path.join(run.workdir, "checkpoint")))

    return {"codes": attempt(lambda: [w.returncode for w in run.workers]),
            "results": attempt(lambda: [{"losses": r["losses"], "weights_sum": r["weights_sum"],
                                         "is_chief": r["is_chief"]} for r in run.results]),
            "entries": attempt(entries)}


@case(1, public=True)
def both_workers_finished(inputs, out):
    codes = returned(out["codes"], "run")
    assert codes == [0, 0], f"both workers should exit with status 0, got {codes}"


@case(1, hint="both workers must train the same model in sync: create the strategy before the model and build "
              "the model inside strategy.scope()")
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
