"""The class report: ``scores.csv``, one ``feedback/<student>.md`` per submission, ``written.md``."""

from pathlib import Path

from tfdist_instructor.grading import scores
from tfdist_instructor.grading.text import gist, natural


def write_report(results, out_dir):
    """Put ``results`` into the report in ``out_dir``: their rows of ``scores.csv`` (merged with
    the rows of other students already there, see :mod:`scores`), their ``feedback/<student>.md``
    and ``written/<student>.md``, and ``written.md``: every written answer of the class beside
    its rubric, for the instructor."""
    out_dir = Path(out_dir)
    (out_dir / "feedback").mkdir(parents=True, exist_ok=True)
    if any(r.written for r in results):  # an exercise without a written answer gets no empty folder
        (out_dir / "written").mkdir(exist_ok=True)
    scores.merge(out_dir, [scores.row(r) for r in results])
    for r in results:
        (out_dir / "feedback" / f"{r.student}.md").write_text(feedback(r))
        page = out_dir / "written" / f"{r.student}.md"
        if r.written:
            page.write_text(written_answers([r], title=False))
        else:
            page.unlink(missing_ok=True)
    pages = sorted((out_dir / "written").glob("*.md"), key=lambda p: natural(p.stem))
    if pages:  # an exercise without a written answer gets no empty page to read
        (out_dir / "written.md").write_text("\n".join(["# Written answers, to grade by hand", "",
                                                       *[p.read_text() for p in pages]]))
    else:
        (out_dir / "written.md").unlink(missing_ok=True)


def feedback(result, total=None):
    """The Markdown feedback for one student: score, problems, and every test's outcome; ``total``
    (lines from the term's totals: hand-graded points, the late penalty, the total) under the score."""
    score = "Automatic score" if total else "Score"
    shown = f"**{result.score:g} / {result.possible:g}** ({result.status})" if result.graded else \
        "**not graded** (the grader failed, not your notebook: it will be graded again)"
    lines = [f"# Feedback: {result.student}", "",
             f"- Exercise: {result.exercise or 'unknown'}",
             f"- {score}: {shown}",
             *[f"- {line}" for line in total or ()],
             f"- File: `{result.file}`",
             f"- Inputs: drawn from seed {result.seed} (grading again with this seed replays them)", ""]
    if result.problems:
        lines += ["## What the grader found", "", "(Cells are counted from the top, Markdown cells included.)", ""]
        lines += [f"- {p}" for p in result.problems] + [""]
    for question, (score, possible) in result.questions.items() if result.graded else ():
        lines += [f"## {question}: {score:g} / {possible:g}", ""]
        cases = [t for t in result.tests if t["question"] == question]
        lines += [_case_line(t) for t in cases] or ["- not graded: your notebook did not run this far"]
        lines.append("")
    for question, (answer, _) in result.written.items():
        lines += [f"## Your written answer ({question})", "", "Your instructor reads it and grades it by hand.", "",
                  *[f"> {ln}" for ln in answer.splitlines()], ""]
    return "\n".join(lines)


def _case_line(t):
    """A case's line. A failed case says what its check measured and the likely mistake (its
    diagnosis) when it has one; a hidden case never shows its message (it may quote the
    expected answer), only its diagnosis and hint."""
    kind = "hidden" if t["hidden"] else "public"
    if t["passed"]:
        return f"- {kind} test ({t['points']:g} pt) passed"
    said = [t.get("diagnosis")] + ([t["hint"]] if t["hidden"] else [gist(t["message"])])
    said = [s for s in said if s]
    return f"- {kind} test ({t['points']:g} pt) failed" + (": " + "; ".join(said) if said else "")


def written_answers(results, title=True):
    """Every written answer with the rubric of its question, student by student."""
    lines = ["# Written answers, to grade by hand", ""] if title else []
    for r in results:
        for question, (answer, rubric) in r.written.items():
            lines += [f"## {r.student}: {r.exercise} {question}", "", "Rubric:", "", rubric.strip(), "",
                      "Answer:", "", *[f"> {ln}" for ln in answer.splitlines()], ""]
    return "\n".join(lines)
