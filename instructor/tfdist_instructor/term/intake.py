"""From a downloads folder to the submissions to grade: one per student, never a guess.

A file that names no roster student (unmatched), names several (ambiguous), or belongs to a
student who has another notebook in the folder (duplicated) is not graded: it is listed in
``REPORT_DIR/unmatched.csv`` and on screen, for the instructor to resolve (rename, or fix the
roster) before grading again. A student's one notebook beside other files (a PDF of it, as Canvas
students often upload) is graded, and the other files are listed as extra.

``unmatched.csv`` belongs to the class, not to one run: grading again into the same report
replaces the entries of the students graded (or held) now, and of the same folder's files;
every other entry stays, as the other students' rows of ``scores.csv`` and ``totals.csv`` do.
"""

import dataclasses
from collections import defaultdict
from pathlib import Path

from tfdist_instructor.grading import scores
from tfdist_instructor.term import platforms

UNMATCHED_FILE = "unmatched.csv"
COLUMNS = ["file", "platform", "names", "problem", "student", "folder"]


@dataclasses.dataclass
class Intake:
    matched: dict  # student id -> Claim
    unmatched: list  # (Claim, why)

    @property
    def files(self):
        """``{notebook path: student id}`` of the submissions to grade."""
        return {claim.path: sid for sid, claim in self.matched.items()}

    @property
    def held(self):
        """Ids of the students with a file that is not graded (duplicated, extra)."""
        return {c.students[0].id for c, _ in self.unmatched if len(c.students) == 1}

    def keep_only(self, students):
        """Keep the submissions and the listed files of ``students`` only (``--only``)."""
        self.matched = {sid: c for sid, c in self.matched.items() if sid in students}
        self.unmatched = [(c, why) for c, why in self.unmatched if _student(c) in students]


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
        notebooks = [c for c in found if Path(c.path).suffix == ".ipynb"]
        if len(found) == 1 or len(notebooks) == 1:
            matched[sid] = graded = found[0] if len(found) == 1 else notebooks[0]
            unmatched += [(c, f"extra: {sid} also sent {_shown(c.path, folder)}, not a notebook; their notebook "
                              f"{_shown(graded.path, folder)} is graded") for c in found if c is not graded]
            continue
        files = " and ".join(_shown(c.path, folder) for c in found)
        unmatched += [(c, f"duplicated: {sid} has {len(found)} submissions ({files}); none graded") for c in found]
    return Intake(dict(sorted(matched.items())), unmatched)


def write_unmatched(intake, folder, out_dir, whole_folder=True):
    """Put this run's files that are not graded into ``unmatched.csv`` (file, platform, what the
    download says, why, the student, the folder), printed too; its path. Entries of earlier runs
    stay unless this run speaks for them: the same student, the same file, or (``whole_folder``:
    not an ``--only`` run) any file of the same folder."""
    path, here = Path(out_dir) / UNMATCHED_FILE, str(Path(folder).resolve())
    path.parent.mkdir(parents=True, exist_ok=True)
    new = [{"file": _shown(c.path, folder), "platform": c.platform, "names": c.said, "problem": why,
            "student": _student(c) or "", "folder": here} for c, why in intake.unmatched]
    students, files = set(intake.matched) | intake.held, {r["file"] for r in new}
    kept = [r for r in _read(path) if not (r.get("student") in students or (r.get("folder") or here) == here
                                          and (whole_folder or r["file"] in files))]
    scores.write(path, COLUMNS, kept + new)
    for row in new:
        print(f"not graded: {row['file']}: {row['problem']}", flush=True)
    return path


def _read(path):
    return scores.read(path)[1]


def _student(claim):
    return claim.students[0].id if len(claim.students) == 1 else None


def _shown(path, folder):
    try:
        return str(Path(path).relative_to(folder))
    except ValueError:
        return str(path)
