"""Colab, and any other plain name: File > Download > Download .ipynb saves the notebook under its
own name ("Copy of ..." for a copy in Drive), so every student's file has the same name. The
student is found in the notebook (a ``student_id`` in its metadata, or "Student id: ..." in its
first cell), else by a roster id or email in the file name. The time is the file's modification
time.
"""

import json
import re

from tfdist_instructor.term.platforms import Claim, file_time

FIRST_CELL_ID = re.compile(r"(?i)student[ _-]?id\s*[:=]\s*[\"']?(?P<id>[\w.@+-]+)")


def claim(path, roster):
    """A Claim for a plain name: always one, possibly without a student."""
    written = _written_id(path)
    if written:
        return Claim(path, "colab", f"id {written!r} written in the notebook", roster.by_token(written),
                     **file_time(path))
    tokens = [t for t in re.split(r"[\s_()\[\],;]+", path.stem) if t]
    found = {s.id: s for t in tokens for s in roster.by_token(t)}
    return Claim(path, "colab", f"file name {path.name!r}", list(found.values()), **file_time(path))


def _written_id(path):
    """A student id the notebook carries: metadata ``student_id``, or "Student id: X" in its first cell."""
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
        meta = nb.get("metadata", {})
        if isinstance(meta.get("student_id"), (str, int)):
            return str(meta["student_id"])
        first = nb["cells"][0]["source"]
        m = FIRST_CELL_ID.search("".join(first) if isinstance(first, list) else first)
        return m["id"] if m else None
    except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError):
        return None
