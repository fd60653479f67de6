"""The class list: ``roster.csv`` with ``id,name,email`` and any platform ids (``canvas_id``,
``moodle_id``, ``gradescope_id``, ...), one row per student.

``id`` is the course's own identifier: it names the student in ``scores.csv``, the totals, the
hand-graded points and the gradebooks. Platform ids are how each platform's downloads name the
student (Canvas: the numeric user id; Moodle: the participant number of the assignment;
Gradescope: the SID of the export's metadata). Where each comes from in the platforms' own
exports: ``canvas_id`` is the "ID" column of Canvas's Grades > Export CSV (the numeric user id, also
in the Canvas download's file names); ``moodle_id`` is the number of "Participant 501" in the
"Identifier" column of the assignment's grading worksheet (View all submissions > Download grading
worksheet), the number Moodle puts in its download's names; ``gradescope_id`` is the SID of
Gradescope's roster. Optional ``sis_user_id``, ``sis_login_id`` and ``section`` (the Canvas export's
"SIS User ID", "SIS Login ID" and "Section") are copied into the Canvas gradebook; without them those
cells stay blank.

Headers are read as written by hand or by a spreadsheet: any case, spaces around them or inside
("Canvas ID"), separated by commas or semicolons.
"""

import csv
import dataclasses
import re
from pathlib import Path

REQUIRED = ("id", "name", "email")
PLATFORM_COLUMN = re.compile(r"^(?P<platform>[a-z]+)_id$")
COPIED = ("sis_user_id", "sis_login_id", "section")  # carried to the Canvas gradebook as they are


@dataclasses.dataclass(frozen=True)
class Student:
    id: str
    name: str
    email: str
    platform_ids: tuple = ()  # ((platform, value), ...)
    copied: tuple = ()  # ((column, value), ...) of COPIED

    def column(self, name):
        """The roster's ``name`` column (one of COPIED) for this student, or ""."""
        return dict(self.copied).get(name, "")

    def on(self, platform):
        """This student's id on ``platform`` ("canvas", "moodle", ...), or ""."""
        return dict(self.platform_ids).get(platform, "")


class Roster:
    """Students by id, with look-ups by platform id, email and name."""

    def __init__(self, students):
        self.students = list(students)
        self.by_id = {s.id: s for s in self.students}

    @classmethod
    def load(cls, path):
        """Read ``path``; ValueError naming the file and the line for a bad roster."""
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"no roster at {path}")
        with open(path, newline="", encoding="utf-8-sig") as f:
            lines = f.read().splitlines()
        header = lines[0] if lines else ""
        delimiter = ";" if header.count(";") > header.count(",") else ","
        reader = csv.reader(lines, delimiter=delimiter, skipinitialspace=True)
        found = next(reader, [])
        names = [_column(c) for c in found]
        missing = [c for c in REQUIRED if c not in names]
        if missing:
            shown = ", ".join(repr(c) for c in found) or "none (an empty file)"
            raise ValueError(f"{path}: the roster needs the columns {', '.join(REQUIRED)}; missing: "
                             f"{', '.join(missing)}; the header read was {shown} (separated by {delimiter!r})")
        platforms = [c for c in names if PLATFORM_COLUMN.match(c)]
        students, seen = [], set()
        for line, cells in enumerate(reader, start=2):
            if not any(c.strip() for c in cells):
                continue
            row = dict(zip(names, (c.strip() for c in cells)))
            sid = row.get("id", "")
            if not sid or sid in seen:
                raise ValueError(f"{path} line {line}: {'an empty' if not sid else 'a repeated'} id {sid!r}")
            seen.add(sid)
            ids = tuple((PLATFORM_COLUMN.match(c)["platform"], row[c]) for c in platforms if row.get(c))
            copied = tuple((c, row[c]) for c in COPIED if row.get(c))
            students.append(Student(sid, row.get("name", ""), row.get("email", ""), ids, copied))
        return cls(students)

    def by_platform(self, platform, value):
        """The students whose ``<platform>_id`` is ``value``."""
        return [s for s in self.students if value and s.on(platform) == str(value)]

    def by_name(self, name, squeeze=False):
        """Students whose name matches ``name`` (case-insensitive; ``squeeze``: letters and digits only,
        and either word order, as Canvas writes "doejane" for "Jane Doe")."""
        want = _key(name, squeeze)
        return [s for s in self.students if want in (_key(s.name, squeeze), _key(_reversed(s.name), squeeze))]

    def by_token(self, token):
        """Students whose id or email (or the email's local part) is ``token``, case-insensitive."""
        token = token.lower()
        return [s for s in self.students
                if token in (s.id.lower(), s.email.lower(), s.email.lower().split("@")[0])]


def _column(header):
    """A header as the roster's columns are named: "Canvas ID " -> "canvas_id"."""
    return re.sub(r"[\s-]+", "_", header.strip().lower())


def _key(name, squeeze):
    name = name.casefold()
    return re.sub(r"[\W_]+", "", name) if squeeze else " ".join(name.split())


def _reversed(name):
    """"Jane Doe" -> "Doe Jane" (Canvas's sortable name, "Doe, Jane", without its comma)."""
    words = name.split()
    return " ".join(words[-1:] + words[:-1])
