"""Print how long each lesson takes: reading at a stated pace, plus computing as measured.

    .venv/bin/python scripts/lesson_times.py

The computing minutes are those of the normal-mode run whose outputs the lessons store
(`make test`, then `make outputs`), on the machine each lesson names. The instructor guide's
term plan is this table.
"""
import pathlib
import sys

import nbformat

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "instructor"))
from tfdist_instructor import lesson_time  # noqa: E402


def main():
    print(f"Reading at {lesson_time.WORDS_PER_MINUTE} words and {lesson_time.CODE_LINES_PER_MINUTE} "
          f"code lines a minute; computing as measured in normal mode.\n")
    print(f"| lesson | read (min) | compute (min) | total (min) | measured on |")
    print("| --- | --- | --- | --- | --- |")
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        stored = nb.metadata.get("tfdist_edu", {}).get("stored_outputs")
        if not stored:
            print(f"| {path.stem} | - | - | - | no stored run: `make test`, then `make outputs` |")
            continue
        reading, computing, total = lesson_time.estimate(nb, stored["compute_seconds"])
        print(f"| {path.stem} | {reading} | {computing} | {total} | {stored['machine']}, {stored['date']} |")


if __name__ == "__main__":
    main()
