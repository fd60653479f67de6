"""The totals, out in the CSV formats Canvas and Moodle import.

Canvas (Grades > Import): one row per student with the columns Student ("Last, First"), ID (the
Canvas user id), SIS User ID, SIS Login ID and Section, then one column per assignment; a header
"Name (1234)" updates the Canvas assignment with id 1234, a bare name creates an assignment.
Source: "Import a CSV file to Carmen (Canvas) Grades", Ohio State's Canvas guide
(https://teaching.resources.osu.edu/toolsets/carmencanvas/guides/calculating-final-grades/import-csv-file-carmen-grades),
which lists those required columns.

Moodle (Grades > Import > CSV file): the import reads the format of Moodle's own CSV export
(First name, Last name, ID number, Email address, one column per grade item); the teacher maps
"Email address" to "useremail" and the exercise's column to its grade item. Source: MoodleDocs
"Grade import" (https://docs.moodle.org/311/en/Grade_import).
"""

import csv
from pathlib import Path

CANVAS_COLUMNS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
MOODLE_COLUMNS = ["First name", "Last name", "ID number", "Email address"]


def canvas(rows_by_exercise, roster, path, assignment_ids=None):
    """Write the Canvas import CSV for ``{exercise: totals rows}``; ``assignment_ids`` maps an
    exercise to its Canvas assignment id."""
    assignment_ids = assignment_ids or {}
    headers = [f"{ex} ({assignment_ids[ex]})" if ex in assignment_ids else ex for ex in rows_by_exercise]
    table = _scores(rows_by_exercise)
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(CANVAS_COLUMNS + headers)
        for s in roster.students:
            first, last = _split(s.name)
            writer.writerow([f"{last}, {first}" if first else last, s.on("canvas"), s.id, s.email, "",
                             *[table[ex].get(s.id, "") for ex in rows_by_exercise]])
    return Path(path)


def moodle(rows_by_exercise, roster, path):
    """Write the Moodle import CSV for ``{exercise: totals rows}``."""
    table = _scores(rows_by_exercise)
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(MOODLE_COLUMNS + list(rows_by_exercise))
        for s in roster.students:
            first, last = _split(s.name)
            writer.writerow([first, last, s.id, s.email, *[table[ex].get(s.id, "") for ex in rows_by_exercise]])
    return Path(path)


def _scores(rows_by_exercise):
    return {ex: {r["id"]: r["total"] for r in rows} for ex, rows in rows_by_exercise.items()}


def _split(name):
    """("Jane", "Doe") for "Jane Doe"; a one-word name is a last name."""
    words = name.split()
    return " ".join(words[:-1]), (words[-1] if words else "")
