"""From a downloads folder to the submissions to grade: one per student, never a guess.

A file that names no roster student (unmatched), names several (ambiguous), or belongs to a
student who has another file in the folder (duplicated) is not graded: it is listed in
``REPORT_DIR/unmatched.csv`` and on screen, for the instructor to resolve (rename, or fix the
roster) before grading again.
"""

import csv
import dataclasses
from collections import defaultdict
from pathlib import Path

from tfdist_instructor.term import platforms

UNMATCHED_FILE = "unmatched.csv"


@dataclasses.dataclass
class Intake:
    matched: dict  # student id -> Claim
    unmatched: list  # (Claim, why)

    @property
    def files(self):
        """``{notebook path: student id}`` of the submissions to grade."""
        return {claim.path: sid for sid, claim in self.matched.items()}


def take_in(folder, roster):
    """Read every submission of ``folder`` against ``roster``."""
    claims = platforms.recognise(folder, roster)
    by_student = defaultdict(list)
    unmatched = []
    for claim in claims:
        if not claim.students:
            unmatched.append((claim, f"unmatched: {claim.said} is not in the roster"))
        elif len(claim.students) > 1:
            names = ", ".join(s.id for s in claim.students)
            unmatched.append((claim, f"ambiguous: {claim.said} could be any of {names}"))
        else:
            by_student[claim.students[0].id].append(claim)
    matched = {}
    for sid, found in by_student.items():
        if len(found) == 1:
            matched[sid] = found[0]
            continue
        files = " and ".join(_shown(c.path, folder) for c in found)
        unmatched += [(c, f"duplicated: {sid} has {len(found)} submissions ({files}); none graded") for c in found]
    return Intake(dict(sorted(matched.items())), unmatched)


def write_unmatched(intake, folder, out_dir):
    """``unmatched.csv`` (file, platform, what the download says, why), printed too; its path."""
    path = Path(out_dir) / UNMATCHED_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["file", "platform", "names", "problem"])
        for claim, why in intake.unmatched:
            writer.writerow([_shown(claim.path, folder), claim.platform, claim.said, why])
    for claim, why in intake.unmatched:
        print(f"not graded: {_shown(claim.path, folder)}: {why}", flush=True)
    return path


def _shown(path, folder):
    try:
        return str(Path(path).relative_to(folder))
    except ValueError:
        return str(path)
