"""What the run says about the student's cells: where it was stopped, which cell raised, whose
output was dropped; cells named by their number and first line, from the grader's own copy."""

from tfdist_instructor.grading.text import cell_label, gist, short

OUTPUT_LIMIT_BYTES = 2_000_000  # outputs kept per graded notebook; the rest is dropped


def where(running, nb):
    """"cell 5 (`label`)" for a log's "cell 5", from the grader's own copy of the notebook."""
    labels = {f"cell {c.metadata['grader_index']}": cell_label(c) for c in nb.cells}
    return f"{running} ({labels[running]})" if running in labels else (running or "the notebook")


def problems(cells, nb):
    """Cells cut at the time limit, the first cell that raised, the first one whose output was dropped."""
    labels = {c.metadata["grader_index"]: cell_label(c) for c in nb.cells}
    found, raised = [], []
    for c in cells:
        index, error = c.get("index"), c.get("error") or {}
        where = f"cell {index} ({labels.get(index, '?')})"
        if error.get("ename") == "KeyboardInterrupt":
            found.append(f"{where} was stopped at the per-cell time limit (an infinite loop?)")
        elif error:
            raised.append(f"{where} raised {short(error.get('ename'), 60)}: {gist(error.get('evalue'))}")
    if raised:
        more = f"; {len(raised) - 1} later cell(s) failed too" if len(raised) > 1 else ""
        found.append(raised[0] + more)
    truncated = [c.get("index") for c in cells if c.get("truncated")]
    if truncated:  # once over the budget every later output is dropped too: name the first cell
        found.append(f"output over {OUTPUT_LIMIT_BYTES // 1_000_000} MB was dropped from cell {truncated[0]} "
                     f"({labels.get(truncated[0], '?')}) on: print less")
    return found
