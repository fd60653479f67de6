"""Re-running a lesson's strategy cell, and the steps after it, keeps the kernel working.

A second ``MirroredStrategy`` in one process reuses the first one's collective keys, and its
first all-reduce of another shape fails with "Shape mismatch in the collective instance"
(tensorflow/tensorflow#62790), leaving the kernel broken. A student re-runs cells all the time,
so each lesson below is executed in one kernel up to its first training under the strategy; then
the strategy cell is run again, followed by cells that train or all-reduce under it, and none may
raise. Without the lessons' guard (keep the strategy the kernel already has), lesson 3's sequence
fails with that error at its training step; lesson 4's sequence happened to pass without it too.
"""

import os

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# lesson -> (the cell that creates the MirroredStrategy, the first training under it,
#            the cells re-run after the strategy cell, each found by a line it contains)
LESSONS = {
    "03_mirrored_custom_loop": (
        "strategy = tf.distribute.MirroredStrategy()",
        "step_losses = [distributed_train_step",
        ["optimizer = keras.optimizers.Adam(LEARNING_RATE)", "def compute_loss(labels, logits):",
         "step_losses = [distributed_train_step"]),
    "04_performance": (
        "mirrored = tf.distribute.MirroredStrategy()",
        "BATCHES = (32, 128, 512)",
        ["def make_replica_step(strategy, global_batch):", "costs = {"]),
}


def _index(cells, line):
    found = [i for i, cell in enumerate(cells) if cell.cell_type == "code" and line in cell.source]
    assert found, f"no code cell contains {line!r}: update LESSONS"
    return found[0]


def _errors(cell):
    return [f"{o.ename}: {o.evalue}" for o in cell.outputs if o.output_type == "error"]


@pytest.mark.slow
@pytest.mark.parametrize("lesson", sorted(LESSONS))
def test_rerunning_the_strategy_cell_and_the_steps_after_it_works(lesson, monkeypatch):
    monkeypatch.setenv("TFDIST_EDU_FAST", "1")
    monkeypatch.setenv("TFDIST_EDU_DATA", "synthetic")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        p for p in (ROOT, os.environ.get("PYTHONPATH")) if p))
    strategy_line, first_training, reruns = LESSONS[lesson]
    path = os.path.join(ROOT, "notebooks", f"{lesson}.ipynb")
    nb = nbformat.read(path, as_version=4)
    cells = nb.cells
    strategy_cell, stop = _index(cells, strategy_line), _index(cells, first_training)
    again = [strategy_cell] + [_index(cells, line) for line in reruns]
    assert strategy_cell < stop and all(strategy_cell < i for i in again[1:])

    client = NotebookClient(nb, timeout=900, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": os.path.dirname(path)}})
    with client.setup_kernel():
        for i, cell in enumerate(cells[:stop + 1]):
            if cell.cell_type == "code":
                client.execute_cell(cell, i)
                assert not _errors(cell), f"cell {i} failed on the first run: {_errors(cell)}"
        for i in again:
            client.execute_cell(cells[i], i)
            assert not _errors(cells[i]), (
                f"re-running cell {i} after the strategy cell failed: {_errors(cells[i])}")
