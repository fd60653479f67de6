"""Tests for tfdist_instructor.masters: exercises/ and solutions/ are generated from the masters."""

import shutil

from tfdist_instructor import REPO_ROOT, masters


def test_committed_exercises_and_solutions_match_the_masters():
    assert masters.regenerate(check=True) == []


def test_regenerate_check_reports_drift_and_regenerate_repairs_it(tmp_path):
    # Two masters are enough to see drift found and repaired (otter assign takes ~7 s a master).
    for folder in ("grading", "exercises", "solutions"):
        shutil.copytree(REPO_ROOT / folder, tmp_path / folder)
    for master in (tmp_path / "grading" / "masters").glob("0[3-9]_*.ipynb"):
        master.unlink()
    student = tmp_path / "exercises" / "01_global_batch" / "01_global_batch.ipynb"
    student.write_text(student.read_text().replace("Exercise 1", "Exercise One"))
    (tmp_path / "solutions" / "02_custom_loop" / "tests" / "q1.py").unlink()
    (tmp_path / "solutions" / "02_custom_loop" / "tests" / "q9.py").write_text("stale")
    drift = masters.regenerate(check=True, root=tmp_path)
    assert sorted(drift) == [
        "exercises/01_global_batch/01_global_batch.ipynb",
        "solutions/02_custom_loop/tests/q1.py",
        "solutions/02_custom_loop/tests/q9.py",
    ]
    assert sorted(masters.regenerate(root=tmp_path)) == sorted(drift)
    assert masters.regenerate(check=True, root=tmp_path) == []


def test_every_master_has_question_files_and_no_hidden_tests():
    # Hidden tests would run in the student's kernel; the question files decide the points instead.
    for master in sorted((REPO_ROOT / "grading" / "masters").glob("[0-9][0-9]_*.ipynb")):
        assert "hidden: true" not in master.read_text(), master.name
        assert list((REPO_ROOT / "grading" / "questions" / master.stem).glob("q*.py")), master.name
