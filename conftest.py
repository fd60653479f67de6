"""nbval settings for every notebook folder, and the executed copies the course site reuses.

TensorFlow's stderr chatter is not compared. With ``TFDIST_EDU_EXECUTED_DIR`` set, every
notebook nbval runs is also written there with the outputs of that run, so the site build
shows what CI executed instead of running the lessons a second time, with how much CPU other
processes used while it ran (``metadata.tfdist_edu.run.other_cores``).
"""

import os
import time
from pathlib import Path

import pytest

# Broken notebooks on purpose: the grader's test fixtures, not lessons to run.
collect_ignore = ["tests/instructor/grading/fixtures"]

EXECUTED_DIR = os.environ.get("TFDIST_EDU_EXECUTED_DIR")
_executed = {}  # notebook path -> its nbformat node, outputs filled in as cells run
_others = {}  # notebook path -> OtherLoad: other processes' CPU while its cells ran


def pytest_collectstart(collector):
    if collector.fspath and collector.fspath.ext == ".ipynb":
        collector.skip_compare += ("stderr",)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    start = time.perf_counter()
    load = None
    if EXECUTED_DIR and str(item.fspath).endswith(".ipynb"):
        from tfdist_edu.other_load import OtherLoad

        load = _others.setdefault(Path(str(item.parent.fspath)), OtherLoad()).start()
    yield
    if load is not None:
        load.stop()
    outputs = getattr(item, "test_outputs", None)  # set by nbval once the cell has run
    if EXECUTED_DIR and outputs is not None:
        item.cell.outputs = outputs
        item.cell.execution_count = item.cell_num
        # How long the cell took, for `make outputs` and scripts/lesson_times.py.
        item.cell.metadata["tfdist_edu"] = {"seconds": round(time.perf_counter() - start, 2)}
        _executed[Path(str(item.parent.fspath))] = item.parent.nb


def pytest_sessionfinish(session):
    if not _executed:
        return
    import nbformat

    from tfdist_edu import settings

    root = Path(str(session.config.rootpath))
    run = {"fast_mode": settings.fast_mode(), "data": os.environ.get("TFDIST_EDU_DATA", "auto")}
    for path, nb in _executed.items():
        # Other processes' average CPU use (in cores) while this notebook's cells ran, measured
        # as the tour measures it: `make outputs` refuses a run that was not quiet.
        others = round(_others[path].cores(), 3) if path in _others else None
        nb.metadata.setdefault("tfdist_edu", {})["run"] = {**run, "other_cores": others,
                                                           "cores": os.cpu_count()}
        target = Path(EXECUTED_DIR) / path.relative_to(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, target)
