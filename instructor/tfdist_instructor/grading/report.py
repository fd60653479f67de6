"""The class report: ``scores.csv`` and one ``feedback/<student>.md`` per submission."""

import csv
from pathlib import Path

from tfdist_instructor.grading.text import gist, natural


def write_report(results, out_dir):
    """Write ``scores.csv`` (one row per result) and ``feedback/<student>.md`` into ``out_dir``,
    plus ``written.md``: every written answer beside its rubric, for the instructor."""
    out_dir = Path(out_dir)
    (out_dir / "feedback").mkdir(parents=True, exist_ok=True)
    names = sorted({q for r in results for q in r.questions}, key=natural)
    with open(out_dir / "scores.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["student", "exercise", "score", "possible", "percent", "status", "reason",
                         *names, "seconds", "file"])
        for r in results:
            per_question = [f"{r.questions[q][0]:g}" if q in r.questions else "" for q in names]
            writer.writerow([r.student, r.exercise, f"{r.score:g}", f"{r.possible:g}", f"{r.percent:.0f}",
                             r.status, r.reason, *per_question, f"{r.seconds:.1f}", r.file])
    for r in results:
        (out_dir / "feedback" / f"{r.student}.md").write_text(feedback(r))
    (out_dir / "written.md").write_text(written_answers(results))


def feedback(result):
    """The Markdown feedback for one student: score, problems, and every test's outcome."""
    lines = [f"# Feedback: {result.student}", "",
             f"- Exercise: {result.exercise or 'unknown'}",
             f"- Score: **{result.score:g} / {result.possible:g}** ({result.status})",
             f"- File: `{result.file}`", ""]
    if result.problems:
        lines += ["## What the grader found", "", "(Cells are counted from the top, Markdown cells included.)", ""]
        lines += [f"- {p}" for p in result.problems] + [""]
    for question, (score, possible) in result.questions.items():
        lines += [f"## {question}: {score:g} / {possible:g}", ""]
        cases = [t for t in result.tests if t["question"] == question]
        lines += [_case_line(t) for t in cases] or ["- not graded: your notebook did not run this far"]
        lines.append("")
    for question, (answer, _) in result.written.items():
        lines += [f"## Your written answer ({question})", "", "Your instructor reads it and grades it by hand.", "",
                  *[f"> {ln}" for ln in answer.splitlines()], ""]
    return "\n".join(lines)


def _case_line(t):
    mark = "passed" if t["passed"] else "failed"
    if t["hidden"]:  # never the hidden test's message: it may quote the expected answer
        hint = "" if t["passed"] or not t["hint"] else f": {t['hint']}"
        return f"- hidden test ({t['points']:g} pt) {mark}{hint}"
    detail = "" if t["passed"] else ": " + gist(t["message"])
    return f"- public test ({t['points']:g} pt) {mark}{detail}"


def written_answers(results):
    """Every written answer with the rubric of its question, student by student."""
    lines = ["# Written answers, to grade by hand", ""]
    for r in results:
        for question, (answer, rubric) in r.written.items():
            lines += [f"## {r.student}: {r.exercise} {question}", "", "Rubric:", "", rubric.strip(), "",
                      "Answer:", "", *[f"> {ln}" for ln in answer.splitlines()], ""]
    return "\n".join(lines)
