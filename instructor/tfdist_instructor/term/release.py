"""The student copy of the course: ``tfdist-instructor release OUT`` (``make release OUT=...``).

It copies what students use (lessons, exercises with their public checks, ``tfdist_edu``, the
docs written for them; the decks on request) into a new folder, points every badge, install and clone
cell at the address students will use (``retarget``), and makes it a git repository with one commit,
so no history of the instructor's repository comes along. Only files on an allow-list
(``STUDENT_FILES``, ``DECK_FILES``) are copied: a note, a script a lesson wrote beside itself or a
checkpoint in a copied folder stays behind, and a page added to ``docs/`` ships only once it is
named in ``STUDENT_DOCS`` (a test fails while a page is in neither ``STUDENT_DOCS`` nor
``WITHHELD``). Solutions, masters, question files (the hidden cases and their rubrics) and the
instructor package are never copied; a check after the copy refuses the release if any path of
theirs, or any file off the allow-list, is there.

Students get pages written for them: the README is ``student_readme.md`` (the lessons table taken
from the course README, the docs that were released), ``exercises/README.md`` stops before its
section for instructors, and a relative link in any released Markdown page (or notebook) to a
file that was not released is replaced by its text, so every link left resolves in the release.
"""

import fnmatch
import shutil
import subprocess
from pathlib import Path

from tfdist_instructor import REPO_ROOT, retarget
from tfdist_instructor.term import studentpages

COPIED = ("README.md", "pyproject.toml", "environment.yml", "notebooks", "exercises", "tfdist_edu", "docs")
DECKS = ("slides",)
# The pages of docs/ that students read; every other page of docs/ is WITHHELD.
STUDENT_DOCS = ("docs/ARCHITECTURE.md", "docs/LESSON_STYLE.md", "docs/compatibility.md",
                "docs/keras_distribution_gpu.md", "docs/measured-times.json", "docs/multi-host.md",
                "docs/reference_reproduction.md", "docs/slurm-recorded-run.md", "docs/slurm/*.sbatch",
                "docs/slurm/*.py", "docs/stand_in_fidelity.md", "docs/upstream.md")
# Instructor material inside copied folders: the guide holds what a good capstone write-up contains.
WITHHELD = ("docs/instructor-guide.md",)
# Every file a release may hold (``*`` spans folders): nothing else is copied. The Makefile and the
# README are the student pages written after the copy.
STUDENT_FILES = ("README.md", "Makefile", "pyproject.toml", "environment.yml", "notebooks/[0-9][0-9]_*.ipynb",
                 "exercises/README.md", "exercises/.gitignore", "exercises/[0-9][0-9]_*/[0-9][0-9]_*.ipynb",
                 "exercises/[0-9][0-9]_*/tests/q[0-9]*.py", "tfdist_edu/*.py", *STUDENT_DOCS)
DECK_FILES = ("slides/[0-9][0-9]_*.ipynb", "slides/README.md", "slides/reveal_offline/*.json",
              "slides/reveal_offline/*.j2")
NEVER = ("solutions", "grading", "instructor", "tests", "benchmarks", ".github", ".ci")
# Folders never copied, wherever they are (Jupyter's autosaves, Python's caches).
SKIPPED_PARTS = {"__pycache__", ".ipynb_checkpoints"}
AUTHOR = ["-c", "user.name=tfdist-instructor release", "-c", "user.email=release@tfdist-edu.invalid"]
# The student copy's Makefile: the course's own `make demo`, which needs nothing instructors have.
MAKEFILE = """\
# make demo: install the course into .venv/ and run the tour, the main job, on this machine.
PYTHON ?= python3
.PHONY: demo
demo:
\t$(PYTHON) -m venv .venv
\t.venv/bin/python -m pip install --quiet -e ".[course]"
\t.venv/bin/tfdist-edu tour --out tour-report
"""


