"""Grade a class: downloads in, one row per roster student out (``grade --roster``).

Submissions are matched to the roster (``intake``), graded with one seed per student (drawn here
and recorded in ``seeds.csv``, or replayed from a former run's ``seeds.csv``), on this machine
or as a Slurm job array (``slurm``), then the exercise's policy and the hand-graded points make
``totals.csv``.
"""

import csv
import secrets
from pathlib import Path

from tfdist_instructor.grading import grade_folder, notebook
from tfdist_instructor.term import intake as intake_, totals
from tfdist_instructor.term.policy import Policy

SEEDS_FILE = "seeds.csv"


def grade_class(submissions, out, roster, exercise=None, timeout_s=600, jobs=1, sandboxed=True, only=None,
                seeds_from=None, hand=None, policy_dir=None, slurm=None):
    """Grade ``submissions`` for ``roster`` into ``out``; return (results, intake, totals rows)."""
    taken = intake_.take_in(submissions, roster)
    if only:
        unknown = sorted(set(only) - set(roster.by_id))
        if unknown:
            raise ValueError(f"not in the roster: {', '.join(unknown)}")
        taken.matched = {sid: c for sid, c in taken.matched.items() if sid in only}
    intake_.write_unmatched(taken, submissions, out)
    if not taken.matched:
        listed = Path(out) / intake_.UNMATCHED_FILE
        raise ValueError(f"no submission in {submissions} matches the roster (see {listed})")
    exercise = exercise or _exercise(taken)
    policy = Policy.for_exercise(exercise, **({"folder": policy_dir} if policy_dir else {}))
    hand_points = totals.read_hand(hand, roster, exercise) if hand else {}
    seeds = _seeds(taken, seeds_from)
    write_seeds(seeds, taken, out, keep=read_seeds(Path(out) / SEEDS_FILE, with_files=True) if only else {})
    files = taken.files
    by_path = {claim.path: seeds[sid] for sid, claim in taken.matched.items()}
    if slurm is not None:
        results = slurm.grade(files, by_path, out, exercise=exercise, timeout_s=timeout_s, sandboxed=sandboxed)
    else:
        results = grade_folder(submissions, out, timeout_s=timeout_s, exercise=exercise, jobs=jobs,
                               sandboxed=sandboxed, students=files, seeds=by_path)
    rows = totals.totals(results, taken, roster, policy, hand_points)
    if only and (Path(out) / totals.TOTALS_FILE).is_file():  # a regrade of some: the others' totals stay
        rows = totals.merged(totals.read_totals(out), rows, set(only))
    totals.write_totals(rows, out)
    return results, taken, rows


def _exercise(taken):
    named = {notebook.named_exercise(c.path) for c in taken.matched.values()} - {None}
    if len(named) != 1:
        raise ValueError(f"the submissions name {len(named)} exercises ({', '.join(sorted(named)) or 'none'}): "
                         "give --exercise NAME")
    return named.pop()


def _seeds(taken, seeds_from):
    """A seed per matched student: recorded ones from ``seeds_from``, new ones for the rest."""
    if seeds_from and not Path(seeds_from).is_file():
        raise FileNotFoundError(f"no seeds file at {seeds_from}")
    recorded = read_seeds(seeds_from) if seeds_from else {}
    missing = sorted(set(taken.matched) - set(recorded)) if seeds_from else []
    if missing:
        raise ValueError(f"{seeds_from} records no seed for {', '.join(missing)}")
    return {sid: recorded.get(sid, secrets.randbits(63)) for sid in taken.matched}


def write_seeds(seeds, taken, out, keep=None):
    """``seeds.csv``: this run's seeds, and ``keep`` (former rows) for the students not regraded."""
    path = Path(out) / SEEDS_FILE
    rows = {sid: (seed, file) for sid, (seed, file) in (keep or {}).items() if sid not in seeds}
    rows.update({sid: (seed, taken.matched[sid].path.name) for sid, seed in seeds.items()})
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["student", "seed", "file"])
        writer.writerows([sid, seed, file] for sid, (seed, file) in sorted(rows.items()))
    return path


def read_seeds(path, with_files=False):
    """``{student: seed}`` recorded by a former run (``with_files``: ``{student: (seed, file)}``);
    nothing when there is no such file yet."""
    if not Path(path).is_file():
        return {}
    with open(path, newline="") as f:
        return {r["student"]: (int(r["seed"]), r["file"]) if with_files else int(r["seed"]) for r in csv.DictReader(f)}
