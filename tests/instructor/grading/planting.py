"""``from planting import ...`` for grading tests written before the builders moved to
``tfdist_instructor.sample_class.planting`` (import them from there)."""

from tfdist_instructor.sample_class.planting import assert_diagnosed, grade_planted, lost_in, planted, solution  # noqa: F401