def release(out, repo=None, ref=None, root=REPO_ROOT, decks=False):
    """Write the student copy of ``root`` into ``out`` (new or empty), retargeted to ``repo`` at
    branch ``ref`` (default: pyproject's), as a one-commit git repository; return its files."""
    out, root = Path(out), Path(root)
    if out.exists() and any(out.iterdir()):
        raise ValueError(f"{out} is not empty: give a new folder for the release")
    old_repo, old_ref = retarget.current(root)
    repo, ref = repo or old_repo, ref or old_ref
    retarget.check_address(repo, ref)  # a bad address: one line, before anything is written
    allowed = STUDENT_FILES + (DECK_FILES if decks else ())
    out.mkdir(parents=True, exist_ok=True)
    for name in COPIED + (DECKS if decks else ()):
        _copy(root, out, name, allowed)
    (out / "Makefile").write_text(MAKEFILE)
    studentpages.write(out, root)
    retarget.retarget(out, repo, ref)
    names = [p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()]
    leaked = [n for n in names if n.split("/")[0] in NEVER or n in WITHHELD]
    if leaked:
        raise RuntimeError(f"the release holds instructor files: {', '.join(leaked[:5])}")
    stray = [n for n in names if not student_file(n, allowed)]
    if stray:
        raise RuntimeError(f"the release holds files students do not need: {', '.join(stray[:5])}")
    _commit(out, ref, f"The course as students get it ({repo}@{ref})")
    return sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file() and ".git" not in p.parts)


def student_file(name, allowed=STUDENT_FILES + DECK_FILES):
    """Whether the path ``name`` (relative, with ``/``) is on the allow-list ``allowed``."""
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in allowed)


def _copy(root, out, name, allowed):
    """Copy the files of ``root/name`` (a file or a folder) that are on the allow-list ``allowed``."""
    source = root / name
    if not source.exists():
        raise FileNotFoundError(f"{source} is missing: run the release from a checkout of the course")
    files = [source] if source.is_file() else sorted(
        p for p in source.rglob("*") if p.is_file() and not SKIPPED_PARTS & set(p.relative_to(root).parts))
    for path in files:
        relative = path.relative_to(root).as_posix()
        if student_file(relative, allowed) and relative not in WITHHELD:
            (out / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, out / relative)


def _commit(out, ref, message):
    """A fresh repository with exactly one commit on branch ``ref``."""
    for command in (["init", "-q", "--template=", "-b", ref], ["add", "-A"],
                    [*AUTHOR, "commit", "-q", "--no-gpg-sign", "-m", message]):
        done = subprocess.run(["git", "-C", str(out), *command], capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"git {' '.join(command[:2])} failed in {out}: {done.stderr.strip()}")


def add_cli(subparsers):
    """Register ``release OUT [--repo owner/name] [--ref branch] [--decks]``."""
    parser = subparsers.add_parser("release", help="write the student copy of the course as a fresh git repository")
    parser.add_argument("out", metavar="OUT", help="a new (or empty) folder")
    parser.add_argument("--repo", default=None, metavar="OWNER/NAME",
                        help="where students get it (default: pyproject's)")
    parser.add_argument("--ref", default=None, metavar="BRANCH", help="its branch (default: pyproject's)")
    parser.add_argument("--decks", action="store_true",
                        help="include the deck sources (slides/; their speaker notes are the lecturer's)")
    parser.set_defaults(func=run)


def run(args):
    files = release(args.out, args.repo, args.ref, decks=args.decks)
    repo, ref = retarget.current(args.out)
    print(f"{len(files)} files released into {args.out} for {repo}@{ref} (one commit; no solution, master, "
          f"question file, rubric or instructor package): push it with\n"
          f"  git -C {args.out} push https://github.com/{repo} {ref}")
    return 0


def main(argv=None):
    """``python -m tfdist_instructor.term.release OUT`` (make release): standard library only."""
    from tfdist_instructor import cli

    return cli.run_alone("tfdist_instructor.term.release", add_cli, "release", argv,
                         errors=(ValueError, RuntimeError, FileNotFoundError))


if __name__ == "__main__":
    raise SystemExit(main())
