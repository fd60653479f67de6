"""Planted mistakes: a reference solution with one substitution in one answer cell, graded for real.

Shared by the grading tests (tests/instructor/grading/: test_mistakes.py and
test_planted_mistakes_ring.py print the table under pytest -s) and benchmarks/term_walkthrough.py,
as is the fork bomb that test_sandbox_slots.py and the walkthrough grade beside a class.
"""

import nbformat

from tfdist_instructor import REPO_ROOT, grading


def solution(exercise):
    return nbformat.read(REPO_ROOT / "solutions" / exercise / f"{exercise}.ipynb", as_version=4)


def fork_bomb(exercise, token, wait_s):
    """The solution of ``exercise`` with a cell inserted after its first that starts about 500
    ``sleep <token>`` processes (about a uid's process limit: what a fork bomb spends) and then
    waits ``wait_s`` seconds, so they live while something else is graded."""
    nb = solution(exercise)
    nb.cells.insert(1, nbformat.v4.new_code_cell(
        "import subprocess, time\n"
        "sleepers = []\n"
        "for _ in range(500):\n"
        "    try:\n"
        f"        sleepers.append(subprocess.Popen(['sleep', {token!r}]))\n"
        "    except OSError:  # the uid's process limit reached\n"
        "        break\n"
        f"time.sleep({wait_s})\n"))
    return nb


def planted(exercise, cell_id, right, wrong):
    """The solution of ``exercise`` with ``right`` (found once) replaced by ``wrong`` in cell ``cell_id``."""
    nb = solution(exercise)
    cell = next(c for c in nb.cells if c.get("id") == cell_id)
    assert cell.source.count(right) == 1, (cell_id, right)
    cell.source = cell.source.replace(right, wrong)
    return nb


def lost_in(result):
    """The questions where ``result`` lost points."""
    return [q for q, (s, p) in result.questions.items() if s < p]


def grade_planted(tmp_path_factory, notebooks, timeout_s):
    """Grade ``{name: notebook}`` in one folder, two at a time, and print the score table.

    Returns ``({name: GradeResult}, report folder)``. Files are numbered, not named: names are
    free text.
    """
    folder, out = tmp_path_factory.mktemp("planted"), tmp_path_factory.mktemp("planted-report")
    names = {}
    for i, (name, nb) in enumerate(notebooks.items()):
        nbformat.write(nb, folder / f"planted_{i}.ipynb")
        names[f"planted_{i}"] = name
    options = grading.GradeOptions(timeout_s=timeout_s, jobs=2)
    results = {names[r.student]: r for r in grading.grade_folder(folder, out, options)}
    print("\n| planted mistake | exercise | score | lost in |\n| --- | --- | --- | --- |")
    for name in notebooks:
        result = results[name]
        print(f"| {name} | {result.exercise} | {result.score:g} / {result.possible:g} | {', '.join(lost_in(result))} |")
    return results, out


def assert_diagnosed(result, out, patterns):
    """Each regular expression in ``patterns`` is found in the student's feedback file and in the
    diagnosis column of their row of the instructor's scores.csv."""
    import csv
    import re

    feedback = (out / "feedback" / f"{result.student}.md").read_text()
    with open(out / "scores.csv", newline="") as f:
        row = next(r for r in csv.DictReader(f) if r["student"] == result.student)
    for pattern in patterns:
        assert re.search(pattern, feedback), (pattern, feedback)
        assert re.search(pattern, row["diagnosis"]), (pattern, row["diagnosis"])
