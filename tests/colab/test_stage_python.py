"""The Colab stage runs on Colab's interpreter, and installing the course as a setup cell does
moved none of Colab's packages (scripts/colab_stack.sh keeps what pip listed before and after)."""

import os
import platform
import sys
from pathlib import Path

import pytest

COLAB_PYTHON = (3, 13)  # googlecolab/backend-info, Aug 2026: 3.13.15


def _freeze(name):
    path = Path(sys.prefix) / name
    assert path.exists(), f"{path} is missing: run the stage with scripts/colab_stack.sh"
    return {line.split("==", 1)[0].lower().replace("_", "-"): line.split("==", 1)[1]
            for line in path.read_text().splitlines() if "==" in line}


def test_the_stage_runs_on_colabs_python():
    if os.environ.get("TFDIST_EDU_COLAB_STAGE") == "stand-in":
        pytest.xfail(f"the stand-in runs Python {platform.python_version()}, not Colab's "
                     f"{'.'.join(map(str, COLAB_PYTHON))}: no Debian 13 root on this machine")
    assert sys.version_info[:2] == COLAB_PYTHON, f"Python {platform.python_version()}"


def test_installing_the_course_moved_no_pinned_package(pins):
    before, after = _freeze("preinstalled.txt"), _freeze("with-course.txt")
    pinned = {name.lower().replace("_", "-"): version for name, version in pins.items()}
    assert {n: before.get(n) for n in pinned} == pinned  # the stage installed Colab's versions
    assert {n: after.get(n) for n in pinned} == pinned
    assert {n: (v, after.get(n)) for n, v in before.items() if after.get(n) != v} == {}
    assert "tfdist-edu" in after


def test_colabs_tensorflow_is_installed_with_its_compiled_bytecode():
    # As in the course's own environment (tests/project): no process compiles TensorFlow at import.
    import importlib.util

    origin = importlib.util.find_spec("tensorflow").origin
    assert Path(importlib.util.cache_from_source(origin)).exists(), origin
