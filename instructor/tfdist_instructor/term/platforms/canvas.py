"""Canvas, "Download Submissions": ``<sortable name>[_LATE]_<user id>_<attachment id>_<file name>``.

The name is the student's sortable name ("Doe, Jane") lowercased with everything but letters and
digits removed ("doejane"); anonymous grading writes ``anon_<id>`` for name and user id. Source:
Canvas's own zipper, ``get_filename`` and ``add_upload_submission`` in instructure/canvas-lms
lib/content_zipper.rb (https://github.com/instructure/canvas-lms/blob/master/lib/content_zipper.rb).
"LATE" is Canvas's ``submission.late?``, judged against the student's own due date (overrides
included); the name carries no time.
"""

import re

from tfdist_instructor.term.platforms import Claim

NAME = re.compile(r"^(?P<name>\w+?)(?P<late>_LATE)?_(?P<user>\d+|anon_\w+?)_(?P<attachment>\d+)_(?P<file>.+)$")


def claim(path, roster):
    """A Claim for a Canvas-named file, else None."""
    m = NAME.match(path.name) if path.is_file() else None
    if not m:
        return None
    user = m["user"]
    students = roster.by_platform("canvas", user) or ([] if user.startswith("anon_") else
                                                      roster.by_name(m["name"], squeeze=True))
    return Claim(path, "canvas", f"canvas user {user} ({m['name']})", students, late=bool(m["late"]),
                 time_source="Canvas's LATE marker in the file name (no time in it)")
