"""Who a downloaded submission belongs to, from the names each platform gives its bulk downloads.

One module per platform (``canvas``, ``moodle``, ``gradescope``, ``colab``), each citing the
vendor's format beside its pattern. Each turns a file (or folder) of a submissions folder into a
Claim: the notebook, the platform, the roster students it names, and when it was submitted,
with where that time came from. Nothing is guessed: a name no recogniser reads, or a roster that
does not know the student, leaves the claim without a student.
"""

import dataclasses
import datetime
from pathlib import Path


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
    from tfdist_instructor.term.platforms import canvas, colab, gradescope, moodle

    folder = Path(folder)
    entries = sorted(p for p in folder.iterdir() if not p.name.startswith("."))
    export = gradescope.metadata(folder)
    claims = []
    for entry in entries:
        if entry.name == gradescope.METADATA:
            continue
        claim = (gradescope.claim(entry, export, roster) if export is not None else None) \
            or moodle.claim(entry, roster) or canvas.claim(entry, roster) or colab.claim(entry, roster)
        claims.append(claim)
    return claims


def notebook_in(folder):
    """The one notebook in ``folder``, else the folder itself (the grader rejects it, saying why)."""
    notebooks = sorted(folder.rglob("*.ipynb"))
    return notebooks[0] if len(notebooks) == 1 else folder


def file_time(path):
    """The file's modification time, for platforms whose names carry no time."""
    when = datetime.datetime.fromtimestamp(path.stat().st_mtime, datetime.timezone.utc)
    return {"submitted_at": when, "time_source": "the file's modification time (the name carries no time)"}
