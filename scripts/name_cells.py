"""Rename cells of a lesson, in the lesson, its executed copies and the tests that read it.

    python scripts/name_cells.py NOTEBOOK OLD=NEW [OLD=NEW ...]
    python scripts/name_cells.py --apply-map FILE [LESSON ...]

The claims tests (tests/claims/) read a lesson's cells by id. An id that says what its cell holds
("l04-mixed-precision-pair") lets a reader of a test see what it checks, and an author of the
lesson see which cells the tests read; an opaque one ("4668ef75", "cell-42") shows neither. This
script gives a cell a name and carries the rename everywhere the old id is used:

- the lesson notebook (``notebooks/NN_name.ipynb``, or the NOTEBOOK path given);
- its executed copies, where present: ``build/executed/notebooks/<same name>``,
  ``$TFDIST_EDU_EXECUTED_DIR/notebooks/<same name>`` and ``$TFDIST_EDU_CLAIMS_DIR/<same name>``;
- every reference in tests/: a quoted ``"OLD"`` (or ``'OLD'``) in a file that reads this
  lesson, that is, names its file stem (``STEM = "04_performance"``, ``lesson("04_performance")``,
  ``notebooks/04_performance.ipynb``). Two lessons can have the same opaque id ("cell-30"), so
  a file that names other lessons only is left alone, one naming no lesson gets a note, and one
  naming two lessons that both have OLD is refused as ambiguous.

Names never change once given. The script only renames what you ask, and never invents or
revises a name: a name, once a test reads it, is how that cell is known for good. Choose names
as ``lNN-<what-it-holds>`` (lowercase, at most 40 characters, unique in the lesson).

Refusals come in one line, before anything is written: NEW is not a valid nbformat id (letters,
digits, ``-`` and ``_``, 1 to 64 characters), NEW already names a cell of that notebook, or OLD
names none. The notebooks are read and written with ``json`` in the form they are stored in
(``indent=1``, ``ensure_ascii=False``, a trailing newline); a file not stored in that form is
refused rather than reformatted, so a rename changes ids and nothing else.

``--apply-map FILE`` replays a whole renaming: FILE is JSON ``{lesson stem: {old: new}}``. The
optional LESSON arguments restrict it to those lessons (a stem such as ``04_performance``, its
number ``04``, or a notebook path). Replaying is idempotent: a pair whose NEW already names the
cell and whose OLD is gone is skipped, and the tests are rewritten only where ``"OLD"`` remains.

``--tests-only`` rewrites the references under tests/ and leaves the notebooks and executed
copies alone (for lessons someone else is re-running; replay the map on them later). ``--root``
points at another checkout (the tests use a temporary one).
"""

import argparse
import json
import os
import re
import sys
from pathlib import Path

ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # nbformat 4.5's cell id, matched whole
TEXT_SUFFIXES = {".py", ".json", ".md", ".txt", ".yml", ".yaml", ".toml", ".cfg", ".ini"}


class Refusal(Exception):
    """A rename this script will not make; nothing has been written."""


def dumps(nb):
    """A notebook as these lessons are stored."""
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def load(path):
    """(notebook, stored text); refuses a file a json round trip would reformat."""
    text = path.read_text(encoding="utf-8")
    nb = json.loads(text)
    if dumps(nb) != text:
        raise Refusal(f"{path} is not stored as json indent=1 with a trailing newline; "
                      "refusing to reformat it")
    return nb, text


def ids_of(nb):
    return [cell.get("id") for cell in nb.get("cells", [])]


def executed_copies(root, name):
    """The executed copies of the notebook called ``name`` that exist."""
    folders = [root / "build" / "executed" / "notebooks"]
    if os.environ.get("TFDIST_EDU_EXECUTED_DIR"):
        folders.append(Path(os.environ["TFDIST_EDU_EXECUTED_DIR"]) / "notebooks")
    if os.environ.get("TFDIST_EDU_CLAIMS_DIR"):
        folders.append(Path(os.environ["TFDIST_EDU_CLAIMS_DIR"]))
    found = []
    for folder in folders:
        path = folder / name
        if path.is_file() and not any(path.resolve() == p.resolve() for p in found):
            found.append(path)
    return found


