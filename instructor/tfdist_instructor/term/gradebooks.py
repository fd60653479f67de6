"""The totals, out in the CSV formats Canvas and Moodle import.

Canvas (Grades > Import): one row per student with the columns Student ("Last, First"), ID (the
Canvas user id), SIS User ID, SIS Login ID and Section, then one column per assignment; a header
"Name (1234)" updates the Canvas assignment with id 1234, a bare name creates an assignment.
Canvas finds the student by the name, the ID or the SIS User ID (one of them is enough). SIS User
ID, SIS Login ID and Section are the institution's values: they are copied from the roster's
``sis_user_id``, ``sis_login_id`` and ``section`` columns when it has them, and left blank
otherwise (never filled with another field). Source: "Import a CSV file to Carmen (Canvas)
Grades", Ohio State's Canvas guide
(https://teaching.resources.osu.edu/toolsets/carmencanvas/guides/calculating-final-grades/import-csv-file-carmen-grades),
which lists those columns ("Student Name OR Student ID OR Student SIS User ID ... Only one of these
three fields is required").

A student who was not graded (no submission, or files held back: see unmatched.csv) gets a blank
cell, which the platforms leave ungraded, not a 0; ``zeros=True`` exports 0 for them instead.

Moodle (Grades > Import > CSV file): the import reads the format of Moodle's own CSV export
(First name, Last name, ID number, Email address, one column per grade item); the teacher maps
"Email address" to "useremail" and the exercise's column to its grade item. Source: MoodleDocs
"Grade import" (https://docs.moodle.org/311/en/Grade_import).
"""

import csv
from pathlib import Path

CANVAS_COLUMNS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
MOODLE_COLUMNS = ["First name", "Last name", "ID number", "Email address"]
GRADED = {"graded", "rejected", "timed out", "failed"}  # statuses of a file the grader judged: its 0 is a grade


def canvas(rows_by_exercise, roster, path, assignment_ids=None, zeros=False):
    """Write the Canvas import CSV for ``{exercise: totals rows}``; ``assignment_ids`` maps an
    exercise to its Canvas assignment id."""
    assignment_ids = assignment_ids or {}
    headers = [f"{ex} ({assignment_ids[ex]})" if ex in assignment_ids else ex for ex in rows_by_exercise]
    table = _scores(rows_by_exercise, zeros)
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(CANVAS_COLUMNS + headers)
        for s in roster.students:
            first, last = _split(s.name)
            writer.writerow([f"{last}, {first}" if first else last, s.on("canvas"), s.column("sis_user_id"),
                             s.column("sis_login_id"), s.column("section"),
                             *[table[ex].get(s.id, "0" if zeros else "") for ex in rows_by_exercise]])
    return Path(path)


def canvas_without_id(roster):
    """Lines naming the roster students with neither a Canvas ID nor a SIS User ID (none when all
    have one): Canvas can then match their row by the name alone, and skips a row it cannot match."""
    missing = [s for s in roster.students if not s.on("canvas") and not s.column("sis_user_id")]
    if not missing:
        return []
    return [f"WARNING: {len(missing)} of {len(roster.students)} student(s) have no Canvas ID in the roster; their rows "
            "carry the name only, and Canvas skips a row whose name it cannot match (a nickname, an accent): "
            + ", ".join(f"{s.id} ({s.name})" for s in missing),
            "  fix: fill the roster's canvas_id column from Canvas (Grades > Export: the ID column) and write the "
            "gradebook again"]


def moodle(rows_by_exercise, roster, path, zeros=False):
    """Write the Moodle import CSV for ``{exercise: totals rows}``."""
    table = _scores(rows_by_exercise, zeros)
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(MOODLE_COLUMNS + list(rows_by_exercise))
        for s in roster.students:
            first, last = _split(s.name)
            writer.writerow([first, last, s.id, s.email,
                             *[table[ex].get(s.id, "0" if zeros else "") for ex in rows_by_exercise]])
    return Path(path)


def not_graded(rows_by_exercise, roster):
    """``{exercise: [(student id, why), ...]}``: the roster students with no graded submission."""
    missing = {}
    for ex, rows in rows_by_exercise.items():
        by_id = {r["id"]: r for r in rows}
        missing[ex] = [(s.id, by_id[s.id]["status"] if s.id in by_id else "not in totals.csv")
                       for s in roster.students if s.id not in by_id or by_id[s.id]["status"] not in GRADED]
    return missing


def _scores(rows_by_exercise, zeros):
    return {ex: {r["id"]: r["total"] if r["status"] in GRADED else ("0" if zeros else "") for r in rows}
            for ex, rows in rows_by_exercise.items()}


def _split(name):
    """("Jane", "Doe") for "Jane Doe"; a one-word name is a last name."""
    words = name.split()
    return " ".join(words[:-1]), (words[-1] if words else "")
