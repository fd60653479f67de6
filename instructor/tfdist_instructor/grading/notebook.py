"""A submitted file, read without running it: rejected with a reason, or cleaned for the run."""

import copy
import json

from tfdist_instructor import REPO_ROOT
from tfdist_instructor.grading import catalog, structure
from tfdist_instructor.grading.text import short

EXERCISES_DIR = REPO_ROOT / "exercises"
MAX_NOTEBOOK_BYTES = 20_000_000  # a notebook for these exercises is well under 1 MB


class Rejected(Exception):
    """The file cannot be graded; the message says why and what to do."""


def named_exercise(path):
    """The exercise a notebook file names in its metadata, or None."""
    try:
        if path.is_file() and path.suffix == ".ipynb" and path.stat().st_size < MAX_NOTEBOOK_BYTES:
            name = json.loads(path.read_bytes())["metadata"]["otter"]["assignment_name"]
            return name if name in catalog.exercises() else None
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return None


def read(path, exercise=None):
    """``(exercise, cleaned notebook, structure problems)`` for ``path``; Rejected if ungradable."""
    import nbformat

    if path.is_dir():
        raise Rejected("a folder, not a notebook file: submit the .ipynb file itself")
    size = path.stat().st_size
    if size == 0 or not path.read_bytes().strip():
        raise Rejected("the file is empty: save the notebook (File > Save) and submit it again")
    if size > MAX_NOTEBOOK_BYTES:
        raise Rejected(f"the file is {size / 1e6:.0f} MB: clear all outputs and submit it again")
    try:
        nb = nbformat.reads(path.read_text(encoding="utf-8"), as_version=4)
        cells = list(nb.cells)
    except Exception as error:  # noqa: BLE001 - any parse failure means "not a notebook"
        kind = "a .py script" if path.suffix == ".py" else "not a Jupyter notebook"
        raise Rejected(f"{kind} ({type(error).__name__}: {short(error, 80)}): submit the .ipynb file") from None
    named = named_exercise(path)
    if exercise and named and named != exercise:
        raise Rejected(f"this is the notebook of exercise {named}, not of {exercise}")
    if not (exercise or named):
        raise Rejected("cannot tell which exercise this is (no otter assignment name in its metadata); "
                       "grade it with --exercise NAME")
    exercise = exercise or named
    return exercise, cleaned(nb), structure.problems(cells, handed_out(exercise).cells)


def handed_out(exercise):
    """The notebook of ``exercise`` as students get it."""
    import nbformat

    return nbformat.read(EXERCISES_DIR / exercise / f"{exercise}.ipynb", as_version=4)


def cleaned(nb):
    """A copy of ``nb`` ready to run: no outputs, no public-check cells (nor the cell that only
    sets up otter for them), a python3 kernel; each cell keeps the student's numbering in
    ``grader_index``, for feedback."""
    nb = copy.deepcopy(nb)
    kept = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            if structure.CHECK_CELL.match(cell.source) or structure.OTTER_CELL.match(cell.source):
                continue
            cell.outputs, cell.execution_count = [], None
        cell.metadata["grader_index"] = index + 1
        kept.append(cell)
    nb.cells = kept
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb
