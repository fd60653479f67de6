"""Print the term plan and how long each lesson and exercise takes, as measured.

    .venv/bin/python scripts/lesson_times.py                                  # print the tables
    .venv/bin/python scripts/lesson_times.py --write docs/instructor-guide.md # and put them in the guide

Lesson minutes: reading at a stated pace plus the compute of the normal-mode run whose outputs
the lessons store; exercise minutes: their solutions' compute in the same run
(docs/measured-times.json). Both are made by `make test`, then `make outputs`, on the machine
the tables name. `--write` replaces only what lies between the guide's term-plan markers.
"""
import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "instructor"))
from tfdist_instructor.outputs import term_plan  # noqa: E402


def main(argv=None, root=ROOT):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", type=pathlib.Path, metavar="GUIDE",
                        help="replace the term plan between the markers in this Markdown file")
    args = parser.parse_args(argv)
    block = term_plan.tables(root)
    print(block, end="")
    if args.write:
        try:
            text = args.write.read_text()
            args.write.write_text(term_plan.replace_block(text, block))
        except (OSError, ValueError) as error:
            parser.exit(2, f"lesson_times.py: cannot write the term plan into {args.write}: {error}\n")
        print(f"\nwrote the term plan into {args.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