def test_files(root):
    """Text files under tests/ that could name a cell (no caches, no notebooks)."""
    tests = root / "tests"
    if not tests.is_dir():
        return []
    return sorted(p for p in tests.rglob("*")
                  if p.is_file() and p.suffix in TEXT_SUFFIXES and "__pycache__" not in p.parts)


def quoted(old):
    return re.compile(r"""(["'])""" + re.escape(old) + r"\1")


class Plan:
    """Every file a run would write, with its new text, gathered before any is written."""

    def __init__(self, root):
        self.root = root
        self.lessons = {p.stem: p for p in sorted((root / "notebooks").glob("*.ipynb"))}
        self.lesson_ids = {}  # stem -> ids as they stand in this plan
        self.writes = {}  # path -> new text
        self.counts = {}  # path -> how many ids or references changed
        self.tests = None  # path -> text, read once
        self.notes = []  # printed once the plan is written

    def _ids(self, stem, path):
        if stem not in self.lesson_ids:
            text = self.writes.get(path) or path.read_text(encoding="utf-8")
            self.lesson_ids[stem] = ids_of(json.loads(text))
        return self.lesson_ids[stem]

    def rename(self, notebook, pairs, tests_only=False, replay=False):
        """Plan renaming ``pairs`` [(old, new)] in ``notebook``; raise Refusal on a bad pair."""
        stem = notebook.stem
        if stem not in self.lessons:
            self.lessons[stem] = notebook
        ids = list(self._ids(stem, notebook))
        applied = []
        for old, new in pairs:
            if not ID.fullmatch(new):
                raise Refusal(f"{new!r} is not a valid cell id (letters, digits, '-' and '_', "
                              "1 to 64 characters)")
            if replay and old not in ids and new in ids:
                applied.append((old, new, False))  # named by an earlier run: tests only
                continue
            if old not in ids:
                raise Refusal(f"{notebook.name} has no cell with id {old!r}")
            if new in ids:
                raise Refusal(f"{notebook.name} already has a cell with id {new!r}")
            ids[ids.index(old)] = new
            applied.append((old, new, True))
        self.lesson_ids[stem] = ids
        renames = {old: new for old, new, in_notebook in applied if in_notebook}
        if not tests_only:
            if renames:
                self._rename_in(notebook, renames, expected=renames)
            everything = {old: new for old, new, _ in applied}  # a copy run before a replay too
            for copy in executed_copies(self.root, notebook.name):
                self._rename_in(copy, everything, expected=renames, required=False)
        for old, new, _ in applied:
            self._rewrite_tests(stem, old, new)

    def _rename_in(self, path, renames, expected, required=True):
        """Rename ``renames`` in the notebook at ``path``; a missing id of ``expected`` is
        refused when ``required``, noted otherwise."""
        nb = json.loads(self.writes[path]) if path in self.writes else load(path)[0]
        present = set(ids_of(nb))
        changed = 0
        for cell in nb.get("cells", []):
            old = cell.get("id")
            if old in renames:
                if renames[old] in present:
                    raise Refusal(f"{path} already has a cell with id {renames[old]!r}")
                cell["id"] = renames[old]
                changed += 1
        missing = sorted(set(expected) - present)
        if missing and required:
            raise Refusal(f"{path.name} has no cell with id {missing[0]!r}")
        if missing:
            self.notes.append(f"note: {path} has no cell {', '.join(missing)} (a stale copy?): "
                              "left as it is")
        if changed:
            self.writes[path] = dumps(nb)
            self.counts[path] = self.counts.get(path, 0) + changed

    def _holders(self, old):
        """The lessons under notebooks/ whose cells (as planned) include ``old``."""
        return {stem for stem, path in self.lessons.items() if old in self._ids(stem, path)}

    def _rewrite_tests(self, stem, old, new):
        if self.tests is None:
            self.tests = {}
            for path in test_files(self.root):
                try:
                    self.tests[path] = path.read_text(encoding="utf-8")
                except UnicodeDecodeError:
                    continue
        pattern = quoted(old)
        holders = self._holders(old) | {stem}
        for path, text in self.tests.items():
            if not pattern.search(text):
                continue
            named = {s for s in self.lessons if s in text}
            if stem not in named:
                if not named:
                    self.notes.append(f"note: {path.relative_to(self.root)} has {old!r} but names "
                                      "no lesson: left as it is")
                continue  # another lesson's cell, or one this file cannot be tied to
            others = (holders & named) - {stem}
            if others:
                raise Refusal(f"{path.relative_to(self.root)} reads {stem} and "
                              f"{', '.join(sorted(others))}, which both have a cell {old!r}: "
                              "rename it by hand")
            text, n = pattern.subn(lambda m: m[1] + new + m[1], text)
            self.tests[path] = self.writes[path] = text
            self.counts[path] = self.counts.get(path, 0) + n

    def write(self):
        for note in self.notes:
            print(note)
        for path, text in self.writes.items():
            path.write_text(text, encoding="utf-8")
        for path in self.writes:
            what = "references" if path.suffix != ".ipynb" else "ids"
            try:
                shown = path.relative_to(self.root)
            except ValueError:
                shown = path
            print(f"{shown}: {self.counts[path]} {what} renamed")
        if not self.writes:
            print("nothing to rename: every name is already in place")


