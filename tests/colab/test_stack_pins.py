"""The Colab-stack environment really is Colab's stack, and the course asks for nothing newer."""

import json
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_environment_has_every_package_at_colabs_version(pins):
    assert {name: metadata.version(name) for name in pins} == pins


def test_a_plain_pip_install_of_the_course_would_change_no_colab_package(tmp_path, pins):
    # Not constrained as the setup cell is: this shows pyproject itself fits Colab's versions.
    report = tmp_path / "report.json"
    subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--report", str(report),
                    f"{ROOT}[course]"], check=True)
    would = {item["metadata"]["name"].lower().replace("_", "-"): item["metadata"]["version"]
             for item in json.loads(report.read_text())["install"]}
    moved = {name: would[name] for name in pins if name in would}
    assert moved == {}, f"installing the course would change Colab's {moved}"


def test_lesson_5_tpu_dependencies_never_pull_the_plain_tensorflow(tmp_path):
    # What the TPU branch of lesson 6's setup cell installs after tensorflow-tpu, resolved as
    # if nothing were installed: `tensorflow` must not be among it.
    import nbformat

    cell = nbformat.read(ROOT / "notebooks" / "06_tpu.ipynb", as_version=4).cells[1].source
    line = next(l for l in cell.splitlines() if "importlib_resources" in l)
    asked = line.split("install -q", 1)[1].replace("-c /tmp/colab-installed.txt", "")  # Colab's pins
    requirements = [a or b for a, b in re.findall(r'"([^"]+)"|(\S+)', asked)]
    report = tmp_path / "report.json"
    subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--ignore-installed",
                    "--report", str(report), *requirements], check=True)
    names = {item["metadata"]["name"].lower() for item in json.loads(report.read_text())["install"]}
    assert "keras" in names and "tensorflow" not in names


def test_the_jax_extra_keeps_colabs_jax(tmp_path, pins):
    # Lesson 9 runs on the jax Colab preinstalls; asking for the course's jax extra must not move it.
    report = tmp_path / "report.json"
    subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--report", str(report),
                    f"{ROOT}[jax]"], check=True)
    would = {item["metadata"]["name"].lower().replace("_", "-"): item["metadata"]["version"]
             for item in json.loads(report.read_text())["install"]}
    assert pins["jax"] == "0.7.2" and {n: would[n] for n in ("jax", "jaxlib") if n in would} == {}
