"""The term's commands refuse bad input in one line, before any grading."""

import nbformat
from downloads import ROSTER

from tfdist_instructor import cli


def _run(argv, capsys):
    code = cli.main(argv)
    return code, capsys.readouterr().err.strip()


def test_term_options_without_a_roster_are_refused(tmp_path, capsys):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.ipynb").write_text("{}")
    code, err = _run(["grade", str(tmp_path / "in"), "--out", str(tmp_path / "out"), "--slurm", "--hand", "h.csv"],
                     capsys)
    assert (code, err) == (2, "tfdist-instructor grade: --hand, --slurm need(s) --roster")


def test_a_folder_where_nobody_is_in_the_roster_stops_before_grading(tmp_path, capsys):
    (tmp_path / "roster.csv").write_text(ROSTER)
    (tmp_path / "in").mkdir()
    nbformat.write(nbformat.v4.new_notebook(), tmp_path / "in" / "05_ring_allreduce.ipynb")
    code, err = _run(["grade", str(tmp_path / "in"), "--out", str(tmp_path / "out"), "--roster",
                      str(tmp_path / "roster.csv")], capsys)
    assert code == 2
    assert err.startswith(f"tfdist-instructor grade: no submission in {tmp_path / 'in'} matches the roster")
    assert not (tmp_path / "out" / "scores.csv").exists() and (tmp_path / "out" / "unmatched.csv").exists()


def test_a_gradebook_of_a_folder_graded_without_a_roster_is_refused(tmp_path, capsys):
    (tmp_path / "roster.csv").write_text(ROSTER)
    code, err = _run(["gradebook", str(tmp_path), "--roster", str(tmp_path / "roster.csv"), "--format", "moodle",
                      "--out", str(tmp_path / "m.csv")], capsys)
    assert (code, err) == (2, f"tfdist-instructor gradebook: no totals.csv in {tmp_path}: grade it with --roster first")
