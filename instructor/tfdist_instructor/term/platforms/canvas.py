"""Canvas, "Download Submissions": ``<sortable name>[_LATE]_<user id>_<attachment id>_<file name>``.

The name is the student's sortable name ("Doe, Jane") lowercased with everything but letters and
digits removed ("doejane"); anonymous grading writes no name and ``anon_<anonymous id>`` for the
user id, so a file is ``[LATE_]anon_<anonymous id>_<attachment id>_<file name>``. Source:
Canvas's own zipper, ``get_filename`` and ``add_upload_submission`` in instructure/canvas-lms
lib/content_zipper.rb (https://github.com/instructure/canvas-lms/blob/master/lib/content_zipper.rb).
"LATE" is Canvas's ``submission.late?``, judged against the student's own due date (overrides
included); the name carries no time.
"""

import re

from tfdist_instructor.term.platforms import Claim

NAME = re.compile(r"^(?P<name>\w+?)(?P<late>_LATE)?_(?P<user>\d+)_(?P<attachment>\d+)_(?P<file>.+)$")
ANONYMOUS = re.compile(r"^(?P<late>LATE_)?(?P<user>anon_[A-Za-z0-9]+)_(?P<attachment>\d+)_(?P<file>.+)$")


def claim(path, roster):
    """A Claim for a Canvas-named file, else None."""
    if not path.is_file():
        return None
    if m := ANONYMOUS.match(path.name):  # no name to match: the roster's canvas_id may hold the anonymous id
        user, said, students = m["user"], f"canvas anonymous submission {m['user']}", roster.by_platform(
            "canvas", m["user"])
    elif m := NAME.match(path.name):
        user, said = m["user"], f"canvas user {m['user']} ({m['name']})"
        students = roster.by_platform("canvas", user) or roster.by_name(m["name"], squeeze=True)
    else:
        return None
    return Claim(path, "canvas", said, students, late=bool(m["late"]),
                 time_source="Canvas's LATE marker in the file name (no time in it)")
