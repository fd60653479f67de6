"""What a student sees in a lesson cell: code they would write, never test machinery."""
import pathlib
import re

import nbformat
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
LESSONS = sorted(ROOT.glob("notebooks/*.ipynb"))
SOLUTIONS = sorted(ROOT.glob("solutions/*/*.ipynb"))
MAX_LINES = 40  # non-blank lines of one code cell, outside a %%writefile cell
# Solution cells still longer: otter assign makes solutions/ from grading/masters, so each is
# shortened in its master, not here, and leaves this list when it is (a test below says so).
LONG_SOLUTION_CELLS = {("03_svhn_capstone", "q2-answer")}
NBVAL_MARKER = re.compile(r"#\s*NBVAL_[A-Z_]+")
NBVAL_TAGS = {"nbval-check-output", "nbval-ignore-output", "nbval-skip", "nbval-raises-exception"}


def _code_cells(path):
    return [cell for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "code"]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_no_lesson_cell_source_holds_an_nbval_marker(lesson):
    marked = [i for i, cell in enumerate(_code_cells(lesson)) if NBVAL_MARKER.search(cell.source)]
    assert not marked, (f"{lesson.name}: code cells {marked} hold an nbval comment; put it in "
                        f"the cell's metadata.tags instead ({', '.join(sorted(NBVAL_TAGS))})")


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_every_lesson_keeps_its_output_checks_as_cell_tags(lesson):
    tagged = [cell for cell in _code_cells(lesson)
              if NBVAL_TAGS & set(cell.metadata.get("tags", []))]
    assert tagged, f"{lesson.name}: no cell is tagged for nbval, so nothing it prints is checked"


def _long_cells(cells):
    """(id, non-blank lines) of each code cell over MAX_LINES that is not a %%writefile cell."""
    counts = [(cell.get("id"), sum(1 for line in cell.source.splitlines() if line.strip()))
              for cell in cells
              if cell.cell_type == "code" and not cell.source.lstrip().startswith("%%writefile")]
    return [(cell_id, n) for cell_id, n in counts if n > MAX_LINES]


@pytest.mark.parametrize("notebook", LESSONS + SOLUTIONS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_lesson_or_solution_code_cell_outside_writefile_has_over_40_non_blank_lines(notebook):
    cells = nbformat.read(notebook, as_version=4).cells
    long = [(cell_id, n) for cell_id, n in _long_cells(cells)
            if notebook in LESSONS or (notebook.stem, cell_id) not in LONG_SOLUTION_CELLS]
    assert not long, (f"{notebook.relative_to(ROOT)}: code cells over {MAX_LINES} non-blank lines "
                      f"(id, lines): {long}; split each, definitions first, into cells a student can "
                      f"read at once (a script a cell writes belongs in a %%writefile cell)")


def test_every_solution_cell_let_past_the_40_line_limit_still_needs_it():
    solutions = {path.stem: path for path in SOLUTIONS}
    fixed = [(stem, cell_id) for stem, cell_id in sorted(LONG_SOLUTION_CELLS)
             if cell_id not in {i for i, _ in _long_cells(nbformat.read(solutions[stem], as_version=4).cells)}]
    assert not fixed, f"no longer over {MAX_LINES} lines, drop from LONG_SOLUTION_CELLS: {fixed}"


def test_the_line_count_skips_blank_lines_and_writefile_cells():
    code = nbformat.v4.new_code_cell
    cells = [code("x = 1\n\n" * 41), code("%%writefile long.py\n" + "x = 1\n" * 60),
             code("\n".join(["y = 2"] * 40)), code("\n".join(["z = 3"] * 41))]
    cells[0].id, cells[3].id = "blank-lines-between", "one-too-many"
    assert _long_cells(cells) == [("blank-lines-between", 41), ("one-too-many", 41)]
