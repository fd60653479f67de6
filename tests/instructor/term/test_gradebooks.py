"""The totals leave in the CSV formats Canvas and Moodle import (columns as their guides list them)."""

import csv

import pytest


from tfdist_instructor.term import gradebooks
from tfdist_instructor.term.roster import Roster
from tfdist_instructor.sample_class.downloads import ROSTER


def _rows(exercise, totals, status="graded"):
    return [{"id": sid, "exercise": exercise, "total": total, "status": status} for sid, total in totals.items()]


def _roster(tmp_path):
    (tmp_path / "roster.csv").write_text(ROSTER)
    return Roster.load(tmp_path / "roster.csv")


def test_the_canvas_gradebook_has_canvas_columns_and_updates_the_named_assignment(tmp_path):
    roster = _roster(tmp_path)
    by_exercise = {"05_ring_allreduce": _rows("05_ring_allreduce", {"s1001": "10", "s1002": "7.5"}),
                   "01_global_batch": _rows("01_global_batch", {"s1001": "9"})}
    path = gradebooks.canvas(by_exercise, roster, tmp_path / "canvas.csv", {"05_ring_allreduce": "4711"})
    with open(path, newline="") as f:
        header, *rows = list(csv.reader(f))
    assert header == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "05_ring_allreduce (4711)",
                      "01_global_batch"]
    assert rows[0] == ["Doe, Jane", "12345", "", "", "", "10", "9"]  # SIS columns: the roster has none
    assert rows[1][5:] == ["7.5", ""] and len(rows) == len(roster.students)
    assert rows[2][0] == "López, Ana María"


def test_the_moodle_gradebook_is_keyed_by_email_as_moodle_maps_it(tmp_path):
    roster = _roster(tmp_path)
    path = gradebooks.moodle({"05_ring_allreduce": _rows("05_ring_allreduce", {"s1003": "8"})}, roster,
                             tmp_path / "moodle.csv")
    rows = list(csv.DictReader(open(path, newline="", encoding="utf-8")))
    assert list(rows[0]) == ["First name", "Last name", "ID number", "Email address", "05_ring_allreduce"]
    ana = next(r for r in rows if r["ID number"] == "s1003")
    assert (ana["First name"], ana["Last name"], ana["Email address"], ana["05_ring_allreduce"]) == \
        ("Ana María", "López", "ana.lopez@uni.example", "8")


def test_canvas_sis_columns_come_from_the_roster_or_stay_blank(tmp_path):
    (tmp_path / "roster.csv").write_text("id,name,email,canvas_id,sis_user_id,sis_login_id,section\n"
                                         "s1,Jane Doe,jane@x.example,12345,900123,jdoe,Lecture A\n"
                                         "s2,Bob Smith,bob@x.example,23456,,,\n")
    path = gradebooks.canvas({"05_ring_allreduce": _rows("05_ring_allreduce", {"s1": "10", "s2": "8"})},
                             Roster.load(tmp_path / "roster.csv"), tmp_path / "canvas.csv")
    _, jane, bob = list(csv.reader(open(path, newline="", encoding="utf-8")))
    assert jane == ["Doe, Jane", "12345", "900123", "jdoe", "Lecture A", "10"]
    assert bob == ["Smith, Bob", "23456", "", "", "", "8"]


def _class(tmp_path):
    from tfdist_instructor.term import totals

    (tmp_path / "report").mkdir()
    rows = [{**dict.fromkeys(totals.COLUMNS, ""), "id": sid, "exercise": "05_ring_allreduce", "total": total,
             "status": status} for sid, total, status in [
        ("s1001", "10", "graded"), ("s1002", "0", "rejected"), ("s1003", "0", "no submission"),
        ("s1004", "0", "not graded: see unmatched.csv")]]
    totals.write_totals(rows, tmp_path / "report")
    (tmp_path / "roster.csv").write_text(ROSTER)
    return ["gradebook", str(tmp_path / "report"), "--roster", str(tmp_path / "roster.csv"), "--out"]


@pytest.mark.parametrize("fmt, column", [("canvas", "05_ring_allreduce"), ("moodle", "05_ring_allreduce")])
def test_a_student_who_was_not_graded_is_blank_not_zero_and_the_command_lists_them(tmp_path, capsys, fmt, column):
    from tfdist_instructor import cli

    out = tmp_path / f"{fmt}.csv"
    assert cli.main([*_class(tmp_path), str(out), "--format", fmt]) == 0
    cells = [r[column] for r in csv.DictReader(open(out, newline="", encoding="utf-8"))]
    assert cells[:4] == ["10", "0", "", ""] and set(cells[4:]) == {""}  # a rejected file is a graded 0
    said = capsys.readouterr().out
    assert "05_ring_allreduce: 6 student(s) with no graded submission, left blank, not 0" in said
    assert "s1003 (no submission), s1004 (not graded: see unmatched.csv), s1005 (not in totals.csv)" in said


def test_zeros_for_missing_exports_zeros_and_says_so(tmp_path, capsys):
    from tfdist_instructor import cli

    out = tmp_path / "moodle.csv"
    assert cli.main([*_class(tmp_path), str(out), "--format", "moodle", "--zeros-for-missing"]) == 0
    assert {r["05_ring_allreduce"] for r in csv.DictReader(open(out, newline="", encoding="utf-8"))} == {"10", "0"}
    assert "6 student(s) with no graded submission, exported as 0 (--zeros-for-missing)" in capsys.readouterr().out


def test_a_canvas_assignment_id_for_no_report_is_refused(tmp_path, capsys):
    from tfdist_instructor import cli

    code = cli.main([*_class(tmp_path), str(tmp_path / "c.csv"), "--format", "canvas",
                     "--canvas-assignment", "05_ring_alreduce=4711"])
    assert code == 2 and "--canvas-assignment 05_ring_alreduce=4711: give EXERCISE=ID" in capsys.readouterr().err
