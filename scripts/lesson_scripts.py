"""One source for the scripts a lesson writes: the lesson's `%%writefile` cell is the source, and
the package's copy (what the tests, the benchmarks and the Slurm recipes run) is generated from
it, as d2l saves its `#@save` code from the chapter that defines it.

    python scripts/lesson_scripts.py           # fail, naming each copy that drifted from its cell
    python scripts/lesson_scripts.py --write   # regenerate every copy from its lesson

Edit the script in the lesson, run the lesson, then `--write`. Standard library only.
"""

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (lesson notebook, id of its %%writefile cell, the package's generated copy)
SCRIPTS = [
    ("notebooks/09_keras_distribution.ipynb", "l9-worker-script", "tfdist_edu/scripts/jax_fit.py"),
]


def header(notebook, cell_id):
    return (f"# Generated from the cell {cell_id!r} of {notebook} by scripts/lesson_scripts.py:\n"
            f"# edit the lesson, not this file.\n")


def from_lesson(notebook, cell_id):
    """The file a lesson's %%writefile cell writes, with the generated-from header."""
    cells = json.loads((ROOT / notebook).read_text())["cells"]
    found = [c for c in cells if c.get("id") == cell_id]
    if len(found) != 1:
        raise SystemExit(f"{notebook}: no single cell with id {cell_id!r}")
    first, _, body = "".join(found[0]["source"]).partition("\n")
    if not first.startswith("%%writefile "):
        raise SystemExit(f"{notebook}, cell {cell_id!r}: not a %%writefile cell")
    return header(notebook, cell_id) + body.rstrip("\n") + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="regenerate the package's copies")
    args = parser.parse_args(argv)
    drifted = []
    for notebook, cell_id, copy in SCRIPTS:
        wanted = from_lesson(notebook, cell_id)
        path = ROOT / copy
        if path.exists() and path.read_text() == wanted:
            continue
        if args.write:
            path.write_text(wanted)
            print(f"wrote {copy} from {notebook}")
        else:
            drifted.append(f"{copy} differs from the cell {cell_id!r} of {notebook}")
    if drifted:
        print("\n".join(drifted) + "\nrun: python scripts/lesson_scripts.py --write", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
