"""The rules of one exercise: ``grading/policy/<exercise>.toml``.

    deadline = 2026-03-02T23:59:00Z   # TOML date-time; none: nothing is late
    late_penalty = 0.10               # share of the exercise's total lost per started day late
    late_limit_days = 5               # later than this: no points (optional)
    [extensions]                      # per student id: extra days, or a deadline of their own
    s1003 = 2
    s1007 = 2026-03-09T23:59:00Z

Every value is checked when the file is read, before any grading: a quoted number or date, a
percent sign, a negative count is refused in one line naming the file and the key.

How late a submission is comes from its platform, and the totals say which source was used.
Gradescope's export metadata carries the submission time; Moodle and Colab downloads carry none
in their names, so the file's modification time is used; all three get the deadline, the
extensions and the limit. Canvas's file names carry only a LATE marker, judged by Canvas against
the due date Canvas knows, and no time (its zip entries are written at download time), so two
rules cannot be applied to them and the totals and the console say so per file: a LATE file
counts as one day (the late limit cannot tell one day from ten), and a LATE file of a student
with an extension here loses nothing (Canvas may not know the extension); check those in Canvas.
"""

import dataclasses
import datetime
import hashlib
import math
from pathlib import Path

from tfdist_instructor import REPO_ROOT, toml

POLICY_DIR = REPO_ROOT / "grading" / "policy"
DAY = datetime.timedelta(days=1)
KEYS = {"deadline", "late_penalty", "late_limit_days", "extensions"}
DATE_TIME = "a date-time with its zone, unquoted, e.g. 2026-03-02T23:59:00Z"


@dataclasses.dataclass(frozen=True)
class Lateness:
    days: int
    source: str  # where the judgement came from
    note: str = ""  # a rule that could not be applied to this submission, and why


