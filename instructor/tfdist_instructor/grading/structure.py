"""What a submission changed in the notebook as handed out: deleted, moved, untouched cells.

Read from the cell ids of the handed-out notebook, without running anything.
"""

import re

from tfdist_instructor.grading.text import cell_label, natural

# Cells the student version holds only to run public checks: the grader probes every question itself.
CHECK_CELL = re.compile(r"""^\s*grader\.(check\(\s*["'](?P<q>\w+)["']\s*\)|check_all\(\)|export\(.*\))\s*$""")
# The cell that only sets up otter for those checks (comments, the import, the Notebook): the
# grader skips it too, as it does not need otter (whose import takes seconds).
OTTER_CELL = re.compile(r"""^(\s*#[^\n]*\n|\s*\n)*\s*import otter\s*\n(\s*\n)*\s*grader = otter\.Notebook\([^()\n]*\)\s*$""")


def problems(cells, original):
    """Deleted, moved and untouched answer cells of ``cells`` against the ``original`` cells."""
    given = [c for c in original if c.cell_type == "code" and not CHECK_CELL.match(c.source)]
    position = {c.get("id"): i for i, c in enumerate(cells) if c.get("id")}
    if not any(c.get("id") in position for c in given):
        return ["the notebook's cell ids were not kept, so deleted or moved cells cannot be named"]
    owners = answer_questions(original)

    def label(cell):
        q = owners.get(cell.get("id"))
        return f"{'the answer cell of ' + q + ' ' if q else 'the cell '}{cell_label(cell)}"

    found = []
    missing = [c for c in given if c.get("id") not in position]
    if missing:
        found.append("cells deleted: " + "; ".join(label(c) for c in missing))
    kept = [c for c in given if c.get("id") in position]
    for earlier, later in zip(kept, kept[1:]):
        if position[later.get("id")] < position[earlier.get("id")]:
            found.append(f"cells moved: {label(later)} now runs before {label(earlier)}")
            break
    submitted = {c.get("id"): c.source for c in cells}
    untouched = sorted({owners[c.get("id")] for c in kept if c.get("id") in owners
                        and submitted[c.get("id")] == c.source}, key=natural)
    if untouched:
        found.append("answer cells left as handed out: " + ", ".join(untouched))
    return found


def answer_questions(cells):
    """Map the id of each answer cell in the handed-out notebook to its question."""
    owners, pending = {}, []
    for cell in cells:
        if "otter_answer_cell" in cell.metadata.get("tags", []):
            pending.append(cell.get("id"))
        match = CHECK_CELL.match(cell.source) if cell.cell_type == "code" else None
        if match and match["q"]:
            owners.update((cid, match["q"]) for cid in pending)
            pending = []
    return owners
