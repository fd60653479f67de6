"""The rules of one exercise: ``grading/policy/<exercise>.toml``.

    deadline = 2026-03-02T23:59:00Z   # TOML date-time; none: nothing is late
    late_penalty = 0.10               # share of the exercise's total lost per started day late
    late_limit_days = 5               # later than this: no points (optional)
    [extensions]                      # per student id: extra days, or a deadline of their own
    s1003 = 2
    s1007 = 2026-03-09T23:59:00Z

How late a submission is comes from its platform, and the totals say which source was used:
Canvas's file names carry only a LATE marker (Canvas judges it against the student's own due
date, so record extensions in Canvas too): a LATE file loses one day's penalty. Gradescope's
export metadata carries the submission time; Moodle and Colab downloads carry none in their
names, so the file's modification time is used.
"""

import dataclasses
import datetime
import math
import tomllib
from pathlib import Path

from tfdist_instructor import REPO_ROOT

POLICY_DIR = REPO_ROOT / "grading" / "policy"
DAY = datetime.timedelta(days=1)
KEYS = {"deadline", "late_penalty", "late_limit_days", "extensions"}


@dataclasses.dataclass(frozen=True)
class Policy:
    exercise: str
    deadline: datetime.datetime | None = None
    late_penalty: float = 0.0
    late_limit_days: int | None = None
    extensions: tuple = ()  # ((student id, days or deadline), ...)

    @classmethod
    def for_exercise(cls, exercise, folder=POLICY_DIR):
        """The policy of ``exercise`` (no deadline when it has no file); ValueError for a bad file."""
        path = Path(folder) / f"{exercise}.toml"
        if not path.is_file():
            return cls(exercise)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as error:
            raise ValueError(f"{path}: {error}") from None
        unknown = set(data) - KEYS
        if unknown:
            raise ValueError(f"{path}: unknown key(s) {', '.join(sorted(unknown))}; "
                             f"the keys are {', '.join(sorted(KEYS))}")
        deadline = data.get("deadline")
        if deadline is not None and not (isinstance(deadline, datetime.datetime) and deadline.tzinfo):
            raise ValueError(f"{path}: deadline must be a date-time with its zone, e.g. 2026-03-02T23:59:00Z")
        penalty = float(data.get("late_penalty", 0.0))
        if not 0 <= penalty <= 1:
            raise ValueError(f"{path}: late_penalty is a share of the total per day, between 0 and 1; got {penalty}")
        return cls(exercise, deadline, penalty, data.get("late_limit_days"),
                   tuple(sorted((str(k), v) for k, v in data.get("extensions", {}).items())))

    def deadline_for(self, student):
        """``student``'s deadline: the exercise's, moved by their extension."""
        extension = dict(self.extensions).get(student)
        if isinstance(extension, datetime.datetime):
            return extension
        return self.deadline + extension * DAY if self.deadline and extension else self.deadline

    def days_late(self, student, claim):
        """Started days late for ``claim`` (a platforms.Claim) and the source of that judgement."""
        if claim.late is not None:
            return (1 if claim.late else 0), claim.time_source
        deadline = self.deadline_for(student)
        if deadline is None or claim.submitted_at is None:
            return 0, claim.time_source or "no submission time"
        late = claim.submitted_at - deadline
        return (math.ceil(late / DAY) if late > datetime.timedelta(0) else 0), claim.time_source

    def penalty(self, days, total):
        """Points lost for ``days`` late on an exercise worth ``total``."""
        if days <= 0:
            return 0.0
        if self.late_limit_days is not None and days > self.late_limit_days:
            return float(total)
        return min(float(total), round(days * self.late_penalty * total, 4))
