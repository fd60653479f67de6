"""Lesson 6's setup cell on a Colab TPU runtime: tensorflow-tpu with a loadable libtpu, and the
course without anything that would put the plain `tensorflow` on top of it."""

import re
import tomllib
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def _tpu_branch():
    cell = nbformat.read(ROOT / "notebooks" / "06_tpu.ipynb", as_version=4).cells[1].source
    branch = cell.split("if TPU_MACHINE:")[1].split("else:")[0]
    return [line.strip() for line in branch.strip().splitlines()]


def test_tpu_branch_installs_tensorflow_tpu_with_the_libtpu_that_imports():
    install = _tpu_branch()[0]
    assert '"tensorflow-tpu=={TENSORFLOW_TPU}" "libtpu=={LIBTPU}"' in install
    cell = nbformat.read(ROOT / "notebooks" / "06_tpu.ipynb", as_version=4).cells[1].source
    assert 'TENSORFLOW_TPU = "2.20.0"' in cell and 'LIBTPU = "0.0.17"' in cell


def test_tpu_branch_installs_the_course_without_deps_and_then_every_dependency_but_tensorflow():
    _, course, deps = _tpu_branch()
    assert "--no-deps" in course and "tfdist-edu @ git+" in course
    wanted = sorted(d.replace(" ", "") for d in PYPROJECT["project"]["dependencies"]
                    if not d.startswith("tensorflow>"))
    listed = sorted(re.findall(r'"([^"]+)"|(\S+)', deps.split("install -q", 1)[1]))
    assert sorted(a or b for a, b in listed) == wanted


def test_no_setup_cell_uninstalls_tensorflow_or_swaps_builds():
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        source = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code")
        assert "pip uninstall" not in source, path.name
