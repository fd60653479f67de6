"""Each lesson ends with 3-5 check-your-understanding questions, answers folded until opened,
and links to its graded exercise that lead to a real notebook."""
import pathlib
import re

import nbformat
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
HEADING = "## Check your understanding"
# Lessons whose questions are written; the others get theirs in their own branches.
WITH_QUESTIONS = {"00_start_here", "01_default_and_one_device", "02_mirrored_fit"}
QUESTION = re.compile(r"^\d+\. ", re.M)
FOLDED = "<details><summary>Answer</summary>"
LINK = re.compile(r"\]\((\.\./[^)]+\.ipynb)\)")
COLAB_LINK = re.compile(r"colab\.research\.google\.com/github/[^/]+/[^/]+/blob/[^/]+/([^)\s]+\.ipynb)")


def _questions(lesson):
    """The source of the lesson's questions cell, or None when it has none."""
    cells = [c for c in nbformat.read(lesson, as_version=4).cells
             if c.cell_type == "markdown" and c.source.lstrip().startswith(HEADING)]
    return cells[0].source if cells else None


@pytest.mark.parametrize("name", sorted(WITH_QUESTIONS))
def test_the_lessons_with_questions_keep_them_as_their_last_cell(name):
    nb = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    assert nb.cells[-1].source.lstrip().startswith(HEADING), f"{name}: the last cell is not {HEADING!r}"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_questions_are_three_to_five_each_with_a_folded_answer(lesson):
    text = _questions(lesson)
    if text is None:
        pytest.skip(f"{lesson.stem} has no questions yet")
    asked, folded = len(QUESTION.findall(text)), text.count(FOLDED)
    assert 3 <= asked <= 5, f"{lesson.stem}: {asked} questions, not 3-5"
    assert folded == asked, f"{lesson.stem}: {asked} questions but {folded} folded answers"
    assert text.count("</details>") == folded, f"{lesson.stem}: an answer's <details> is not closed"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_every_exercise_link_under_the_questions_leads_to_a_notebook(lesson):
    text = _questions(lesson)
    if text is None:
        pytest.skip(f"{lesson.stem} has no questions yet")
    targets = [(lesson.parent / link).resolve() for link in LINK.findall(text)]
    targets += [ROOT / path for path in COLAB_LINK.findall(text)]
    assert targets, f"{lesson.stem}: no link to a graded exercise"
    missing = [str(t.relative_to(ROOT)) for t in targets if not t.is_file()]
    assert not missing, f"{lesson.stem}: links to missing notebooks {missing}"
