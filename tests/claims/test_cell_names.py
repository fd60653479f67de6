"""The claims tests name the cells they read by ids that say what the cells hold, and every id
they name is a cell of its lesson.

An opaque id (eight hex digits, or cell-N) says nothing to a reader of the test and nothing to an
author moving cells; ``scripts/name_cells.py`` renames one everywhere at once, and names, once
given, do not change.

Which literals are cell ids. A claims test reads its lesson through the helpers of conftest.py
(``run.says(cell_id, ...)``, ``.text``, ``.number``, ``.numbers``, ``.list_after``, ``.paired``,
``.paired_lines``, ``.cell``) or through helpers of its own that take a ``cell_id`` parameter
(``pair(l4, cell_id, what)``); it also keeps ids in lists and compares them
(``COMPARING_CELLS``, ``order[at - 1] == ...``). So the ids are read from the test's syntax tree
in two ways, and both count: (1) every string literal shaped like this course's names,
``lNN-<what>``, wherever it stands; (2) the id argument of every call of those helpers, whatever
its shape (this catches the older names such as ``byhand-37b`` or ``tpu-questions``). An id
belongs to the lesson its ``lNN-`` prefix numbers, when a lesson has that number; otherwise (no
prefix, or the ``l34-`` names lessons 3 and 4 share) to the lesson the helper's receiver loads
(``lesson("04_performance").text(...)``) or, failing that, to the test file's own lesson,
``test_lessonNN_<stem>.py``. The ids are looked up in the lesson notebooks under notebooks/,
not in executed copies, so the check needs no run.
"""

import ast
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLAIMS = Path(__file__).resolve().parent
LESSONS = {path.stem: path for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))}
CLAIMS_TESTS = sorted(CLAIMS.glob("test_lesson[0-9][0-9]_*.py"))

OPAQUE = re.compile(r"""(["'])([0-9a-f]{8}|cell-\d+)\1""")
NAMED = re.compile(r"^l(\d\d)-[a-z0-9-]+$")
HELPERS = {"says", "text", "number", "numbers", "list_after", "paired", "paired_lines", "cell"}


def _readers_elsewhere():
    """Test files outside tests/claims that read a lesson notebook (they name its file)."""
    names = [path.name for path in LESSONS.values()]
    return sorted(path for path in (ROOT / "tests").rglob("*.py")
                  if CLAIMS not in path.parents and "__pycache__" not in path.parts
                  and any(name in path.read_text(encoding="utf-8") for name in names))


def _own_lesson(path):
    """``test_lesson04_performance.py`` -> ``04_performance``."""
    stem = path.stem.removeprefix("test_lesson")
    assert stem in LESSONS, f"{path.name} names no lesson under notebooks/"
    return stem


def _lesson_of(cell_id, receiver_lesson, own):
    match = NAMED.match(cell_id)
    if match:
        numbered = [stem for stem in LESSONS if stem.startswith(match[1] + "_")]
        if numbered:
            return numbered[0]
    return receiver_lesson or own


def _receiver_lesson(node):
    """The lesson a ``lesson("NN_stem")`` receiver loads, if the call's receiver is one."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "lesson"
            and node.args and isinstance(node.args[0], ast.Constant)
            and node.args[0].value in LESSONS):
        return node.args[0].value
    return None


def named_cells(path):
    """{(lesson stem, cell id): first line it is named on} for one claims test file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = _own_lesson(path)
    # the file's own helpers that take a cell id: function name -> position of that parameter
    own_helpers = {node.name: [a.arg for a in node.args.args].index("cell_id")
                   for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
                   and "cell_id" in [a.arg for a in node.args.args]}
    found = {}

    def add(cell_id, line, receiver=None):
        found.setdefault((_lesson_of(cell_id, receiver, own), cell_id), line)

    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and NAMED.match(node.value):
            add(node.value, node.lineno)
        if not isinstance(node, ast.Call):
            continue
        position, receiver = None, None
        if isinstance(node.func, ast.Attribute) and node.func.attr in HELPERS:
            position, receiver = 0, _receiver_lesson(node.func.value)
        elif isinstance(node.func, ast.Name) and node.func.id in own_helpers:
            position = own_helpers[node.func.id]
        if position is not None and len(node.args) > position:
            argument = node.args[position]
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                add(argument.value, argument.lineno, receiver)
    return found


def _ids(stem):
    return {cell.get("id") for cell in json.loads(LESSONS[stem].read_text(encoding="utf-8"))["cells"]}


@pytest.mark.parametrize("path", CLAIMS_TESTS + sorted(CLAIMS.glob("conftest.py")) + _readers_elsewhere(),
                         ids=lambda path: str(path.relative_to(ROOT / "tests")))
def test_no_test_names_a_lesson_cell_by_an_opaque_id(path):
    opaque = [f"line {text.count(chr(10), 0, m.start()) + 1}: {m[0]}"
              for text in [path.read_text(encoding="utf-8")] for m in OPAQUE.finditer(text)]
    assert not opaque, (f"{path.name} names cells by opaque ids; give each a name that says what "
                        f"it holds (scripts/name_cells.py): {opaque}")


@pytest.mark.parametrize("path", CLAIMS_TESTS, ids=lambda path: path.name)
def test_every_cell_a_claims_test_names_is_a_cell_of_its_lesson(path):
    found = named_cells(path)
    assert found, f"no cell ids found in {path.name}: has the way it names cells changed?"
    ids = {stem: _ids(stem) for stem in {stem for stem, _ in found}}
    missing = [f"{stem}: {cell_id!r} (line {line})" for (stem, cell_id), line in sorted(found.items())
               if cell_id not in ids[stem]]
    assert not missing, f"{path.name} names cells its lessons do not have: " + "; ".join(missing)


def test_the_id_reader_finds_ids_in_helper_calls_lists_and_comparisons(tmp_path):
    """The reader above, on a small file written the ways the claims tests name cells."""
    path = tmp_path / "test_lesson04_performance.py"
    path.write_text(
        'CELLS = ["l04-timed", "l04-grid-compare"]\n'
        "def pair(l4, cell_id, what):\n"
        "    return l4.paired(cell_id, what)\n"
        "def test(l4, lesson):\n"
        '    l4.says("byhand-07", "a sentence, not an id")\n'
        '    pair(l4, "l34-jit-md", "what")\n'
        '    lesson("06_tpu").text("tpu-questions")\n'
        '    assert order[0] == "l06-spe-table"\n')
    assert set(named_cells(path)) == {
        ("04_performance", "l04-timed"), ("04_performance", "l04-grid-compare"),
        ("04_performance", "byhand-07"), ("04_performance", "l34-jit-md"),
        ("06_tpu", "tpu-questions"), ("06_tpu", "l06-spe-table")}
