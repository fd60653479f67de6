"""Who a downloaded submission belongs to, from the names each platform gives its bulk downloads.

Each recogniser turns a file (or folder) of a submissions folder into a Claim: the notebook, the
platform, the roster students it names, and when it was submitted, with where that time came
from. Nothing is guessed: a name no recogniser reads, or a roster that does not know the student,
leaves the claim without a student.
"""

import dataclasses
import datetime
import json
import re
from pathlib import Path

# Canvas, "Download Submissions": `<sortable name, lowercased, letters and digits only>[_LATE]_<user
# id>_<attachment id>_<file name as uploaded>`; anonymous grading writes `anon_<id>` for the name
# and user id. Source: Canvas's own zipper, get_filename / add_upload_submission in
# instructure/canvas-lms lib/content_zipper.rb
# (https://github.com/instructure/canvas-lms/blob/master/lib/content_zipper.rb). "LATE" is
# Canvas's `submission.late?`, judged against that student's own due date (overrides included).
CANVAS = re.compile(r"^(?P<name>\w+?)(?P<late>_LATE)?_(?P<user>\d+|anon_\w+?)_(?P<attachment>\d+)_(?P<file>.+)$")
# Moodle, Assignment > "Download all submissions": `<full name>_<participant id>_assignsubmission_file_
# <file name>`, or with "Download submissions in folders" (the default since Moodle 3.1) a folder
# `<full name>_<participant id>_assignsubmission_file_/` holding the files as uploaded. Source:
# assign::download_submissions in moodle/moodle mod/assign/locallib.php
# (https://github.com/moodle/moodle/blob/main/mod/assign/locallib.php) and the help string
# "downloadasfolders_help" (https://github.com/moodle/moodle/commit/381bb721538cbba98ac84447a6da22fdb4dc94a2).
# The participant id is Moodle's per-assignment "unique id for user", so the roster's moodle_id
# matches only when it holds that number; otherwise the full name must match one student.
MOODLE_FILE = re.compile(r"^(?P<name>.+?)_(?P<participant>\d+)_assignsubmission_file_(?P<file>.+)$")
MOODLE_FOLDER = re.compile(r"^(?P<name>.+?)_(?P<participant>\d+)_assignsubmission_file_?$")
# Gradescope, "Export Submissions": one `submission_<id>/` folder per submission and, beside them,
# `submission_metadata.yml` mapping each folder to its `:submitters:` (`:name:`, `:sid:`, `:email:`)
# and `:created_at:` (matthigger/gradescope_auto_py issue 24,
# https://github.com/matthigger/gradescope_auto_py/issues/24; the fields are those of
# submission_metadata.json in https://gradescope-autograders.readthedocs.io/en/latest/submission_metadata/).
GRADESCOPE_METADATA = "submission_metadata.yml"
GRADESCOPE_FOLDER = re.compile(r"^submission_(?P<submission>\d+)$")
# Colab: File > Download > Download .ipynb saves the notebook under its own name ("Copy of ..."
# for a copy in Drive), so the student is found in the notebook (a `student_id` in its metadata,
# or "Student id: ..." in its first cell) or a roster id or email in the file name.
FIRST_CELL_ID = re.compile(r"(?i)student[ _-]?id\s*[:=]\s*[\"']?(?P<id>[\w.@+-]+)")


@dataclasses.dataclass
class Claim:
    path: Path
    platform: str
    said: str  # how the download names the student
    students: list  # roster students it names: [] unmatched, >1 ambiguous
    late: bool | None = None  # the platform's own LATE marker, when it has one
    submitted_at: datetime.datetime | None = None
    time_source: str = ""


