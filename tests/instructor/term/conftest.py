"""Fixtures shared by the term's tests: the Gradescope autograder of exercise 5, built once, and
its run on the exercise's solution (the Gradescope and the term tests read the same run)."""

import json
import os
import shutil
import subprocess
import sys
import zipfile

import pytest

from tfdist_instructor import REPO_ROOT
from tfdist_instructor.term import gradescope

EXERCISE = "05_ring_allreduce"


def run_autograder(zip_path, notebook, root):
    """Lay the zip out as Gradescope does under ``root`` and run its run_autograder on ``notebook``."""
    with zipfile.ZipFile(zip_path) as z:
        z.extractall(root / "source")
    for name in ("run_autograder", "setup.sh"):
        (root / "source" / name).chmod(0o755)
    shutil.copy2(root / "source" / "run_autograder", root / "run_autograder")
    (root / "submission").mkdir()
    shutil.copy2(notebook, root / "submission" / notebook.name)
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "AUTOGRADER_PYTHON": sys.executable}
    done = subprocess.run([str(root / "run_autograder")], cwd=root, env=env, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads((root / "results" / "results.json").read_text())


@pytest.fixture(scope="session")
def gradescope_zip(tmp_path_factory):
    """The autograder zip of exercise 5, with a 300 s time limit."""
    return gradescope.build(EXERCISE, tmp_path_factory.mktemp("gs") / "autograder.zip", timeout_s=300)


@pytest.fixture(scope="session")
def gradescope_solution(gradescope_zip, tmp_path_factory):
    """The results.json that zip's run_autograder writes for exercise 5's solution."""
    return run_autograder(gradescope_zip, REPO_ROOT / "solutions" / EXERCISE / f"{EXERCISE}.ipynb",
                          tmp_path_factory.mktemp("gs-run") / "autograder")
