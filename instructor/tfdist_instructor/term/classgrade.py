"""Grade a class: downloads in, one row per roster student out (``grade --roster``).

Submissions are matched to the roster (``intake``) and graded under the students' ids, each
with a seed of its own (new, or replayed: ``--seed``/``--replay-seeds`` as for any grade; the
grader records it in ``scores.csv``), on this machine or as a Slurm job array (``slurm``); then
the exercise's policy and the hand-graded points make ``totals.csv``.
"""

from pathlib import Path

from tfdist_instructor.grading import grade_folder, notebook, seeds as seeding
from tfdist_instructor.term import intake as intake_, totals
from tfdist_instructor.term.policy import Policy


def grade_class(submissions, out, roster, exercise=None, timeout_s=600, jobs=1, sandboxed=True, only=None,
                seeds=None, hand=None, policy_dir=None, slurm=None):
    """Grade ``submissions`` for ``roster`` into ``out``; return (results, intake, totals rows).

    ``seeds``: None (new ones), one int, or ``{student id: seed}`` (e.g. a report's recorded seeds)."""
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
    chosen = {sid: _seed(seeds, sid) for sid in taken.matched}  # explicit: a Slurm task draws the same inputs
    if slurm is not None:
        results = slurm.grade(taken.files, chosen, out, exercise=exercise, timeout_s=timeout_s, sandboxed=sandboxed)
    else:
        results = grade_folder(None, out, timeout_s=timeout_s, exercise=exercise, jobs=jobs, sandboxed=sandboxed,
                               students=taken.files, seeds=chosen)
    rows = totals.totals(results, taken, roster, policy, hand_points)
    if only and (Path(out) / totals.TOTALS_FILE).is_file():  # a regrade of some: the others' totals stay
        rows = totals.merged(totals.read_totals(out), rows, set(only))
    totals.write_totals(rows, out)
    return results, taken, rows


def _seed(seeds, student):
    chosen = seeding.for_student(seeds, student)
    return seeding.new_seed() if chosen is None else chosen


def _exercise(taken):
    named = {notebook.named_exercise(c.path) for c in taken.matched.values()} - {None}
    if len(named) != 1:
        raise ValueError(f"the submissions name {len(named)} exercises ({', '.join(sorted(named)) or 'none'}): "
                         "give --exercise NAME")
    return named.pop()
