"""The root conftest writes each notebook nbval ran, with that run's outputs, for the site."""

import os
import subprocess
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[2]


def _run_with_nbval(tmp_path, name, cells):
    """Run notebooks/``name`` made of ``cells`` under nbval with the root conftest; the source
    notebook and the executed copy it leaves."""
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    nbformat.write(nbformat.v4.new_notebook(cells=cells), notebooks / name)
    (tmp_path / "conftest.py").write_text((ROOT / "conftest.py").read_text())
    executed = tmp_path / "executed"
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "--nbval-lax", "-p", "no:cacheprovider",
                             f"notebooks/{name}"], cwd=tmp_path, capture_output=True, text=True,
                            timeout=300, env={**os.environ, "TFDIST_EDU_EXECUTED_DIR": str(executed)})
    assert result.returncode == 0, result.stdout[-2000:]
    return (nbformat.read(notebooks / name, as_version=4),
            nbformat.read(executed / "notebooks" / name, as_version=4))


def test_nbval_run_leaves_an_executed_copy_with_the_outputs_of_that_run(tmp_path):
    source, copy = _run_with_nbval(tmp_path, "tiny.ipynb", [nbformat.v4.new_markdown_cell("# A lesson"),
                                                            nbformat.v4.new_code_cell("print(6 * 7)")])
    assert copy.cells[1].outputs[0]["text"] == "42\n"
    assert not source.cells[1].outputs  # source untouched


def test_the_executed_copy_records_how_busy_other_processes_kept_the_cpu(tmp_path):
    _, copy = _run_with_nbval(tmp_path, "quiet.ipynb",
                              [nbformat.v4.new_code_cell("import time; time.sleep(0.5)")])
    run = copy.metadata["tfdist_edu"]["run"]
    assert run["cores"] == os.cpu_count() and isinstance(run["other_cores"], float)
    assert run["other_cores"] >= 0.0
