"""Each kind of setup cell, run as on Colab: a stand-in ``google.colab`` module, the cell's
``%pip`` and ``!git`` lines for real, against a ``file://`` clone of this checkout's committed
state (``TFDIST_EDU_REPO_URL``), in a throwaway environment layered on Colab's package versions.
Afterwards ``import tfdist_edu`` works, no preinstalled package changed version, and an
exercise has fetched its own folder only: no solutions, masters or hidden tests on disk."""

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from tfdist_instructor import retarget

ROOT = Path(__file__).resolve().parents[2]
REPO, BRANCH = retarget.current(ROOT)


def _run(*args, **kwargs):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kwargs).stdout


@pytest.fixture(scope="module")
def course_url(tmp_path_factory):
    """A file:// URL serving the committed checkout at the branch the cells ask for."""
    served = tmp_path_factory.mktemp("served") / "course"
    _run("git", "clone", "-q", "--no-hardlinks", str(ROOT), str(served))
    _run("git", "-C", str(served), "checkout", "-q", "-B", BRANCH)
    _run("git", "-C", str(served), "config", "uploadpack.allowFilter", "true")
    _run("git", "-C", str(served), "config", "uploadpack.allowAnySHA1InWant", "true")
    return served, f"file://{served}"


@pytest.fixture
def colab(tmp_path):
    """A fresh environment seeing Colab's packages, a stand-in google.colab, a home and a kernel."""
    env_dir = tmp_path / "env"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    site = Path(_run(str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))").strip())
    (site / "colab-stack.pth").write_text(_run(sys.executable, "-c", "import site; print(site.getsitepackages()[0])"))
    standin = tmp_path / "standin" / "google" / "colab"
    standin.mkdir(parents=True)
    # No google/__init__.py: `google` stays a namespace package, so google.protobuf still imports.
    (standin / "__init__.py").write_text('"""Stand-in: makes `"google.colab" in sys.modules` true."""\n')
    kernels = tmp_path / "jupyter" / "kernels" / "colab"
    kernels.mkdir(parents=True)
    (kernels / "kernel.json").write_text(json.dumps({
        "argv": [str(python), "-c", "import google.colab; from ipykernel import kernelapp; kernelapp.launch_new_instance()",
                 "-f", "{connection_file}"],
        "display_name": "Colab stand-in", "language": "python"}))
    (tmp_path / "home").mkdir()
    return {"python": python, "home": tmp_path / "home", "jupyter": tmp_path / "jupyter",
            "pythonpath": str(tmp_path / "standin")}


def _installed(colab):
    # Without PYTHONPATH: the checkout on it (and the .egg-info an editable install leaves there)
    # is not part of the student's environment.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = _run(str(colab["python"]), "-m", "pip", "list", "--format=freeze", "--disable-pip-version-check", env=env)
    return dict(line.split("==", 1) for line in out.splitlines() if "==" in line)


def _execute(colab, url, cells, monkeypatch):
    """Run `cells` in a kernel of the stand-in environment; return the notebook."""
    monkeypatch.setenv("JUPYTER_PATH", str(colab["jupyter"]))
    monkeypatch.setenv("PYTHONPATH", colab["pythonpath"])  # not the checkout: tfdist_edu must come from the cell
    monkeypatch.setenv("HOME", str(colab["home"]))
    monkeypatch.setenv("PIP_CACHE_DIR", str(Path.home() / ".cache" / "pip"))
    monkeypatch.setenv("TFDIST_EDU_REPO_URL", url)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    NotebookClient(nb, kernel_name="colab", timeout=900, allow_errors=True,
                   resources={"metadata": {"path": str(colab["home"])}}).execute()
    outputs = [_text(cell) for cell in nb.cells]
    assert not any(o.get("output_type") == "error" for c in nb.cells for o in c.outputs), "\n---\n".join(outputs)
    return outputs


def _text(cell):
    return "".join(o.get("text", "") or "\n".join(o.get("traceback", [])) for o in cell.outputs)


def _setup_cell(path):
    nb = nbformat.read(ROOT / path, as_version=4)
    return next(c.source for c in nb.cells if c.cell_type == "code")


IMPORT_CHECK = "import tfdist_edu, tfdist_edu.data, tensorflow as tf\nprint(tfdist_edu.__file__, tf.__version__)"


@pytest.mark.parametrize("lesson", ["notebooks/01_default_and_one_device.ipynb", "notebooks/06_tpu.ipynb"])
def test_lesson_setup_cell_installs_the_course_and_changes_no_preinstalled_package(lesson, course_url, colab,
                                                                                    monkeypatch):
    before = _installed(colab)
    where = _execute(colab, course_url[1], [_setup_cell(lesson), IMPORT_CHECK], monkeypatch)[1]
    assert str(colab["python"].parents[1]) in where and str(ROOT) not in where
    after = _installed(colab)
    assert {k: (v, after.get(k)) for k, v in before.items() if after.get(k) != v} == {}
    assert "tfdist-edu" in after


def test_exercise_setup_cell_fetches_its_own_folder_and_no_hidden_test(course_url, colab, monkeypatch):
    served, url = course_url
    before = _installed(colab)
    check = 'import os, otter\nprint(os.getcwd(), sorted(os.listdir("tests")))\notter.Notebook(tests_dir="tests")'
    _execute(colab, url, [_setup_cell("exercises/02_custom_loop/02_custom_loop.ipynb"), IMPORT_CHECK, check],
             monkeypatch)
    after = _installed(colab)
    assert {k: (v, after.get(k)) for k, v in before.items() if after.get(k) != v} == {}

    clone = colab["home"] / "tfdist-edu"
    on_disk = {p.relative_to(clone).parts[0] for p in clone.rglob("*") if ".git" not in p.parts}
    assert not on_disk & {"solutions", "grading", "notebooks", "tests", "instructor"}, on_disk
    assert {p.name for p in (clone / "exercises").iterdir() if p.is_dir()} == {"02_custom_loop"}
    public = sorted(p.name for p in (ROOT / "exercises/02_custom_loop/tests").glob("*.py"))
    assert sorted(p.name for p in (clone / "exercises/02_custom_loop/tests").glob("*.py")) == public
    # Not even in git's object store: no blob of a solution, master or hidden test was fetched.
    secret = {line.split()[2] for line in _run("git", "-C", str(served), "ls-tree", "-r", "HEAD",
                                               "solutions", "grading").splitlines()}
    held = set(_run("git", "-C", str(clone), "cat-file", "--batch-all-objects", "--batch-check=%(objectname)").split())
    public_blobs = {line.split()[2] for line in _run("git", "-C", str(served), "ls-tree", "-r", "HEAD",
                                                     "exercises", "tfdist_edu").splitlines()}
    assert not (secret - public_blobs) & held
