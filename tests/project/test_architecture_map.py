"""docs/ARCHITECTURE.md names every top-level module and folder of both packages, in its tree and
in its package's table, and names nothing that is not there."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAP = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
PACKAGES = {  # package folder: (its line in the tree, the heading of its table)
    "tfdist_edu": ("tfdist_edu/", "## The student package"),
    "instructor/tfdist_instructor": ("instructor/tfdist_instructor/", "## Instructor tooling"),
}


def top_level(package):
    """The package's modules (``*.py`` but ``__init__``) and subpackages (folders holding Python)."""
    folder = ROOT / package
    modules = {p.stem for p in folder.glob("*.py") if not p.name.startswith("_")}
    folders = {p.name for p in folder.iterdir() if p.is_dir() and any(p.glob("*.py"))}
    return modules | folders


def in_tree(package):
    """The names under the package's line in the first code block (``name`` or ``name/``)."""
    block = MAP.split("```", 2)[1].splitlines()
    header, _ = PACKAGES[package]
    start = next(i for i, line in enumerate(block) if line.startswith(header))
    names = set()
    for line in block[start + 1:]:
        if not line.startswith("  ") or "->" in line:
            break
        names |= {name.rstrip("/") for name in line.split()}
    return names


def in_table(package):
    """The names in backticks in the first column of the package's table."""
    _, heading = PACKAGES[package]
    section = MAP.split(heading, 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return {name for row in rows for name in re.findall(r"`([a-z_]+)`", row.split("|")[1])}


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_every_top_level_module_and_folder_is_in_the_tree(package):
    assert sorted(top_level(package) - in_tree(package)) == []
    assert sorted(in_tree(package) - top_level(package)) == [], "the tree names what is not there"


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_every_top_level_module_and_folder_has_a_row(package):
    assert sorted(top_level(package) - in_table(package)) == []
    assert sorted(in_table(package) - top_level(package)) == [], "a row names what is not there"


def test_the_map_is_read_as_written():
    assert {"timing", "verdict", "steadiness", "quiet", "scripts", "plots"} <= in_table("tfdist_edu")
    assert {"grading", "term", "outputs", "sample_class", "toml"} <= in_table("instructor/tfdist_instructor")
    assert "hardware" in in_tree("tfdist_edu") and "compat" in in_tree("instructor/tfdist_instructor")


def test_tests_sit_in_folders_that_mirror_the_homes_and_only_conftest_at_the_root():
    assert sorted(p.name for p in (ROOT / "tests").glob("*.py")) == ["conftest.py"]
    folders = {p.name for p in (ROOT / "tests").iterdir() if p.is_dir() and any(p.rglob("test_*.py"))}
    tree = MAP.split("```", 2)[1]
    assert sorted(f for f in folders if not re.search(rf"\b{f}\b", tree)) == [], "the map names each folder"
