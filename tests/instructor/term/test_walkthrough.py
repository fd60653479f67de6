"""The term walkthrough (benchmarks/term_walkthrough.py, run by hand on a quiet machine): its bad
arguments refused before any work, and the byte-for-byte row check its regrade steps rest on.
These tests grade nothing; the walkthrough itself runs the whole term for real."""

import csv
import importlib.util

import pytest

from tfdist_instructor import REPO_ROOT

_spec = importlib.util.spec_from_file_location("term_walkthrough", REPO_ROOT / "benchmarks" / "term_walkthrough.py")
walkthrough = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(walkthrough)


def _write(path, header, rows):
    with open(path, "w", newline="") as f:
        csv.writer(f).writerows([header, *rows])


def _report(folder, s1002_total="9", s1003_reason="all tests passed"):
    folder.mkdir(exist_ok=True)
    _write(folder / "scores.csv", ["student", "score", "reason"],
           [["s1001", "10", "a reason\nover two lines"], ["s1002", "10", "ok"], ["s1003", "10", s1003_reason]])
    _write(folder / "totals.csv", ["id", "total", "status"],
           [["s1001", "10", "graded"], ["s1002", s1002_total, "graded"], ["s1003", "10", "graded"]])
    _write(folder / "unmatched.csv", ["file", "problem", "student"], [["x (1).ipynb", "unmatched: nobody", ""]])
    return folder


def test_bad_arguments_are_refused_in_one_line_before_any_work(tmp_path, capsys):
    (tmp_path / "kept.txt").write_text("an earlier run")
    for argv, says in ((["--jobs", "0"], "--jobs must be at least 1, got 0"),
                       (["--keep", str(tmp_path)], "give a new or empty folder")):
        with pytest.raises(SystemExit) as exit_:
            walkthrough.main(argv)
        assert exit_.value.code == 2 and says in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["kept.txt"]


def test_each_record_is_kept_as_stored_even_a_quoted_cell_over_several_lines(tmp_path):
    path = _report(tmp_path / "report") / "scores.csv"
    records = walkthrough.records(path)
    assert list(records) == ["student", "s1001", "s1002", "s1003"]
    assert "".join(records.values()).encode() == path.read_bytes()
    assert records["s1001"] == 's1001,10,"a reason\nover two lines"\r\n'


def test_the_regrade_check_passes_when_only_that_students_rows_change_and_names_any_other(tmp_path):
    report = _report(tmp_path / "report")
    before = {name: walkthrough.records(report / name) for name in walkthrough.TABLES}
    _report(report, s1002_total="8")
    assert walkthrough.unchanged_but(report, before, "s1002").endswith("s1002's total 8")
    _report(report, s1002_total="8", s1003_reason="all tests passed ")
    with pytest.raises(SystemExit, match="changed other rows of scores.csv: s1003"):
        walkthrough.unchanged_but(report, before, "s1002")


def test_the_one_file_regrade_is_typed_as_the_readme_recipe_runnable_twice():
    recipe = f"mkdir -p regrade && cp downloads/{walkthrough.LATE_FILE} regrade/"
    assert recipe in (REPO_ROOT / "exercises" / "README.md").read_text()
    source = (REPO_ROOT / "benchmarks" / "term_walkthrough.py").read_text()
    assert 'typed_before=f"mkdir -p regrade && cp downloads/{LATE_FILE} regrade/ && "' in source
    assert "mkdir regrade" not in source and '(root / "regrade").mkdir(exist_ok=True)' in source
