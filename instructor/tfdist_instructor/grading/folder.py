"""Grade a folder of submissions: one row and one feedback file per file, with progress."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tfdist_instructor.grading import catalog, notebook
from tfdist_instructor.grading.grade import grade_submission
from tfdist_instructor.grading.options import GradeOptions
from tfdist_instructor.grading.report import write_report


def grade_folder(submissions_dir, out_dir, options=GradeOptions()):
    """Grade every file in ``submissions_dir`` (hidden files skipped), each one student's submission
    named after the file, with the run's ``options``; as :func:`grade_files` does."""
    return grade_files({f: _student(f) for f in submissions(submissions_dir)}, out_dir, options)


def grade_files(students, out_dir, options=GradeOptions()):
    """Grade exactly the files of ``students`` (``{path: student id}``), each under its id, with the
    run's ``options`` (a :class:`GradeOptions`); write ``scores.csv`` and ``feedback/`` in ``out_dir``.

    The exercise is ``options.exercise``, or the one the notebooks name (found here, once, and handed to
    each submission beside the options: a notebook that names none is graded as it); each student's seed is
    ``options.seed_for(student)``, or a new one. ``options.jobs`` submissions run at once. Returns
    one GradeResult per file, in order; the report is updated after every submission (so an
    interrupted run keeps what it graded), and rows of students not graded in this run stay as they were.
    """
    students = {Path(p): s for p, s in students.items()}
    if not students:
        raise ValueError("no submissions to grade: the mapping of files to students is empty")
    files, names = list(students), list(students.values())
    if options.exercise is not None:
        catalog.load(options.exercise)  # ValueError naming the exercises, before any work
    named = None if options.exercise is not None else _common_exercise(files)
    results, lock, started = [None] * len(files), threading.Lock(), time.monotonic()

    def grade(i):
        result = grade_submission(files[i], options, student=names[i], named=named)
        with lock:
            results[i] = result
            write_report([result], out_dir)  # its row, merged: the rest of the report stays
            done = [r for r in results if r is not None]
            per = (time.monotonic() - started) / len(done)
            score = f"{result.score:g}/{result.possible:g}" if result.graded else "NOT GRADED"
            again = f"; graded on a second run, the first broke: {result.retried}" if result.retried else ""
            print(f"[{len(done)}/{len(files)}] {result.student}: {score} "
                  f"({result.status}, {result.seconds:.0f} s; {per:.0f} s per submission so far) "
                  f"{result.reason}{again}", flush=True)

    with ThreadPoolExecutor(max_workers=options.jobs) as pool:
        list(pool.map(grade, range(len(files))))
    return results


def not_graded_summary(results, again):
    """Lines naming every submission the grader failed on (none when all were graded), for the end
    of a run; ``again`` is the command that grades them again."""
    failed = [r for r in results if not r.graded]
    if not failed:
        return []
    return [f"{len(failed)} submission(s) NOT GRADED: the grader failed, not the notebook (no score was written, "
            "not even a 0):", *[f"  {r.student}: {r.reason}" for r in failed], f"grade them again: {again}"]


def submissions(folder):
    """The files to grade in ``folder``; FileNotFoundError or ValueError when there are none."""
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"no submissions folder at {folder}")
    files = sorted(p for p in folder.iterdir() if not p.name.startswith("."))
    if not files:
        raise ValueError(f"{folder} holds no submissions")
    return files


def _student(path):
    """The student a file in a submissions folder stands for: its name without ``.ipynb``."""
    return path.stem if path.suffix == ".ipynb" else path.name


def _common_exercise(files):
    """The exercise named by every notebook in ``files`` that names one, or None if they differ."""
    named = {notebook.named_exercise(p) for p in files} - {None}
    return named.pop() if len(named) == 1 else None