@dataclasses.dataclass(frozen=True)
class Policy:
    exercise: str
    deadline: datetime.datetime | None = None
    late_penalty: float = 0.0
    late_limit_days: int | None = None
    extensions: tuple = ()  # ((student id, days or deadline), ...)
    # Where it was read from, for the record (not part of the rules: two policies with the same
    # rules are equal): the file's name ("" without one), the sha256 of its bytes, its text.
    file: str = dataclasses.field(default="", compare=False)
    sha256: str = dataclasses.field(default="", compare=False)
    text: str = dataclasses.field(default="", compare=False, repr=False)

    @classmethod
    def for_exercise(cls, exercise, folder=POLICY_DIR):
        """The policy of ``exercise`` (no deadline when it has no file); ValueError naming the file
        and the key for anything wrong in it."""
        path = Path(folder) / f"{exercise}.toml"
        if not path.is_file():
            return cls(exercise)
        return cls.from_text(exercise, path.read_bytes(), path)

    @classmethod
    def from_text(cls, exercise, raw, path):
        """The policy in ``raw`` (the bytes of a policy file), read and checked as the file ``path``."""
        path, digest = Path(path), hashlib.sha256(raw).hexdigest()
        try:
            text = raw.decode("utf-8")
            data = toml.loads(text)
        except (toml.TOMLDecodeError, UnicodeDecodeError) as error:
            raise ValueError(f"{path}: {error}") from None
        unknown = set(data) - KEYS
        if unknown:
            raise ValueError(f"{path}: unknown key(s) {', '.join(sorted(unknown))}; "
                             f"the keys are {', '.join(sorted(KEYS))}")
        deadline = data.get("deadline")
        if deadline is not None and not _zoned(deadline):
            raise ValueError(f"{path}: deadline must be {DATE_TIME}; got {deadline!r}")
        penalty = data.get("late_penalty", 0.0)
        if not _number(penalty):
            raise ValueError(f"{path}: late_penalty must be a number, the share of the total lost per started "
                             f"day (0.10 for 10%); got {penalty!r}")
        if not 0 <= penalty <= 1:
            raise ValueError(f"{path}: late_penalty is a share of the total per day, between 0 and 1; got {penalty}")
        limit = data.get("late_limit_days")
        if limit is not None and not (_number(limit) and limit == int(limit) and limit >= 0):
            raise ValueError(f"{path}: late_limit_days must be a whole number of days >= 0, unquoted "
                             f"(late_limit_days = 5); got {limit!r}")
        extensions = data.get("extensions", {})
        if not isinstance(extensions, dict):
            raise ValueError(f"{path}: extensions must be a table ([extensions], one 'id = days' per line)")
        for student, value in extensions.items():
            if not ((_number(value) and value >= 0) or _zoned(value)):
                raise ValueError(f"{path}: extensions.{student} must be days (a number >= 0) or {DATE_TIME}; "
                                 f"got {value!r}")
        return cls(exercise, deadline, float(penalty), None if limit is None else int(limit),
                   tuple(sorted((str(k), v) for k, v in extensions.items())), path.name, digest, text)

    @property
    def label(self):
        """Which policy this is, for the record: "05_ring_allreduce.toml sha256:1a2b3c4d5e6f" ("none" without a file)."""
        return f"{self.file} sha256:{self.sha256[:12]}" if self.file else "none (no policy file: nothing is late)"

    def rules(self):
        """The rules in one line, for the console."""
        if self.deadline is None:
            said = "no deadline: nothing is late" + (" (but Canvas's LATE markers count)" if self.late_penalty else "")
        else:
            said = f"deadline {self.deadline.isoformat()}"
        said += f", {self.late_penalty:.0%} of the total per started day late" if self.late_penalty else ""
        said += f", no points after {self.late_limit_days} days" if self.late_limit_days is not None else ""
        return said + (f", extensions: {', '.join(f'{s} {self.extension_text(s)}' for s, _ in self.extensions)}"
                       if self.extensions else "")

    def extension_text(self, student):
        """``student``'s extension in words ("2 days, until 2026-03-04T23:59:00+00:00"); "" without one."""
        extension = dict(self.extensions).get(student)
        if extension is None:
            return ""
        if isinstance(extension, datetime.datetime):
            return f"until {extension.isoformat()}"
        until = self.deadline_for(student)
        return f"{extension:g} day{'s' * (extension != 1)}" + (f", until {until.isoformat()}" if until else "")


    def deadline_for(self, student):
        """``student``'s deadline: the exercise's, moved by their extension."""
        extension = dict(self.extensions).get(student)
        if isinstance(extension, datetime.datetime):
            return extension
        return self.deadline + extension * DAY if self.deadline and extension else self.deadline

    def lateness(self, student, claim):
        """How late ``claim`` (a platforms.Claim) is for ``student``: a Lateness."""
        if claim.late is not None:  # Canvas: a marker, no time
            return self._marked(student, claim)
        deadline = self.deadline_for(student)
        if deadline is None or claim.submitted_at is None:
            return Lateness(0, claim.time_source or "no submission time")
        late = claim.submitted_at - deadline
        return Lateness(math.ceil(late / DAY) if late > datetime.timedelta(0) else 0, claim.time_source)

    def _marked(self, student, claim):
        if not claim.late:
            return Lateness(0, claim.time_source)
        extension = dict(self.extensions).get(student)
        if extension is not None:
            given = f"{extension:g} days" if _number(extension) else f"until {extension.isoformat()}"
            return Lateness(0, claim.time_source, f"Canvas marked it LATE, but the extension ({given}) cannot be "
                                                  "checked against a name without a time: no penalty applied; "
                                                  "check the submission time in Canvas")
        note = ""
        if self.late_limit_days is not None:
            note = (f"Canvas marked it LATE without saying how late: counted as 1 day; the late limit "
                    f"({self.late_limit_days} days) cannot be applied; check the submission time in Canvas")
        return Lateness(1, claim.time_source, note)

    def days_late(self, student, claim):
        """Started days late for ``claim`` and the source of that judgement."""
        judged = self.lateness(student, claim)
        return judged.days, judged.source

    def penalty(self, days, total):
        """Points lost for ``days`` late on an exercise worth ``total``."""
        if days <= 0:
            return 0.0
        if self.late_limit_days is not None and days > self.late_limit_days:
            return float(total)
        return min(float(total), round(days * self.late_penalty * total, 4))


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _zoned(value):
    return isinstance(value, datetime.datetime) and value.tzinfo is not None


def check_folder(folder, given):
    """Refuse, in one line and before any work, a policy folder that is missing (``given``: named
    with --policy-dir) or holds a file that is no exercise's policy (a misspelt name would
    otherwise be ignored, and every student graded as if nothing were late)."""
    from tfdist_instructor.grading import catalog

    folder = Path(folder)
    if not folder.is_dir() and not given:
        return  # no policy folder of the course's own: nothing is late
    if not folder.is_dir():
        raise ValueError(f"--policy-dir {given}: no such folder (the late rules would be lost without a word); "
                         f"give the folder that holds <exercise>.toml")
    known = catalog.exercises()
    for path in sorted(folder.iterdir()):
        if path.name.startswith(".") or path.name.lower().startswith("readme") or not path.is_file():
            continue
        if path.suffix != ".toml" or path.stem not in known:
            raise ValueError(f"{path}: a policy file is named <exercise>.toml and this name matches no exercise "
                             f"(the exercises: {', '.join(known)}); rename it, or move it out of {folder}")
