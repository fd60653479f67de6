"""Running a graded term around the grader: one module per concern.

- ``release``: the student copy of the course (no solution, master, question file or rubric);
- ``roster``/``platforms``/``intake``: who a downloaded file belongs to (Canvas, Moodle,
  Gradescope, Colab), and the files that are not graded (unmatched, ambiguous, duplicated);
- ``policy``/``totals``: deadlines, late penalties, extensions, hand-graded points, totals;
- ``classgrade``: a class graded with a seed per student; ``slurm``: the same as a job array;
- ``gradebooks``: totals out in the import formats of Canvas and Moodle;
- ``gradescope``: an autograder package built from the same question files and grader;
- ``cli``: the commands.
"""


def add_cli(subparsers, grade):
    """Register the term's commands on ``tfdist-instructor`` and its options on ``grade``, the
    parser the grader's ``add_cli`` returned."""
    from tfdist_instructor.term import cli, gradescope, release

    cli.extend_grade(grade)
    cli.add_gradebook(subparsers)
    gradescope.add_cli(subparsers)
    release.add_cli(subparsers)
