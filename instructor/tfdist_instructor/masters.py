"""Exercises from their masters: ``grading/masters/NN_name.ipynb`` is the one source an
instructor edits; ``otter assign`` turns it into the student version in ``exercises/`` and the
reference solution with every test in ``solutions/``.

``regenerate()`` rebuilds both folders; ``regenerate(check=True)`` only lists files that differ,
so a test fails when someone edits a generated file instead of its master.
"""

import subprocess
import sys
import tempfile
from pathlib import Path

from tfdist_instructor import REPO_ROOT
from tfdist_instructor.grading import CHECK_CELL


def regenerate(check=False, root=REPO_ROOT):
    """Rebuild ``exercises/`` and ``solutions/`` from ``grading/masters`` with ``otter assign``.

    Returns the paths (relative to ``root``) that were written, or with ``check=True`` the
    paths whose committed content differs from what the masters give (nothing is written);
    an empty list means no drift.
    """
    root = Path(root)
    masters = sorted((root / "grading" / "masters").glob("[0-9][0-9]_*.ipynb"))
    if not masters:
        raise FileNotFoundError(f"no master notebooks in {root / 'grading' / 'masters'}")
    changed = []
    with tempfile.TemporaryDirectory(prefix="tfdist-assign-") as tmp:
        outs = [Path(tmp, master.stem) for master in masters]
        _otter_assign(masters, outs)
        for master, out in zip(masters, outs):
            generated = {
                f"exercises/{master.stem}": out / "student",
                f"solutions/{master.stem}": out / "autograder",
            }
            for target, source in generated.items():
                changed += _sync(source, root / target, check, keep=("*.ipynb", "tests/*.py"))
    return [str(Path(p).relative_to(root)) for p in changed]


def _sync(source, target, check, keep):
    """Make ``target`` hold exactly the files of ``source`` matching ``keep``; return changed paths."""
    wanted = {p.relative_to(source): _normalised_bytes(p) for pattern in keep for p in source.glob(pattern)}
    present = {p.relative_to(target) for pattern in keep for p in target.glob(pattern)}
    changed = []
    for rel in sorted(set(wanted) | present):
        path = target / rel
        if rel in wanted and path.exists() and path.read_bytes() == wanted[rel]:
            continue
        changed.append(path)
        if check:
            continue
        if rel in wanted:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(wanted[rel])
        else:
            path.unlink()
    return changed


def _normalised_bytes(path):
    """File bytes with otter's random ids of generated cells replaced by stable ones."""
    if path.suffix != ".ipynb":
        return path.read_bytes()
    import nbformat

    nb = nbformat.read(path, as_version=4)
    for i, cell in enumerate(nb.cells):
        match = CHECK_CELL.match(cell.source) if cell.cell_type == "code" else None
        if match:
            cell["id"] = f"check-{match['q'] or i}"
    return (nbformat.writes(nb) + "\n").encode()


# Runs ``otter assign`` through otter's command line once per (master, result) pair of its
# arguments, all in one process: otter's imports take most of an assign's time (~4 s of ~7 s).
_ASSIGN_EACH = """
import sys
import traceback
from otter.cli import cli
for master, result in zip(sys.argv[1::2], sys.argv[2::2]):
    try:
        cli.main(["assign", "--no-pdfs", "--no-run-tests", master, result], standalone_mode=False)
    except Exception:
        traceback.print_exc()
        sys.exit(f"otter assign {master} failed")
"""


def _otter_assign(masters, outs):
    """``otter assign`` each master into its out folder through otter's command line, otter's
    public interface (it prints a lot), in one Python process so otter is imported once."""
    pairs = [str(path) for master, out in zip(masters, outs) for path in (master, out)]
    run = subprocess.run([sys.executable, "-c", _ASSIGN_EACH, *pairs], capture_output=True, text=True)
    if run.returncode != 0:
        names = ", ".join(master.name for master in masters)
        raise RuntimeError(f"otter assign of {names} failed: {(run.stderr or run.stdout).strip()[-500:]}")


def add_cli(subparsers):
    """Register ``exercises [--check]`` on the ``tfdist-instructor`` command."""
    parser = subparsers.add_parser("exercises", help="regenerate exercises/ and solutions/ from grading/masters")
    parser.add_argument("--check", action="store_true", help="only list files that differ; write nothing")
    parser.set_defaults(func=run)
    return parser


def run(args):
    changed = regenerate(check=args.check)
    if args.check and changed:
        print("these generated files differ from their masters (run `make exercises`):", *changed, sep="\n  ")
        return 1
    print(f"{len(changed)} file(s) {'differ' if args.check else 'written'}")
    return 0