def parse_pairs(texts):
    pairs = []
    for text in texts:
        old, sep, new = text.partition("=")
        if not sep or not old:
            raise Refusal(f"{text!r} is not OLD=NEW")
        pairs.append((old, new))
    return pairs


def find_notebook(root, text):
    path = Path(text)
    for candidate in (path, root / "notebooks" / path.name, root / "notebooks" / f"{text}.ipynb"):
        if candidate.is_file():
            return candidate
    raise Refusal(f"no notebook {text}")


def select(stems, wanted, notes):
    """The stems of the map that ``wanted`` (stems, numbers or paths) names; all when empty."""
    if not wanted:
        return list(stems)
    chosen = []
    for text in wanted:
        key = Path(text).stem if text.endswith(".ipynb") else text
        hits = [s for s in stems if key in (s, s.split("_")[0])]
        if not hits:
            notes.append(f"note: the map renames nothing in {text}")
        chosen += [s for s in hits if s not in chosen]
    return chosen


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--apply-map", metavar="FILE", type=Path,
                        help="JSON {lesson stem: {old: new}} to replay")
    parser.add_argument("--tests-only", action="store_true",
                        help="rewrite the references in tests/ only; leave the notebooks alone")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1],
                        help="the checkout (default: the one holding this script)")
    parser.add_argument("args", nargs="*", metavar="NOTEBOOK OLD=NEW | LESSON")
    options = parser.parse_args(argv)
    root = options.root.resolve()
    plan = Plan(root)
    try:
        if options.apply_map:
            mapping = json.loads(options.apply_map.read_text(encoding="utf-8"))
            for stem in select(mapping, options.args, plan.notes):
                notebook = root / "notebooks" / f"{stem}.ipynb"
                if not notebook.is_file():
                    raise Refusal(f"the map names {stem!r}, but there is no "
                                  f"{notebook.relative_to(root)}")
                plan.rename(notebook, list(mapping[stem].items()), options.tests_only, replay=True)
        else:
            if len(options.args) < 2:
                parser.error("give a NOTEBOOK and at least one OLD=NEW (or --apply-map FILE)")
            notebook = find_notebook(root, options.args[0])
            plan.rename(notebook, parse_pairs(options.args[1:]), options.tests_only)
    except Refusal as refusal:
        print(f"name_cells: refused: {refusal}", file=sys.stderr)
        return 1
    plan.write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
