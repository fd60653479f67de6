"""The class list: ``roster.csv`` with ``id,name,email`` and any platform ids (``canvas_id``,
``moodle_id``, ``gradescope_id``, ...), one row per student.

``id`` is the course's own identifier: it names the student in ``scores.csv``, the totals, the
hand-graded points and the gradebooks. Platform ids are how each platform's downloads name the
student (Canvas: the numeric user id; Moodle: the participant number of the assignment;
Gradescope: the SID of the export's metadata).
"""

import csv
import dataclasses
import re
from pathlib import Path

REQUIRED = ("id", "name", "email")
PLATFORM_COLUMN = re.compile(r"^(?P<platform>[a-z]+)_id$")


@dataclasses.dataclass(frozen=True)
class Student:
    id: str
    name: str
    email: str
    platform_ids: tuple = ()  # ((platform, value), ...)

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
            reader = csv.DictReader(f)
            missing = [c for c in REQUIRED if c not in (reader.fieldnames or [])]
            if missing:
                raise ValueError(f"{path}: the roster needs the columns {', '.join(REQUIRED)}; "
                                 f"missing: {', '.join(missing)}")
            platforms = [c for c in reader.fieldnames if PLATFORM_COLUMN.match(c)]
            students, seen = [], set()
            for line, row in enumerate(reader, start=2):
                sid = (row["id"] or "").strip()
                if not sid or sid in seen:
                    raise ValueError(f"{path} line {line}: {'an empty' if not sid else 'a repeated'} id {sid!r}")
                seen.add(sid)
                ids = tuple((PLATFORM_COLUMN.match(c)["platform"], row[c].strip()) for c in platforms if row[c].strip())
                students.append(Student(sid, row["name"].strip(), row["email"].strip(), ids))
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


def _key(name, squeeze):
    name = name.casefold()
    return re.sub(r"[\W_]+", "", name) if squeeze else " ".join(name.split())


def _reversed(name):
    """"Jane Doe" -> "Doe Jane" (Canvas's sortable name, "Doe, Jane", without its comma)."""
    words = name.split()
    return " ".join(words[-1:] + words[:-1])
