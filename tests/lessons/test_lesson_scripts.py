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
    notebook, cell_id, copy = tool.SCRIPTS[0]
    (tmp_path / "notebooks").mkdir()
    (tmp_path / notebook).write_text((REPO_ROOT / notebook).read_text())
    (tmp_path / copy).parent.mkdir(parents=True)
    (tmp_path / copy).write_text(tool.from_lesson(notebook, cell_id).replace("gloo", "mpi"))
    monkeypatch.setattr(tool, "ROOT", tmp_path)
    assert tool.main([]) == 1
    assert tool.main(["--write"]) == 0
    assert tool.main([]) == 0
    assert "gloo" in (tmp_path / copy).read_text()
