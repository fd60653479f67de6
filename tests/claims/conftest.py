"""Claims tests: every sentence a lesson says about a result, checked on the run that printed it.

Each ``test_lessonNN_*.py`` reads the normal-mode executed copy of its lesson (what
``make test`` leaves in build/executed/notebooks/, or the folder ``TFDIST_EDU_CLAIMS_DIR``
names) and asserts each claim with a threshold matching the sentence, quoting the sentence
(``lesson.says(cell_id, sentence)`` fails when the prose no longer says it). ``make outputs``
runs them on the copy it is about to store and refuses a copy that fails them.
"""

import ast
import os
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]

# How ``tfdist_edu.timing.Paired`` prints a comparison after its "what: ": the verdict, then the
# typical ratio, its 95% interval and the pairs, e.g. "faster by 30% (1.30x, 95% interval
# 1.21x-1.42x, 8 pairs)." or "undecided (0.97x; 4 pairs are too few for a 95% interval, ...".
VERDICT = (r"(?P<verdict>faster|slower|within|undecided)(?: by \d+%| \d+%)? "
           r"\((?P<median>[\d.]+)x(?:, 95% interval (?P<low>[\d.]+)x-(?P<high>[\d.]+)x, "
           r"(?P<n>\d+) pairs|; (?P<few>\d+) pairs are too few for a 95% interval, which needs 6)\)")
PAIRED = r"^(?P<what>.+? vs .+?): " + VERDICT


def executed_dir():
    """Where the executed lessons are read from."""
    if os.environ.get("TFDIST_EDU_CLAIMS_DIR"):
        return Path(os.environ["TFDIST_EDU_CLAIMS_DIR"])
    return Path(os.environ.get("TFDIST_EDU_EXECUTED_DIR") or ROOT / "build" / "executed") / "notebooks"


class Lesson:
    """One executed lesson: its cells by id, their prose and printed text."""

    VERDICT = VERDICT

    def __init__(self, nb, path):
        self.nb, self.path = nb, path
        self.cells = {cell.get("id"): cell for cell in nb.cells}

    def cell(self, cell_id):
        if cell_id not in self.cells:
            raise KeyError(f"{self.path.name} has no cell with id {cell_id!r}")
        return self.cells[cell_id]

    def says(self, cell_id, sentence):
        """Assert the markdown cell still makes the claim this test checks (spaces normalised)."""
        prose = " ".join(self.cell(cell_id).source.split())
        assert " ".join(sentence.split()) in prose, f"cell {cell_id} no longer says: {sentence!r}"

    def text(self, cell_id):
        """Everything a code cell printed or displayed as text, joined."""
        parts = []
        for out in self.cell(cell_id).get("outputs", []):
            if out.get("output_type") == "stream" and out.get("name") == "stdout":
                parts.append(out.get("text", ""))
            elif "data" in out:
                data = out["data"]
                parts.append(data.get("text/markdown") or data.get("text/plain") or "")
        return "".join(parts)

    def number(self, cell_id, pattern):
        """The first regex group of ``pattern`` in the cell's text, as a float (commas dropped)."""
        match = re.search(pattern, self.text(cell_id))
        assert match, f"cell {cell_id} printed nothing matching {pattern!r}:\n{self.text(cell_id)[:800]}"
        return float(match.group(1).replace(",", ""))

    def numbers(self, cell_id, pattern):
        return [float(m.replace(",", "")) for m in re.findall(pattern, self.text(cell_id))]

    def list_after(self, cell_id, label):
        """The Python list the cell printed right after ``label`` on one line."""
        text = self.text(cell_id)
        match = re.search(re.escape(label) + r"\s*(\[[^\]]*\])", text)
        assert match, f"nothing printed after {label!r}:\n{text[:600]}"
        return ast.literal_eval(match.group(1))

    def paired_lines(self, cell_id, end="$"):
        """Every comparison the cell printed as ``timing.Paired`` prints one, in order: matches
        with the groups what, verdict, median, n, low, high; ``end`` is what follows on its line."""
        found = list(re.finditer(PAIRED + end, self.text(cell_id), re.M))
        assert found, f"cell {cell_id} printed no paired verdict:\n{self.text(cell_id)[:800]}"
        return found

    def paired(self, cell_id, what, end="$"):
        """The one comparison in the cell whose "what" starts with ``what``."""
        matches = [m for m in self.paired_lines(cell_id, end) if m["what"].startswith(what)]
        assert len(matches) == 1, f"cell {cell_id}: expected one verdict for {what!r}, got {matches}"
        return matches[0]

    def recomputes(self, found, baseline, other):
        """Assert that ``timing.paired`` on the printed times gives the printed comparison
        ``found`` (a match of ``paired``): its pairs, its typical ratio, and its verdict unless a
        rounded bound sits on an edge."""
        from tfdist_edu import verdict

        assert len(baseline) == len(other) == int(found["n"]), (len(baseline), len(other), found[0])
        recomputed = verdict.paired(baseline, other)
        assert abs(recomputed.median - float(found["median"])) <= 0.006, (str(recomputed), found[0])
        if self.interval_verdict(f"{recomputed.low:.2f}", f"{recomputed.high:.2f}") is not None:
            assert recomputed.verdict == found["verdict"], (str(recomputed), found[0])

    @staticmethod
    def interval_verdict(low, high, threshold=0.05):
        """The verdict the lessons teach for a printed 95% interval [low, high] of the typical
        ratio (``timing.Paired``): within the threshold when the interval lies inside it,
        faster or slower when it lies wholly above or below 1, undecided otherwise. Printed
        bounds are rounded to two decimals, so a bound within 0.005 of an edge decides nothing
        here: None."""
        low, high = float(low), float(high)
        edges = (1 / (1 + threshold), 1.0, 1 + threshold)
        if any(abs(bound - edge) < 0.006 for bound in (low, high) for edge in edges):
            return None
        if edges[0] <= low and high <= edges[2]:
            return "within"
        return "faster" if low > 1 else "slower" if high < 1 else "undecided"


@pytest.fixture
def lesson():
    """``lesson("04_performance")`` -> the executed ``Lesson``; skipped when there is none."""

    def load(stem):
        path = executed_dir() / f"{stem}.ipynb"
        if not path.exists():
            pytest.skip(f"no executed copy at {path}: run the lessons with nbval first (make test)")
        nb = nbformat.read(path, as_version=4)
        if nb.metadata.get("tfdist_edu", {}).get("run", {}).get("fast_mode"):
            pytest.skip(f"{path} ran in fast mode; the lessons' claims are about normal mode")
        return Lesson(nb, path)

    return load
