"""Tests that need Colab's package versions: they run in the Colab stage (make colab-test: a
Debian 13 root with Colab's Python 3.13, or the labelled 3.11 stand-in) and are skipped anywhere
else."""

import os
import platform
import sys
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PINS = ROOT / "scripts" / "colab_pins.txt"


def colab_pins():
    """{distribution: version} of what Colab preinstalls, from scripts/colab_pins.txt."""
    lines = [l.strip() for l in PINS.read_text().splitlines() if l.strip() and not l.startswith("#")]
    return dict(line.split("==") for line in lines)


@pytest.fixture
def pins():
    return colab_pins()


def on_colab_stack():
    try:
        return all(metadata.version(name) == version for name, version in colab_pins().items())
    except metadata.PackageNotFoundError:
        return False


def pytest_collection_modifyitems(config, items):
    if on_colab_stack():
        return
    skip = pytest.mark.skip(reason="needs Colab's package versions: run by make colab-test")
    for item in items:
        if Path(item.fspath).is_relative_to(Path(__file__).parent):
            item.add_marker(skip)


def pytest_report_header(config):
    if on_colab_stack():
        label = os.environ.get("TFDIST_EDU_COLAB_LABEL", "not run by scripts/colab_stack.sh")
        return f"Colab stage: Python {platform.python_version()} ({label}) at {sys.executable}"
