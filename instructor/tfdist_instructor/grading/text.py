"""Short texts for reports: shortened messages, the informative line of an error, cell labels."""

import re

TEXT_LIMIT = 300  # characters of an error message or test output quoted in feedback


def short(text, limit=TEXT_LIMIT):
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def gist(text):
    """TensorFlow's status line when there is one (``INVALID_ARGUMENT: Incompatible shapes
    ...``), else the last line."""
    lines = [ln.strip() for ln in str(text).splitlines() if ln.strip()]
    status = [ln for ln in lines if re.search(r"\b[A-Z]+_[A-Z_]+: ", ln)]
    return short(status[0] if status else (lines[-1] if lines else ""))


def cell_label(cell):
    """A cell's first line of code, in backticks."""
    lines = [ln.strip() for ln in cell.source.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    return f"`{short(lines[0] if lines else cell.source.strip(), 50)}`"


def natural(name):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]
