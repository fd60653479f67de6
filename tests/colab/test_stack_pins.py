"""The Colab-stack environment really is Colab's stack, and the course asks for nothing newer."""

import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from conftest import colab_pins

ROOT = Path(__file__).resolve().parents[2]


def test_environment_has_every_package_at_colabs_version():
    assert {name: metadata.version(name) for name in colab_pins()} == colab_pins()


def test_a_plain_pip_install_of_the_course_would_change_no_colab_package(tmp_path):
    # Not constrained as the setup cell is: this shows pyproject itself fits Colab's versions.
    report = tmp_path / "report.json"
    subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--report", str(report),
                    f"{ROOT}[course]"], check=True)
    would = {item["metadata"]["name"].lower().replace("_", "-"): item["metadata"]["version"]
             for item in json.loads(report.read_text())["install"]}
    moved = {name: would[name] for name in colab_pins() if name in would}
    assert moved == {}, f"installing the course would change Colab's {moved}"
