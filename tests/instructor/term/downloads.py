"""``from downloads import ...`` for term tests written before the class moved to
``tfdist_instructor.sample_class.downloads`` (import it from there)."""

from tfdist_instructor.sample_class.downloads import (  # noqa: F401
    EXERCISE, FILES, GRADESCOPE_YML, MOODLE_TIME, ROSTER, make_class)
