"""Lesson 6's setup cell on a Colab TPU runtime: tensorflow-tpu beside Colab's own packages (JAX
and its libtpu pinned with pip's -c), the course without anything that would put the plain
`tensorflow` on top of it, and a clear stop on a Python that tensorflow-tpu has no wheel for.

The cell runs for real, as IPython turns it into Python, in a stand-in shell that records its
`!` and `%pip` lines instead of running them."""

import glob
import re
import sys
import tomllib
import types
from pathlib import Path

import nbformat
import pytest
from IPython.core.inputtransformer2 import TransformerManager

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
COLAB_FREEZE = "jax==0.7.2\njaxlib==0.7.2\nkeras==3.13.2\nlibtpu==0.0.21.1\nnumpy==2.1.3\n"


def _setup_cell():
    return nbformat.read(ROOT / "notebooks" / "06_tpu.ipynb", as_version=4).cells[1].source


class _Shell:
    """Stands in for get_ipython(): expands {names} as IPython does and records each command."""

    def __init__(self, namespace, installed, freeze):
        self.namespace, self.installed, self.freeze, self.commands = namespace, installed, freeze, []

    def system(self, command):
        command = command.format_map(self.namespace)
        self.commands.append(("!", command))
        if "pip list --format=freeze" in command:
            self.installed.write_text(self.freeze)

    def run_line_magic(self, magic, line):
        self.commands.append((magic, " ".join(line.format_map(self.namespace).split())))


def _run_on_a_tpu_runtime(tmp_path, monkeypatch, freeze=COLAB_FREEZE):
    """Run the setup cell as on a Colab TPU runtime; return the commands it issued."""
    monkeypatch.setitem(sys.modules, "google.colab", types.ModuleType("google.colab"))
    monkeypatch.setattr(glob, "glob", lambda pattern: ["/dev/accel0"] if "accel" in pattern else [])
    installed = tmp_path / "colab-installed.txt"
    python = TransformerManager().transform_cell(_setup_cell())
    namespace = {}
    shell = _Shell(namespace, installed, freeze)
    namespace["get_ipython"] = lambda: shell
    exec(python.replace("/tmp/colab-installed.txt", str(installed)), namespace)
    return [c for kind, c in shell.commands if kind == "pip"], str(installed)


def test_every_install_on_a_tpu_runtime_keeps_colabs_packages_and_libtpu(tmp_path, monkeypatch):
    pips, installed = _run_on_a_tpu_runtime(tmp_path, monkeypatch)
    tpu, course, deps = pips
    assert tpu == f'install -q -c {installed} "tensorflow-tpu==2.20.0"'  # Colab's libtpu stays
    assert deps.startswith(f"install -q -c {installed} ")
    assert "--no-deps" in course and "tfdist-edu @ git+" in course


def test_a_machine_without_libtpu_gets_the_one_tensorflow_tpu_can_load(tmp_path, monkeypatch):
    pips, installed = _run_on_a_tpu_runtime(tmp_path, monkeypatch, freeze="numpy==2.1.3\n")
    assert pips[0] == f'install -q -c {installed} "tensorflow-tpu==2.20.0" libtpu==0.0.17'


def test_a_python_without_a_tensorflow_tpu_wheel_stops_with_a_message_before_any_install(
        tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "version_info", (3, 14, 0, "final", 0))
    with pytest.raises(SystemExit) as stop:
        _run_on_a_tpu_runtime(tmp_path, monkeypatch)
    message = str(stop.value)
    assert "Python 3.14" in message and "3.9 to 3.13" in message and "tensorflow-tpu 2.20.0" in message
    assert "CPU or GPU runtime" in message
    assert not (tmp_path / "colab-installed.txt").exists()  # nothing was listed or installed


def test_tpu_branch_installs_the_course_without_deps_and_then_every_dependency_but_tensorflow(
        tmp_path, monkeypatch):
    pips, installed = _run_on_a_tpu_runtime(tmp_path, monkeypatch)
    deps = pips[2].split(f"-c {installed}", 1)[1]
    wanted = sorted(d.replace(" ", "") for d in PYPROJECT["project"]["dependencies"]
                    if not d.startswith("tensorflow>"))
    assert sorted(a or b for a, b in re.findall(r'"([^"]+)"|(\S+)', deps)) == wanted


def test_no_setup_cell_uninstalls_tensorflow_or_swaps_builds():
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        source = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code")
        assert "pip uninstall" not in source, path.name
