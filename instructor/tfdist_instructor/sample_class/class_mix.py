"""A realistic class of one exercise: mostly solutions, every planted mistake of the exercise,
answers that delegate to a course helper, broken notebooks of every kind (two of them from the
grading tests' fixtures), and hostile ones. Used by benchmarks/grading_throughput.py and its test
(tests/instructor/grading/test_throughput.py).
"""

import random
import re

import nbformat

from tfdist_instructor import REPO_ROOT, grading
from tfdist_instructor.sample_class.mistakes import LINK, MISTAKES, RING, SPLIT_BY_HELPER
from tfdist_instructor.sample_class.planting import planted, solution

EXERCISES = ["01_global_batch", "02_custom_loop", "05_ring_allreduce"]
DELEGATIONS = {"01_global_batch": {"split_batch": ("q4-answer", SPLIT_BY_HELPER)},
               "05_ring_allreduce": {"Link.all_reduce_s": ("q3-answer", LINK)}}
BROKEN = ["syntax error", "infinite loop", "renamed function", "deleted answer cell", "huge output",
          "untouched", "empty file", "a .py script"]
COUNTS = {"mistake": 6, "delegation": 4, "broken": 2, "hostile": 2}  # each, in a class of 150


def mistakes(exercise):
    """``{name: (cell, right, wrong)}``: the planted-mistake tables' entries for ``exercise``."""
    if exercise == RING["exercise"]:
        return {name: (m["cell"], *m["sub"]) for name, m in RING["mistakes"].items()}
    return {name: (cell, right, wrong) for name, (ex, cell, right, wrong, *_) in MISTAKES.items() if ex == exercise}


def mix(exercise, size=150):
    """The kinds of ``size`` submissions (solutions fill what the others leave), in a fixed order."""
    scale = size / 150
    kinds = [f"mistake: {m}" for m in mistakes(exercise) for _ in range(round(COUNTS["mistake"] * scale))]
    kinds += [f"delegation: {d}" for d in DELEGATIONS.get(exercise, {}) for _ in range(round(COUNTS["delegation"] * scale))]
    kinds += [f"broken: {b}" for b in BROKEN for _ in range(max(1, round(COUNTS["broken"] * scale)))]
    kinds += ["hostile"] * max(1, round(COUNTS["hostile"] * scale))
    return (kinds + ["solution"] * max(0, size - len(kinds)))[:size]


def submission(exercise, kind, folder):
    """``(suffix, text)`` of one submission of ``kind``; ``folder`` is where the class's report is not."""
    if kind == "solution":
        return ".ipynb", nbformat.writes(solution(exercise))
    if kind.startswith("mistake: "):
        return ".ipynb", nbformat.writes(planted(exercise, *mistakes(exercise)[kind[9:]]))
    if kind.startswith("delegation: "):
        cell, source = DELEGATIONS[exercise][kind[12:]]
        nb = solution(exercise)
        next(c for c in nb.cells if c.get("id") == cell).source = source
        return ".ipynb", nbformat.writes(nb)
    if kind == "hostile":
        return ".ipynb", nbformat.writes(_hostile(exercise, folder))
    return _broken(exercise, kind[8:])


def _broken(exercise, what):
    if what == "empty file":
        return ".ipynb", ""
    if what == "a .py script":
        return ".py", (REPO_ROOT / "tests/instructor/grading/fixtures/not_a_notebook.py").read_text()
    nb = nbformat.read(grading.EXERCISES_DIR / exercise / f"{exercise}.ipynb", as_version=4) \
        if what == "untouched" else solution(exercise)
    answers = [c for c in nb.cells if re.fullmatch(r"q\d+-answer", c.get("id", ""))]
    last = answers[-1]
    if what == "syntax error":
        last.source = re.sub(r"\):[ \t]*\n", ")\n", last.source, count=1)
    elif what == "infinite loop":
        last.source = "while True:\n    pass\n" + last.source
    elif what == "renamed function":
        last.source = re.sub(r"def (\w+)\(", r"def \1_renamed(", last.source, count=1)
    elif what == "deleted answer cell":
        nb.cells.remove(last)
    elif what == "huge output":
        nb.cells.insert(nb.cells.index(answers[0]) + 1, nbformat.v4.new_code_cell("print('x' * 3_000_000)"))
    return ".ipynb", nbformat.writes(nb)


def _hostile(exercise, folder):
    """The hostile test's first cell before the untouched exercise, aimed at a closed port."""
    cell = (REPO_ROOT / "tests/instructor/grading/fixtures/hostile_cell.py").read_text()
    token = random.randrange(10**9)
    for name, value in {"REPO": str(REPO_ROOT), "OUT": str(folder), "PORT": 9, "HOST": "127.0.0.1",
                        "TOKEN_NUMBER": str(400_000 + token % 10**5), "TOKEN": f"tfdist-hostile-{token}"}.items():
        cell = cell.replace(name, repr(value))
    nb = nbformat.read(grading.EXERCISES_DIR / exercise / f"{exercise}.ipynb", as_version=4)
    first = nbformat.v4.new_code_cell(cell)
    first["id"] = "hostile"
    nb.cells.insert(1, first)
    return nb
