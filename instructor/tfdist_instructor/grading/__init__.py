"""Grading the course's exercises, with the verdict outside the student's process.

- ``notebook``/``structure``: read a submission without running it (rejections, deleted or
  moved cells);
- ``sandbox``/``launch``/``runner``/``probing``: run it in a bubblewrap sandbox and call its
  functions on inputs the grader chose; plain data comes back (``codec``: JSON and .npy);
- ``catalog``/``verdict``: the question files (``grading/questions/<exercise>/qN.py``) and the
  points, decided in the grader's process from that data;
- ``options``: a run's options (``GradeOptions``), one frozen object the command builds once (the
  ``--exercise`` and the seeds it was given in it, read through ``seed_for``);
- ``result``/``report``/``grade``/``folder``/``cli``: grades, the class report, the command.

This module imports nothing heavy: the runner and the probes import it inside the sandbox.
"""

from tfdist_instructor.grading.cli import add_cli
from tfdist_instructor.grading.folder import grade_files, grade_folder
from tfdist_instructor.grading.grade import grade_submission
from tfdist_instructor.grading.notebook import EXERCISES_DIR
from tfdist_instructor.grading.options import DEFAULT_TIMEOUT_S, GradeOptions
from tfdist_instructor.grading.catalog import exercises, questions
from tfdist_instructor.grading.report import feedback, write_report
from tfdist_instructor.grading.result import GradeResult
from tfdist_instructor.grading.structure import CHECK_CELL

__all__ = ["CHECK_CELL", "DEFAULT_TIMEOUT_S", "EXERCISES_DIR", "GradeOptions", "GradeResult", "add_cli", "exercises",
           "feedback", "grade_files", "grade_folder", "grade_submission", "questions", "write_report"]
