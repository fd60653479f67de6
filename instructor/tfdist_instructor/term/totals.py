"""Each student's total for an exercise: automatic points, hand-graded points, the late penalty.

An exercise's total is stated once, in its question files: the automatic points are the sum of
their cases, the hand-graded points the ``HAND_POINTS`` of a question with a written answer
(exercise 3: 2). Hand-graded points come from a CSV with the columns ``id,exercise,points``.
``totals.csv`` has one row per roster student, those without a submission included: a student
with no graded submission (none sent, files held back, or the grader failed on it: "not graded")
has a blank total and the reason in ``status``, never a 0. Each row names the student's extension
and the policy its total was made with. It belongs
to the class: grading again into the same report replaces only the rows of the students graded
(or held back) in that run; every other row stays byte for byte (see :func:`merged`).
"""

import csv
from pathlib import Path

from tfdist_instructor.grading import catalog, scores

TOTALS_FILE = "totals.csv"
COLUMNS = ["id", "name", "email", "exercise", "auto", "hand", "late_days", "late_penalty", "total", "possible",
           "status", "platform", "submitted_at", "lateness_from", "file", "lateness_note", "extension", "policy"]


def hand_possible(exercise):
    """Points graded by hand in ``exercise``."""
    return float(sum(getattr(q.module, "HAND_POINTS", 0) for q in catalog.load(exercise)))


def possible(exercise):
    """The exercise's total: automatic points plus hand-graded points."""
    return float(sum(catalog.questions(exercise).values())) + hand_possible(exercise)


def read_hand(path, roster, exercise):
    """``{student id: points}`` for ``exercise`` from a hand-graded CSV; ValueError naming the line."""
    limit, points = hand_possible(exercise), {}
    with open(path, newline="", encoding="utf-8-sig") as f:
        reader = csv.DictReader(f)
        if not {"id", "exercise", "points"} <= set(reader.fieldnames or []):
            raise ValueError(f"{path}: hand-graded points need the columns id, exercise, points")
        for line, row in enumerate(reader, start=2):
            if row["exercise"].strip() != exercise:
                continue
            sid = row["id"].strip()
            if sid not in roster.by_id:
                raise ValueError(f"{path} line {line}: {sid!r} is not in the roster")
            try:
                value = float(row["points"])
            except ValueError:
                raise ValueError(f"{path} line {line}: points {row['points']!r} is not a number") from None
            if not 0 <= value <= limit:
                raise ValueError(f"{path} line {line}: {value:g} hand-graded points; {exercise} gives 0 to {limit:g}")
            points[sid] = value
    return points


def totals(results, intake, roster, policy, hand):
    """One row (a dict of COLUMNS) per roster student."""
    by_student = {r.student: r for r in results}
    rows = []
    for student in roster.students:
        result, claim = by_student.get(student.id), intake.matched.get(student.id)
        row = {"id": student.id, "name": student.name, "email": student.email, "exercise": policy.exercise,
               "possible": f"{possible(policy.exercise):g}", "extension": policy.extension_text(student.id),
               "policy": policy.label}
        if result is None or claim is None:
            held = [c for c, _ in intake.unmatched if [s.id for s in c.students] == [student.id]]
            status = "not graded: see unmatched.csv" if held else "no submission"
            rows.append({**row, "auto": "", "hand": "", "late_days": "", "late_penalty": "", "total": "",
                         "status": status, "platform": "", "submitted_at": "", "lateness_from": "", "file": "",
                         "lateness_note": ""})
            continue
        if not result.graded:  # the grader failed on it: no total, not a 0
            rows.append({**row, "auto": "", "hand": "", "late_days": "", "late_penalty": "", "total": "",
                         "status": f"not graded: {result.reason}", "platform": claim.platform,
                         "submitted_at": claim.submitted_at.isoformat() if claim.submitted_at else "",
                         "lateness_from": claim.time_source, "file": result.file, "lateness_note": ""})
            continue
        judged = policy.lateness(student.id, claim)
        got = result.score + hand.get(student.id, 0.0)
        lost = policy.penalty(judged.days, possible(policy.exercise))
        rows.append({**row, "auto": f"{result.score:g}", "hand": f"{hand.get(student.id, 0.0):g}",
                     "late_days": str(judged.days), "late_penalty": f"{lost:g}", "total": f"{max(0.0, got - lost):g}",
                     "status": result.status, "platform": claim.platform,
                     "submitted_at": claim.submitted_at.isoformat() if claim.submitted_at else "",
                     "lateness_from": judged.source, "file": result.file, "lateness_note": judged.note})
    return rows


def merged(old_rows, new_rows, students):
    """``new_rows`` for ``students`` (those graded or held back now), ``old_rows`` for everyone else,
    unchanged, in their order; a new row of a student the old table lacks is added after them."""
    fresh = {r["id"]: r for r in new_rows if r["id"] in students}
    known = {o["id"] for o in old_rows}
    return [fresh.get(r["id"], r) for r in old_rows] + [r for r in new_rows if r["id"] not in known]


def summary(row):
    """How a totals row's total was made, for the console and the feedback: "10 automatic, -1 for 1 day
    late (Canvas's LATE marker ...)", with the rule that could not be applied, if any."""
    if not row["total"]:
        return row["status"]
    parts = [f"{row['auto']} automatic"] + ([f"{row['hand']} by hand"] if float(row["hand"] or 0) else [])
    late = int(row["late_days"] or 0)
    if float(row["late_penalty"] or 0):
        parts.append(f"-{row['late_penalty']} for {late} day{'s' * (late != 1)} late ({row['lateness_from']})")
    return ", ".join(parts) + (f"; {row['lateness_note']}" if row.get("lateness_note") else "")


def when(row):
    """The feedback's lines on when the submission counts as handed in: its time and where that time
    came from, and the student's extension."""
    lines = []
    if row.get("lateness_from"):
        lines.append(f"Submitted: {row['submitted_at'] or 'no time given'} (from {row['lateness_from']})")
    if row.get("extension"):
        lines.append(f"Extension: {row['extension']}")
    return lines


def write_totals(rows, out_dir):
    """``out_dir/totals.csv``, written beside and moved into place (never half a table)."""
    path = Path(out_dir) / TOTALS_FILE
    scores.write(path, COLUMNS, rows)
    return path


def read_totals(out_dir):
    with open(Path(out_dir) / TOTALS_FILE, newline="") as f:
        return list(csv.DictReader(f))
