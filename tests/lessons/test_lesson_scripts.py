"""Every script a lesson writes with `%%writefile` is the package's script: the package's copy is
generated from the lesson's cell (scripts/lesson_scripts.py), so a student reads what the tests,
the benchmarks and the Slurm recipes run."""

import subprocess
import sys

from tfdist_instructor import REPO_ROOT

TOOL = REPO_ROOT / "scripts" / "lesson_scripts.py"


def test_every_package_copy_is_its_lesson_cell_with_the_generated_header():
    result = subprocess.run([sys.executable, str(TOOL)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_a_copy_that_drifted_from_its_lesson_is_named_with_the_command_that_repairs_it(tmp_path, monkeypatch):
    import importlib.util

    spec = importlib.util.spec_from_file_location("lesson_scripts", TOOL)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    entry = next(e for e in tool.SCRIPTS if e[2].endswith("jax_fit.py"))
    notebook, cell_id, copy = entry
    monkeypatch.setattr(tool, "SCRIPTS", [entry])
    (tmp_path / "notebooks").mkdir()
    (tmp_path / notebook).write_text((REPO_ROOT / notebook).read_text())
    (tmp_path / copy).parent.mkdir(parents=True)
    (tmp_path / copy).write_text(tool.from_lesson(notebook, cell_id).replace("gloo", "mpi"))
    monkeypatch.setattr(tool, "ROOT", tmp_path)
    assert tool.main([]) == 1
    assert tool.main(["--write"]) == 0
    assert tool.main([]) == 0
    assert "gloo" in (tmp_path / copy).read_text()


def test_a_script_written_in_parts_is_generated_exactly_as_the_lesson_joins_it(tmp_path, monkeypatch):
    import importlib.util
    import json
    import pathlib

    spec = importlib.util.spec_from_file_location("lesson_scripts", TOOL)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    notebook, cell_ids, copy = next(e for e in tool.SCRIPTS if not isinstance(e[1], str))
    cells = {c.get("id"): "".join(c["source"]) for c in json.loads((REPO_ROOT / notebook).read_text())["cells"]}
    parts = tmp_path / "parts"
    parts.mkdir()
    for cell_id in cell_ids:  # what each %%writefile cell writes: the cell after its first line
        first, _, body = cells[cell_id].partition("\n")
        (tmp_path / first.split()[1]).write_text(body)
    monkeypatch.chdir(tmp_path)
    exec(cells["ps-join"], {"pathlib": pathlib, "PARTS": parts})  # the lesson's own join cell
    generated = (REPO_ROOT / copy).read_text()
    assert generated.endswith((tmp_path / "ps_coordinator.py").read_text())
    assert generated.startswith("# Generated from cells of " + notebook)
