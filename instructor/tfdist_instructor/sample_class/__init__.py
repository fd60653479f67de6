"""Sample classes to grade, built from the course's own solutions: what the grader's tests and the
grading and term benchmarks grade, so both build the same submissions from one place.

- ``planting``: a solution with one substitution planted in one answer cell, graded for real.
- ``mistakes``: the mistakes the course teaches, each as such a substitution with the score it
  must get (exercise 5's from ``ring_planted_mistakes.json``), and answers that delegate to a
  course helper.
- ``class_mix``: a realistic class of one exercise: solutions, every planted mistake,
  delegations, broken and hostile notebooks.
- ``downloads``: a class's downloads as Canvas, Moodle, Gradescope and Colab name them, with the
  roster that goes with them.

They read the solutions and exercises of a checkout of the course (``REPO_ROOT``).
"""
