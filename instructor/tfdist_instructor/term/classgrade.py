"""Grade a class: downloads in, one row per roster student out (``grade --roster``).

Submissions are matched to the roster (``intake``) and graded under the students' ids, each
with a seed of its own (new, or replayed: ``--seed``/``--replay-seeds`` as for any grade; the
grader records it in ``scores.csv``), on this machine or as a Slurm job array (``slurm``); then
the exercise's policy and the hand-graded points make ``totals.csv``. The report records the
policy and each file's submission time (``record``), so that a regrade judges as this grading did.
"""

from pathlib import Path

from tfdist_instructor.grading import GradeOptions, grade_files, notebook, report
from tfdist_instructor.term import intake as intake_, record, totals
from tfdist_instructor.term.policy import POLICY_DIR, Policy, check_folder


def grade_class(submissions, out, roster, options=GradeOptions(), hand=None, policy_dir=None, slurm=None):
    """Grade ``submissions`` for ``roster`` into ``out`` with the run's ``options`` (a
    ``GradeOptions``); return (results, intake, totals rows).

    Each student's seed is ``options.seed_for(id)`` (``--seed``, or the report's recorded seeds
    with ``--replay-seeds``), a new one for a student it gives none; the exercise is
    ``options.exercise`` or the one every matched file names. The class is graded with ``options``
    as it came; what the class settles (that exercise, new seeds) is handed down beside it. Into a
    report that already holds the class, only the students with a file in ``submissions`` (of
    ``options.only``, when given) get new rows, totals and unmatched entries; every other stays."""
    only = options.only
    taken = intake_.take_in(submissions, roster)
    if only:
        unknown = sorted(set(only) - set(roster.by_id))
        if unknown:
            raise ValueError(f"not in the roster: {', '.join(unknown)}")
        taken.keep_only(set(only))
    exercise = options.exercise or (_exercise(taken) if taken.matched else None)
    old = _class_report(out, exercise)
    folder = Path(policy_dir) if policy_dir else POLICY_DIR
    check_folder(folder, policy_dir)
    if exercise is not None:  # every check of the policy and the hand-graded points before any grading
        policy, said = record.choose_policy(out, exercise, Policy.for_exercise(exercise, folder), policy_dir)
        for line in said:
            print(line, flush=True)
        hand_points = totals.read_hand(hand, roster, exercise) if hand else {}
        strangers = [sid for sid, _ in policy.extensions if sid not in roster.by_id]
        if strangers:
            print(f"warning: the policy of {exercise} gives an extension to {', '.join(strangers)}, not in the "
                  "roster (a typo?): it applies to nobody", flush=True)
    intake_.write_unmatched(taken, submissions, out, whole_folder=not only)
    if not taken.matched:
        listed = Path(out) / intake_.UNMATCHED_FILE
        raise ValueError(f"no submission in {submissions} matches the roster (see {listed})")
    for line in record.settle_times(taken, out):  # each file judged by the time recorded for its content
        print(f"note: {line}", flush=True)
    if slurm is not None:  # the exercise every matched file names (_exercise), or options.exercise
        results = slurm.grade(taken.files, out, options, named=exercise)
    else:  # grade_files finds the same one among the same files
        results = grade_files(taken.files, out, options)
    rows = totals.totals(results, taken, roster, policy, hand_points)
    if old is not None:  # the class's report: only this run's students change
        rows = totals.merged(old, rows, set(taken.matched) | taken.held)
    totals.write_totals(rows, out)
    record.record_policy(out, policy, folder)
    _tell(results, rows, out)
    return results, taken, rows


def _class_report(out, exercise):
    """The totals rows already in ``out`` (None for a new report); ValueError for another exercise's."""
    if not (Path(out) / totals.TOTALS_FILE).is_file():
        return None
    old = totals.read_totals(out)
    theirs = {r["exercise"] for r in old} - {""}
    if exercise is not None and theirs and theirs != {exercise}:
        raise ValueError(f"{out} holds the totals of {', '.join(sorted(theirs))}, not {exercise}: "
                         "give each exercise a report folder of its own")
    return old


def _tell(results, rows, out):
    """Each graded student's total (the late penalty and hand-graded points in it) in their feedback
    and on the console."""
    by_id = {r["id"]: r for r in rows}
    for result in results:
        row = by_id.get(result.student)
        if row is None:
            continue
        how = totals.summary(row)
        if not row["total"]:  # not graded: the feedback says so, with no total
            (Path(out) / "feedback" / f"{result.student}.md").write_text(report.feedback(result, total=totals.when(row)))
            print(f"{result.student}: NO TOTAL ({how})", flush=True)
            continue
        (Path(out) / "feedback" / f"{result.student}.md").write_text(report.feedback(result, total=[
            f"Total: **{row['total']} / {row['possible']}** ({how})", *totals.when(row)]))
        print(f"{result.student}: total {row['total']} / {row['possible']} ({how})", flush=True)


def _exercise(taken):
    named = {notebook.named_exercise(c.path) for c in taken.matched.values()} - {None}
    if len(named) != 1:
        raise ValueError(f"the submissions name {len(named)} exercises ({', '.join(sorted(named)) or 'none'}): "
                         "give --exercise NAME")
    return named.pop()
