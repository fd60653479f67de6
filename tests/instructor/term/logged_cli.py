"""What the term's tests share to drive the instructor CLI as an instructor would and read what it wrote."""

import contextlib
import csv
import io

from tfdist_instructor import cli


def run_logged(log, argv):
    """``cli.main(argv)`` with what it printed (stdout and stderr) kept in ``log``; its exit code."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = cli.main(argv)
    log.write_text(out.getvalue())
    print(out.getvalue())
    return code


def csv_lines(path):
    """A CSV file's lines, as bytes, keyed by their first cell (the student)."""
    return {ln.split(b",", 1)[0]: ln for ln in path.read_bytes().splitlines()}


def csv_rows(path):
    """A CSV file's rows as dicts keyed by its header."""
    with open(path, newline="") as f:
        return list(csv.DictReader(f))
