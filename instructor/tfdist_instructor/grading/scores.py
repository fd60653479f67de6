"""The class's ``scores.csv``: one row per student, merged on a regrade, replaced atomically.

A submission the grader failed on ("not graded", see ``grade.grader_failure``) has its row with
the reason and a blank score, never a 0.

Grading a few submissions into a report folder that already holds the class replaces only
their rows; every other row is kept as it was. A row that a later grading replaces is
appended to ``scores-history.csv`` first, with the time it was replaced, so a disputed grade
and its seed are never lost. Both files are written to a temporary file beside them and
moved into place (``os.replace``), so a crash never leaves half a file; they get the mode the
umask gives any new file (0644 under the usual 022), so TAs sharing the folder can read them.
"""

import csv
import os
import re
import tempfile
from pathlib import Path

from tfdist_instructor.grading.text import natural

SCORES, HISTORY = "scores.csv", "scores-history.csv"
FIRST = ["student", "exercise", "score", "possible", "percent", "status", "reason"]
LAST = ["diagnosis", "seed", "seconds", "file", "graded_at"]
QUESTION = re.compile(r"^q\d+$")


def row(result):
    """The CSV row of one GradeResult, as a dict of strings."""
    cells = {"student": result.student, "exercise": result.exercise, "score": f"{result.score:g}",
             "possible": f"{result.possible:g}", "percent": f"{result.percent:.0f}", "status": result.status,
             "reason": result.reason, "diagnosis": " | ".join(result.diagnoses),
             "seed": "" if result.seed is None else str(result.seed), "seconds": f"{result.seconds:.1f}",
             "file": result.file, "graded_at": result.graded_at}
    cells.update({q: f"{s:g}" for q, (s, _) in result.questions.items()})
    if not result.graded:  # the grader failed: no score, not a 0 (the reason says why)
        cells.update({"score": "", "percent": "", **{q: "" for q in result.questions}})
    return cells


def merge(out_dir, rows):
    """Put ``rows`` into ``out_dir/scores.csv`` in place of the rows of the same students."""
    out_dir = Path(out_dir)
    header, kept = read(out_dir / SCORES)
    by_student = {r.get("student", ""): r for r in kept}
    replaced = []
    for new in rows:
        old = by_student.get(new["student"])
        if old is not None and old.get("graded_at") != new["graded_at"]:  # not this run's own earlier write
            replaced.append({**old, "replaced_at": new["graded_at"]})
        by_student[new["student"]] = new
    if replaced:
        history_header, history = read(out_dir / HISTORY)
        write(out_dir / HISTORY, _columns(history_header + [k for r in replaced for k in r]), history + replaced)
    merged = sorted(by_student.values(), key=lambda r: natural(r.get("student", "")))
    write(out_dir / SCORES, _columns(header + [k for r in merged for k in r]), merged)


def read(path):
    """``(header, rows)`` of a CSV file; ``([], [])`` when there is none."""
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            return list(reader.fieldnames or []), list(reader)
    except FileNotFoundError:
        return [], []


def write(path, header, rows):
    """Write ``rows`` under ``header`` to a temporary file beside ``path``, then move it into place."""
    path = Path(path)
    with tempfile.NamedTemporaryFile("w", dir=path.parent, prefix=f".{path.name}.", suffix=".tmp",
                                     newline="", delete=False) as f:
        writer = csv.DictWriter(f, fieldnames=header, extrasaction="ignore", restval="")
        writer.writeheader()
        writer.writerows(rows)
        f.flush()
        os.fsync(f.fileno())
    os.chmod(f.name, 0o666 & ~_umask())  # a temporary file is 0600; the report is not private to one user
    os.replace(f.name, path)


def _umask():
    """The process's umask, read without changing it (os.umask would, for every thread)."""
    try:
        with open("/proc/self/status") as f:
            return next(int(ln.split()[1], 8) for ln in f if ln.startswith("Umask:"))
    except (OSError, StopIteration, ValueError):
        return 0o022


def recorded_seeds(out_dir):
    """``{student: seed}`` as ``out_dir/scores.csv`` recorded them (students without one left out)."""
    _, rows = read(Path(out_dir) / SCORES)
    return {r["student"]: int(r["seed"]) for r in rows if (r.get("seed") or "").strip().isdigit()}


def _columns(names):
    """The columns in a fixed order: known ones first, questions in order, unknown ones kept."""
    names = list(dict.fromkeys(n for n in names if n))
    questions = sorted((n for n in names if QUESTION.match(n)), key=natural)
    known = {*FIRST, *LAST, "replaced_at"}
    others = [n for n in names if n not in known and not QUESTION.match(n)]
    return FIRST + questions + others + LAST + (["replaced_at"] if "replaced_at" in names else [])
