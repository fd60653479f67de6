"""Re-running a lesson's strategy cell never breaks the kernel.

For each lesson that builds a MirroredStrategy, run the notebook in one kernel up to the first
cell after the strategy cell that runs an all-reduce under it (the "step"), then run the
strategy cell and every cell down to the step again, as a student who re-runs them would. A
second MirroredStrategy in one process used to clash with the first one's collective keys
(tensorflow#62790, "Shape mismatch in the collective instance")."""

import os
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parents[2]
STRATEGY_CELL = re.compile(r"^\s*\w+ = tf\.distribute\.MirroredStrategy\(", re.M)
# The first cell after the strategy cell whose code runs an all-reduce under the strategy.
STEP_CELL = {
    "01_default_and_one_device": re.compile(r"sum_of_squares\(numbers\)"),
    # lesson 3: its first training, the step a clash of collective keys broke (it all-reduces
    # gradients of another shape than the earlier reduce did)
    "03_mirrored_custom_loop": re.compile(r"step_losses = \[distributed_train_step"),
    "04_performance": re.compile(r"grid_seconds = timed\(grid_arms\)"),
}


def _cells(nb, lesson):
    """Indexes of the code cells: all up to the step, the strategy cell, the step."""
    code = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
    strategy = next(i for i in code if STRATEGY_CELL.search(nb.cells[i].source))
    step = next(i for i in code if i > strategy and STEP_CELL[lesson].search(nb.cells[i].source))
    return [i for i in code if i <= step], strategy, step


@pytest.mark.slow
@pytest.mark.parametrize("lesson", sorted(STEP_CELL))
def test_rerunning_the_strategy_cell_and_the_step_after_it_keeps_working(lesson, monkeypatch):
    monkeypatch.setenv("TFDIST_EDU_FAST", "1")
    monkeypatch.setenv("TFDIST_EDU_DATA", os.environ.get("TFDIST_EDU_DATA", "synthetic"))
    nb = nbformat.read(ROOT / "notebooks" / f"{lesson}.ipynb", as_version=4)
    first_run, strategy, step = _cells(nb, lesson)
    client = NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(ROOT / "notebooks")}})
    with client.setup_kernel():
        for i in first_run:
            client.execute_cell(nb.cells[i], i)
        for i in [i for i in first_run if i >= strategy]:
            try:
                client.execute_cell(nb.cells[i], i)
            except CellExecutionError as error:
                pytest.fail(f"{lesson}: re-running cell {i} (strategy cell {strategy}, step {step}) "
                            f"failed: {str(error).strip().splitlines()[-1]}")


def test_rerunning_the_cells_that_write_lesson_8s_coordinator_script_writes_the_same_script(tmp_path):
    # They once appended with %%writefile -a: a second run doubled the training loop.
    nb = nbformat.read(ROOT / "notebooks" / "08_parameter_server.ipynb", as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    first = next(i for i, c in enumerate(code) if "WORKDIR = " in c.source)
    join = next(i for i, c in enumerate(code) if 'Path("ps_coordinator.py")' in c.source)
    cells = code[first:join + 1]
    assert any("%%writefile" in c.source for c in cells) and "%%writefile -a" not in str(cells)
    client = NotebookClient(nbformat.v4.new_notebook(cells=cells), timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    scripts = []
    with client.setup_kernel():
        for attempt in range(2):
            for i, cell in enumerate(cells[1:] if attempt else cells):  # the second time, all but WORKDIR
                client.execute_cell(cell, i)
            read = nbformat.v4.new_code_cell("print(script.read_text())")
            client.execute_cell(read, 0)
            scripts.append(read.outputs[0]["text"])
    assert scripts[0] == scripts[1]
    assert scripts[0].count("def train_step(") == 1 and scripts[0].count("for round_ in range(") == 1
    compile(scripts[0], "ps_coordinator.py", "exec")
