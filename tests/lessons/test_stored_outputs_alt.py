"""Every figure stored in a lesson shows its alt text in nbconvert's HTML (and so on GitHub and
Colab, which render the same ``text/html`` output): not nbconvert's placeholder, and the same
words as the figure's ``alt`` metadata. Lessons stored before figures carried their HTML fail
here until ``make outputs`` refreshes them."""
import html as html_text
import pathlib
import re

import nbformat
import pytest
from nbconvert import HTMLExporter

LESSONS = sorted(pathlib.Path(__file__).resolve().parents[2].glob("notebooks/[0-9][0-9]_*.ipynb"))
PLACEHOLDER = "No description has been provided for this image"


def _with_figures(lesson):
    nb = nbformat.read(lesson, as_version=4)
    return nb, [(index, out) for index, cell in enumerate(nb.cells) if cell.cell_type == "code"
                for out in cell.outputs if "image/png" in out.get("data", {})]


@pytest.mark.parametrize("lesson", [p for p in LESSONS if _with_figures(p)[1]], ids=lambda p: p.stem)
def test_nbconvert_shows_every_stored_figure_with_its_alt_text(lesson):
    nb, figures = _with_figures(lesson)
    wanted = [(index, out.get("metadata", {}).get("image/png", {}).get("alt", "")) for index, out in figures]
    cells = [cell for cell in nb.cells if cell.cell_type == "code"
             and any("image/png" in out.get("data", {}) for out in cell.outputs)]
    only_figures = nbformat.v4.new_notebook(cells=cells)  # no badge or picture of the prose
    html, _ = HTMLExporter().from_notebook_node(only_figures)
    shown = [re.search(r'alt="([^"]*)"', tag) for tag in re.findall(r"<img\b[^>]*>", html)]
    shown = [html_text.unescape(m.group(1)) if m else "" for m in shown]
    wrong = [f"cell {index}" for (index, alt), got in zip(wanted, shown + [""] * len(wanted))
             if not alt or got != alt or got == PLACEHOLDER]
    assert len(shown) == len(wanted) and not wrong, (
        f"{lesson.name}: {len(wanted)} stored figure(s), {len(shown)} <img> in nbconvert's HTML; "
        f"without their alt text: {', '.join(wrong)}. Refresh the outputs with `make outputs`.")
