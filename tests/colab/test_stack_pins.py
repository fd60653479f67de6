"""The Colab-stack environment really is Colab's stack, and the course asks for nothing newer."""

import json
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
