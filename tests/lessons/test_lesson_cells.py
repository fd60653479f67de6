"""What a student sees in a lesson cell: code they would write, never test machinery."""
import pathlib
import re

import nbformat
import pytest

LESSONS = sorted(pathlib.Path(__file__).resolve().parents[2].glob("notebooks/*.ipynb"))
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
