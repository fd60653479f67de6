"""Running a graded term around the grader: one module per concern.

- ``release``: the student copy of the course (no solution, master, question file or rubric);
- ``roster``/``platforms``: who a downloaded file belongs to (Canvas, Moodle, Gradescope, Colab);
- ``policy``: deadlines, late penalties, extensions, hand-graded points, each exercise's total;
- ``gradebooks``: scores out in the import formats Canvas and Moodle document;
- ``gradescope``: an autograder package built from the same question files and grader;
- ``slurm``: a class graded as a Slurm job array, merged into one ``scores.csv``.
"""


def add_cli(subparsers):
    """Register the term's commands on ``tfdist-instructor``."""
    from tfdist_instructor.term import release

    release.add_cli(subparsers)
