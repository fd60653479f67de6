"""scripts/name_cells.py on a tiny checkout: it renames a cell in the lesson, its executed copy
and the tests that read that lesson, changes nothing else, and refuses a bad rename in one line
before writing anything."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "name_cells.py"


def notebook(*ids):
    cells = [{"cell_type": "markdown", "id": cell_id, "metadata": {}, "source": [f"cell {cell_id}"]}
             for cell_id in ids]
    return {"cells": cells, "metadata": {"note": "café"}, "nbformat": 4, "nbformat_minor": 5}


def stored(nb):
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


@pytest.fixture
def checkout(tmp_path):
    """Two lessons sharing the id "cell-1", an executed copy of the first, and tests reading each."""
    files = {
        "notebooks/03_loop.ipynb": stored(notebook("cell-1", "0a1b2c3d", "l03-named")),
        "notebooks/04_speed.ipynb": stored(notebook("cell-1", "cell-2")),
        "build/executed/notebooks/03_loop.ipynb": stored(notebook("cell-1", "0a1b2c3d", "l03-named")),
        "tests/claims/test_lesson03_loop.py":
            'STEM = "03_loop"\nrun.says("cell-1", "x")\nrun.text("0a1b2c3d")\nrun.text("cell-10")\n',
        "tests/claims/test_lesson04_speed.py": 'STEM = "04_speed"\nrun.text("cell-1")\n',
        "tests/other/test_agreement.py": "LESSON = 'notebooks/03_loop.ipynb'\ncell('cell-1')\n",
        "tests/other/test_digest.py": 'DIGEST = "0a1b2c3d"  # names no lesson\n',
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def snapshot(root):
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def name_cells(root, *args):
    env = {k: v for k, v in os.environ.items()
           if k not in ("TFDIST_EDU_EXECUTED_DIR", "TFDIST_EDU_CLAIMS_DIR")}
    return subprocess.run([sys.executable, str(SCRIPT), "--root", str(root), *map(str, args)],
                          capture_output=True, text=True, env=env, timeout=60)


def ids(path):
    return [cell["id"] for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]]


@pytest.mark.parametrize("pair, reason", [
    ("cell-1=bad name", "is not a valid cell id"),
    ("cell-1=" + "x" * 65, "is not a valid cell id"),
    ("cell-1=", "is not a valid cell id"),
    ("cell-1=l03-first\n", "is not a valid cell id"),
    ("cell-1=l03-named", "already has a cell with id 'l03-named'"),
    ("cell-9=l03-new", "has no cell with id 'cell-9'"),
])
def test_a_bad_rename_is_refused_in_one_line_and_nothing_changes(checkout, pair, reason):
    before = snapshot(checkout)
    done = name_cells(checkout, "notebooks/03_loop.ipynb", "0a1b2c3d=l03-fine", pair)
    assert done.returncode == 1
    assert len(done.stderr.splitlines()) == 1 and reason in done.stderr, done.stderr
    assert not done.stdout
    assert snapshot(checkout) == before


def test_a_notebook_stored_in_another_form_is_refused_rather_than_reformatted(checkout):
    path = checkout / "notebooks" / "03_loop.ipynb"
    path.write_text(json.dumps(json.loads(path.read_text()), indent=2), encoding="utf-8")
    before = snapshot(checkout)
    done = name_cells(checkout, path, "cell-1=l03-first")
    assert done.returncode == 1 and "refusing to reformat" in done.stderr
    assert snapshot(checkout) == before


def test_a_rename_reaches_the_lesson_its_executed_copy_and_its_tests_and_nothing_else(checkout):
    before = snapshot(checkout)
    done = name_cells(checkout, "notebooks/03_loop.ipynb", "cell-1=l03-first", "0a1b2c3d=l03-sums")
    assert done.returncode == 0, done.stderr
    for name in ("notebooks/03_loop.ipynb", "build/executed/notebooks/03_loop.ipynb"):
        path = checkout / name
        assert ids(path) == ["l03-first", "l03-sums", "l03-named"]
        expected = json.loads(before[name])
        for cell, new in zip(expected["cells"], ["l03-first", "l03-sums", "l03-named"]):
            cell["id"] = new
        assert path.read_text(encoding="utf-8") == stored(expected)  # only the ids changed
    assert (checkout / "tests/claims/test_lesson03_loop.py").read_text() == (
        'STEM = "03_loop"\nrun.says("l03-first", "x")\nrun.text("l03-sums")\nrun.text("cell-10")\n')
    assert (checkout / "tests/other/test_agreement.py").read_text() == (
        "LESSON = 'notebooks/03_loop.ipynb'\ncell('l03-first')\n")
    changed = {name for name, data in snapshot(checkout).items() if before.get(name) != data}
    assert changed == {"notebooks/03_loop.ipynb", "build/executed/notebooks/03_loop.ipynb",
                       "tests/claims/test_lesson03_loop.py", "tests/other/test_agreement.py"}
    assert "tests/claims/test_lesson03_loop.py: 2 references renamed" in done.stdout
    assert "note: tests/other/test_digest.py has '0a1b2c3d' but names no lesson" in done.stdout


def test_a_map_restricted_to_lessons_and_to_tests_is_replayed_idempotently(checkout):
    mapping = checkout / "names.json"
    mapping.write_text(json.dumps({"03_loop": {"cell-1": "l03-first"},
                                   "04_speed": {"cell-1": "l04-first", "cell-2": "l04-second"}}))
    speed = checkout / "notebooks" / "04_speed.ipynb"
    speed_before = speed.read_bytes()

    done = name_cells(checkout, "--apply-map", mapping, "--tests-only", "04")
    assert done.returncode == 0, done.stderr
    assert speed.read_bytes() == speed_before  # the lesson itself waits for its replay
    assert (checkout / "tests/claims/test_lesson04_speed.py").read_text() == (
        'STEM = "04_speed"\nrun.text("l04-first")\n')
    assert ids(checkout / "notebooks" / "03_loop.ipynb")[0] == "cell-1"  # another lesson's cell-1
    assert 'run.says("cell-1"' in (checkout / "tests/claims/test_lesson03_loop.py").read_text()

    done = name_cells(checkout, "--apply-map", mapping)
    assert done.returncode == 0, done.stderr
    assert ids(speed) == ["l04-first", "l04-second"]
    assert ids(checkout / "notebooks" / "03_loop.ipynb")[0] == "l03-first"
    assert 'run.says("l03-first"' in (checkout / "tests/claims/test_lesson03_loop.py").read_text()

    after = snapshot(checkout)
    again = name_cells(checkout, "--apply-map", mapping)
    assert again.returncode == 0, again.stderr
    assert "nothing to rename" in again.stdout
    assert snapshot(checkout) == after


def test_a_test_reading_two_lessons_that_share_the_old_id_is_refused(checkout):
    both = checkout / "tests" / "claims" / "test_both.py"
    both.write_text('lesson("03_loop")\nlesson("04_speed").text("cell-1")\n')
    before = snapshot(checkout)
    done = name_cells(checkout, "notebooks/04_speed.ipynb", "cell-1=l04-first")
    assert done.returncode == 1 and "rename it by hand" in done.stderr
    assert snapshot(checkout) == before
