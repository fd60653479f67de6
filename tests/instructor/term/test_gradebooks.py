"""The totals leave in the CSV formats Canvas and Moodle import (columns as their guides list them)."""

import csv

from downloads import ROSTER

from tfdist_instructor.term import gradebooks
from tfdist_instructor.term.roster import Roster


def _rows(exercise, totals):
    return [{"id": sid, "exercise": exercise, "total": total} for sid, total in totals.items()]


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
    assert rows[0] == ["Doe, Jane", "12345", "s1001", "jane.doe@uni.example", "", "10", "9"]
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