def recognise(folder, roster):
    """A Claim for every submission in ``folder`` (hidden files skipped), in name order."""
    folder = Path(folder)
    entries = sorted(p for p in folder.iterdir() if not p.name.startswith("."))
    gradescope = _gradescope_metadata(folder)
    claims = []
    for entry in entries:
        if entry.name == GRADESCOPE_METADATA:
            continue
        if entry.is_dir() and GRADESCOPE_FOLDER.match(entry.name) and gradescope is not None:
            claims.append(_gradescope(entry, gradescope.get(entry.name) or {}, roster))
        elif entry.is_dir() and (m := MOODLE_FOLDER.match(entry.name)):
            claims.append(_moodle(_notebook_in(entry), m, roster, "moodle folders"))
        elif m := MOODLE_FILE.match(entry.name):
            claims.append(_moodle(entry, m, roster, "moodle"))
        elif m := CANVAS.match(entry.name):
            claims.append(_canvas(entry, m, roster))
        else:
            claims.append(_colab(entry, roster))
    return claims


def _canvas(path, m, roster):
    user = m["user"]
    students = roster.by_platform("canvas", user) or ([] if user.startswith("anon_") else
                                                      roster.by_name(m["name"], squeeze=True))
    return Claim(path, "canvas", f"canvas user {user} ({m['name']})", students, late=bool(m["late"]),
                 time_source="Canvas's LATE marker in the file name (no time in it)")


def _moodle(path, m, roster, platform):
    students = roster.by_platform("moodle", m["participant"]) or roster.by_name(m["name"])
    return Claim(path, platform, f"moodle participant {m['participant']} ({m['name']})", students,
                 **_mtime(path))


def _gradescope(folder, meta, roster):
    submitters = meta.get(":submitters") or []
    people = [s for s in submitters if isinstance(s, dict)]
    said = ", ".join(f"{p.get(':name', '?')} (sid {p.get(':sid', '?')})" for p in people) or "no submitter"
    found = {s.id: s for p in people for s in (roster.by_platform("gradescope", str(p.get(":sid", "")))
                                                or roster.by_token(str(p.get(":sid") or p.get(":email") or "-")))}
    when = _timestamp(meta.get(":created_at"))
    return Claim(_notebook_in(folder), "gradescope", said, list(found.values()), submitted_at=when,
                 time_source="Gradescope's export metadata (:created_at:)" if when else "")


def _colab(path, roster):
    written = _written_id(path)
    if written:
        return Claim(path, "colab", f"id {written!r} written in the notebook", roster.by_token(written), **_mtime(path))
    tokens = [t for t in re.split(r"[\s_()\[\],;]+", path.stem) if t]
    found = {s.id: s for t in tokens for s in roster.by_token(t)}
    return Claim(path, "colab", f"file name {path.name!r}", list(found.values()), **_mtime(path))


def _written_id(path):
    """A student id the notebook carries: metadata ``student_id``, or "Student id: X" in its first cell."""
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
        meta = nb.get("metadata", {})
        if isinstance(meta.get("student_id"), (str, int)):
            return str(meta["student_id"])
        first = nb["cells"][0]["source"]
        m = FIRST_CELL_ID.search("".join(first) if isinstance(first, list) else first)
        return m["id"] if m else None
    except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError):
        return None


def _notebook_in(folder):
    notebooks = sorted(folder.rglob("*.ipynb"))
    return notebooks[0] if len(notebooks) == 1 else folder  # none or several: the grader rejects the folder


def _mtime(path):
    when = datetime.datetime.fromtimestamp(path.stat().st_mtime, datetime.timezone.utc)
    return {"submitted_at": when, "time_source": "the file's modification time (the name carries no time)"}


def _gradescope_metadata(folder):
    path = folder / GRADESCOPE_METADATA
    if not path.is_file():
        return None
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else {}


def _timestamp(value):
    if isinstance(value, datetime.datetime):
        return value if value.tzinfo else value.replace(tzinfo=datetime.timezone.utc)
    try:
        return datetime.datetime.fromisoformat(str(value).replace(" ", "T", 1)) if value else None
    except ValueError:
        return None
