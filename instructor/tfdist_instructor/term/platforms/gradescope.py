"""Gradescope, "Export Submissions": one ``submission_<id>/`` folder per submission and, beside them,
``submission_metadata.yml`` mapping each folder to its ``:submitters:`` (``:name:``, ``:sid:``,
``:email:``) and ``:created_at:``. Sources: matthigger/gradescope_auto_py issue 24
(https://github.com/matthigger/gradescope_auto_py/issues/24: "gradescope 'export all' gives a
submission_xxxxxxxxxx folder per submission") and the same fields in Gradescope's
submission_metadata.json (https://gradescope-autograders.readthedocs.io/en/latest/submission_metadata/).
The submission time is the metadata's ``:created_at:``.
"""

import datetime
import re

from tfdist_instructor.term.platforms import Claim, notebook_in

METADATA = "submission_metadata.yml"
FOLDER = re.compile(r"^submission_(?P<submission>\d+)$")


def metadata(folder):
    """The export's metadata (``{folder name: record}``), or None when ``folder`` is not an export."""
    path = folder / METADATA
    if not path.is_file():
        return None
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else {}


def claim(path, export, roster):
    """A Claim for a ``submission_<id>`` folder of an export, else None."""
    if not (path.is_dir() and FOLDER.match(path.name)):
        return None
    record = export.get(path.name) or {}
    people = [p for p in record.get(":submitters") or [] if isinstance(p, dict)]
    said = ", ".join(f"{p.get(':name', '?')} (sid {p.get(':sid', '?')})" for p in people) or "no submitter"
    found = {s.id: s for p in people for s in (roster.by_platform("gradescope", str(p.get(":sid", "")))
                                                or roster.by_token(str(p.get(":sid") or p.get(":email") or "-")))}
    when = _timestamp(record.get(":created_at"))
    return Claim(notebook_in(path), "gradescope", said, list(found.values()), submitted_at=when,
                 time_source="Gradescope's export metadata (:created_at:)" if when else "")


def _timestamp(value):
    if isinstance(value, datetime.datetime):
        return value if value.tzinfo else value.replace(tzinfo=datetime.timezone.utc)
    try:
        return datetime.datetime.fromisoformat(str(value).replace(" ", "T", 1)) if value else None
    except ValueError:
        return None
