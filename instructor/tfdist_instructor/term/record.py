"""What a class's report records so that a regrade judges as the first grading did.

- ``policy.json``: the policy the class was graded with (its file's name, the sha256 of its
  bytes, its text). A regrade into the report that does not name a policy folder, or whose
  default policy differs, uses the recorded one and says so (the README's one-file regrade
  without ``--policy-dir`` no longer drops the late penalty); a regrade with ``--policy-dir``
  naming another policy is graded with it and says that the other students' totals were made
  with the recorded one. Each row of ``totals.csv`` names its policy (``policy`` column).
- ``submission-times.csv``: per submission file, by the sha256 of its content, the time it was
  judged by and where that time came from (Canvas's name, Gradescope's metadata, the file's
  modification time). A regrade of the same content uses the recorded time: a ``cp`` sets a
  file's time to now, which would make an on-time Moodle or Colab file months late. A time
  that moved since is reported, never applied.
"""

import datetime
import hashlib
import json
import os
import tempfile
from pathlib import Path

from tfdist_instructor.grading import scores
from tfdist_instructor.term.policy import Policy

POLICY_RECORD = "policy.json"
TIMES_FILE = "submission-times.csv"
TIME_COLUMNS = ["student", "sha256", "file", "platform", "submitted_at", "late", "time_source", "recorded_at"]


def recorded_policy(out, exercise):
    """The policy ``out`` records for ``exercise``, as a Policy (None when it records none)."""
    path = Path(out) / POLICY_RECORD
    if not path.is_file():
        return None
    record = json.loads(path.read_text(encoding="utf-8"))
    if record.get("exercise") != exercise:
        return None
    if not record.get("file"):
        return Policy(exercise)
    policy = Policy.from_text(exercise, record["text"].encode("utf-8"), f"{path} ({record['file']})")
    if policy.sha256 != record["sha256"]:
        raise ValueError(f"{path}: the recorded policy's text does not match its sha256; "
                         "it was edited by hand: grade with --policy-dir")
    return Policy(**{**_fields(policy), "file": record["file"]})


def choose_policy(out, exercise, policy, given):
    """The policy to grade with, and the lines to print: ``policy`` (read from the folder named by
    --policy-dir, ``given``, or from the default folder) unless the report records another one and
    no folder was named, in which case the recorded one."""
    recorded = recorded_policy(out, exercise)
    if recorded is None or recorded.sha256 == policy.sha256:
        return policy, [f"policy of {exercise}: {policy.label}: {policy.rules()}"]
    if not given:
        return recorded, [f"policy of {exercise}: {recorded.label}, as recorded in {Path(out) / POLICY_RECORD} "
                          f"when this class was graded: {recorded.rules()}",
                          f"  (the default policy, {policy.label}, differs; it is not used: give --policy-dir "
                          "to grade with another policy)"]
    return policy, [f"policy of {exercise}: {policy.label}: {policy.rules()}",
                    f"warning: this class was graded with another policy, {recorded.label} (recorded in "
                    f"{Path(out) / POLICY_RECORD}); the students graded now get {policy.label}, every other "
                    "student keeps the total the recorded one gave (totals.csv's policy column says which): "
                    "regrade the class with --replay-seeds to apply it to everyone"]


def record_policy(out, policy, folder):
    """Write ``out/policy.json``: the policy the report's latest grading used (kept as it is when
    it records that policy already)."""
    recorded = recorded_policy(out, policy.exercise)
    if recorded is not None and recorded.sha256 == policy.sha256 and (Path(out) / POLICY_RECORD).is_file():
        return
    record = {"exercise": policy.exercise, "file": policy.file or None, "folder": str(folder) if policy.file else None,
              "sha256": policy.sha256 or None, "text": policy.text or None}
    _write_text(Path(out) / POLICY_RECORD, json.dumps(record, indent=1) + "\n")


def settle_times(intake, out):
    """Give each matched submission the time recorded for its content in ``out`` (recording the
    time of a content not seen before); return one line per submission whose time moved since."""
    path = Path(out) / TIMES_FILE
    rows = scores.read(path)[1]
    known = {(r["student"], r["sha256"]): r for r in rows}
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    moved, added = [], []
    for sid, claim in intake.matched.items():
        digest = _digest(claim.path)
        if digest is None:  # not a file (a folder the grader rejects): nothing to record
            continue
        seen = _row(sid, digest, claim, now)
        old = known.get((sid, digest))
        if old is None:
            known[sid, digest] = seen
            added.append(seen)
            continue
        if (old["submitted_at"], old["late"]) != (seen["submitted_at"], seen["late"]):
            was, now = old["submitted_at"] or _late_word(old["late"]), seen["submitted_at"] or _late_word(seen["late"])
            moved.append(f"{sid}: {seen['file']}: its time moved since it was first judged ({old['time_source']}: "
                         f"{was}, now {now}; a copy sets a file's time to now): the recorded time is used, not the new one")
        claim.submitted_at = datetime.datetime.fromisoformat(old["submitted_at"]) if old["submitted_at"] else None
        claim.late = {"True": True, "False": False}.get(old["late"])
        claim.time_source = old["time_source"]
    if added:
        path.parent.mkdir(parents=True, exist_ok=True)
        scores.write(path, TIME_COLUMNS, rows + added)
    return moved


def _row(sid, digest, claim, now):
    return {"student": sid, "sha256": digest, "file": Path(claim.path).name, "platform": claim.platform,
            "submitted_at": claim.submitted_at.isoformat() if claim.submitted_at else "",
            "late": "" if claim.late is None else str(bool(claim.late)), "time_source": claim.time_source,
            "recorded_at": now}


def _late_word(late):
    return {"True": "marked LATE", "False": "not marked late"}.get(late, "no time")


def _digest(path):
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                digest.update(chunk)
    except (IsADirectoryError, FileNotFoundError, PermissionError):
        return None
    return digest.hexdigest()


def _fields(policy):
    return {name: getattr(policy, name) for name in policy.__dataclass_fields__}


def _write_text(path, text):
    with tempfile.NamedTemporaryFile("w", dir=path.parent, prefix=f".{path.name}.", suffix=".tmp", delete=False,
                                     encoding="utf-8") as f:
        f.write(text)
    os.chmod(f.name, 0o644)
    os.replace(f.name, path)
