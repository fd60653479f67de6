"""How long a lesson takes: reading at a stated pace plus computing, as measured.

The computing time is the sum of the lesson's cells in the normal-mode run whose outputs the
lesson stores (``make outputs``). Reading is counted from the lesson's own text: prose at
``WORDS_PER_MINUTE`` and code at ``CODE_LINES_PER_MINUTE``. ``make outputs`` writes the result
into the lesson's "Time:" line; ``scripts/lesson_times.py`` prints the table the instructor
guide uses.
"""

import math
import re

WORDS_PER_MINUTE = 200  # prose, read with attention
CODE_LINES_PER_MINUTE = 15  # code, read so as to follow it
TIME_LINE = re.compile(r"^Time: .*$", re.M)


def reading_minutes(nb):
    """Minutes to read a notebook's prose and code at the stated paces."""
    words = sum(len(re.findall(r"\w+", _prose(cell.source))) for cell in nb.cells
                if cell.cell_type == "markdown")
    code = sum(1 for cell in nb.cells if cell.cell_type == "code"
               for line in cell.source.splitlines() if line.strip() and not line.lstrip().startswith("#"))
    return words / WORDS_PER_MINUTE + code / CODE_LINES_PER_MINUTE


def _prose(text):
    """The text a student reads: without the lines the tooling writes (time, outputs label)."""
    return "\n".join(line for line in text.splitlines()
                     if not line.startswith(("Time: ", "**Outputs shown**")))


def estimate(nb, compute_seconds):
    """(reading, computing, total) in whole minutes, the total rounded up to 5 minutes."""
    reading, computing = reading_minutes(nb), compute_seconds / 60
    total = 5 * math.ceil((reading + computing) / 5)
    return math.ceil(reading), math.ceil(computing), total


def time_line(nb, compute_seconds, machine):
    """The lesson header's "Time:" line, from the measurement."""
    reading, computing, total = estimate(nb, compute_seconds)
    return (f"Time: about {total} minutes: {reading} to read (at {WORDS_PER_MINUTE} words and "
            f"{CODE_LINES_PER_MINUTE} code lines a minute) and {computing} of computing, measured "
            f"in normal mode on {machine.split(' (')[0]}.")


def rewrite_time_line(nb, compute_seconds, machine):
    """Replace the "Time:" line in the lesson's first cell (or add one)."""
    first = nb.cells[0]
    line = time_line(nb, compute_seconds, machine)
    if TIME_LINE.search(first.source):
        first.source = TIME_LINE.sub(lambda _: line, first.source, count=1)
    else:
        first.source += "\n\n" + line
