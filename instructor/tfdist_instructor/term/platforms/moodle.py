"""Moodle, Assignment > "Download all submissions".

Flat: ``<full name>_<participant id>_assignsubmission_file_<file name>``; with "Download
submissions in folders" (the default since Moodle 3.1) a folder
``<full name>_<participant id>_assignsubmission_file_/`` holding the files as uploaded. Source:
``assign::download_submissions`` in moodle/moodle mod/assign/locallib.php
(https://github.com/moodle/moodle/blob/main/mod/assign/locallib.php) and its help string
"downloadasfolders_help" (https://github.com/moodle/moodle/commit/381bb721538cbba98ac84447a6da22fdb4dc94a2).
The participant id is Moodle's per-assignment "unique id for user": the roster's ``moodle_id``
matches only when it holds that number; otherwise the full name must match one student. The
names carry no time: the file's modification time is used.
"""

import re

from tfdist_instructor.term.platforms import Claim, file_time, notebook_in

FILE = re.compile(r"^(?P<name>.+?)_(?P<participant>\d+)_assignsubmission_file_(?P<file>.+)$")
FOLDER = re.compile(r"^(?P<name>.+?)_(?P<participant>\d+)_assignsubmission_file_?$")


def claim(path, roster):
    """A Claim for a Moodle-named file or folder, else None."""
    if path.is_dir() and (m := FOLDER.match(path.name)):
        path, platform = notebook_in(path), "moodle folders"
    elif path.is_file() and (m := FILE.match(path.name)):
        platform = "moodle"
    else:
        return None
    students = roster.by_platform("moodle", m["participant"]) or roster.by_name(m["name"])
    return Claim(path, platform, f"moodle participant {m['participant']} ({m['name']})", students, **file_time(path))
