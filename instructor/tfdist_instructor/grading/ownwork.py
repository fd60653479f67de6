"""Points only for the student's own work: an answer that delegates to the course helper it
was asked to write scores 0 for that question.

A question file names those helpers, ``HELPERS = {"tfdist_edu.batching": ["split_batch",
"BatchPlan"]}`` (functions, or classes: then every method counts). Two signals, either enough:

- **read** (here, from the notebook's text, where the student's kernel cannot interfere): the
  question's answer cells refer to a helper through an import of its module, e.g.
  ``from tfdist_edu.batching import split_batch`` or ``batching.split_batch(...)``;
- **called** (in the kernel, by ``probing.watch_calls``): the helper's code ran while the
  grader called the student's functions for that question, however it was reached.
"""

import ast
import json
import re
import threading

MAGIC = re.compile(r"^\s*[%!].*$", re.MULTILINE)  # %%writefile, %pip, !ls: not Python
# CPython 3.11 keeps the AST builder's recursion depth in interpreter-wide state: when a garbage
# collection during one thread's ast.parse switches to another thread that parses too, one of
# them raises "SystemError: AST constructor recursion depth mismatch" (python/cpython#106905),
# and with `grade --jobs 2` that student's notebook lost points. One parse at a time.
_PARSING = threading.Lock()


def message(question, helpers):
    """The line the feedback and the CSV show for a question answered by ``helpers``."""
    return (f"{question} scores 0: your answer uses {', '.join(sorted(helpers))}, the course helper this question "
            "asks you to write yourself (the notebook's 'What you may use' says what you may import)")


def delegated(question, cells, owners, called):
    """The helpers ``question`` (a catalog Question) was answered with: read in the answer cells,
    or ``called`` (the kernel's ``.called`` JSON text, or None) while it was probed."""
    if not question.helpers:
        return set()
    try:
        ran = {h for h in json.loads(called or "[]") if isinstance(h, str)}
    except ValueError:
        ran = set()
    return read(cells, owners, (question.name, question.helpers)) | ran


def read(cells, owners, helpers):
    """Helpers (``"module.name"``) the answer cells of a question refer to.

    ``cells``: the submission's cells; ``owners``: ``{cell id: question}`` of the handed-out
    notebook's answer cells (None or empty: every code cell counts as an answer cell);
    ``helpers``: the question's ``HELPERS`` with its name, as ``(question, HELPERS)``.
    """
    question, wanted = helpers
    code = [c for c in cells if c.cell_type == "code"]
    bound = _bindings([_parse(c.source) for c in code], wanted)
    answers = answer_cells(cells, owners, question)
    found = set()
    for tree in map(_parse, (c.source for c in answers)):
        for node in ast.walk(tree):
            name = _dotted(node)
            if name in bound:
                found.add(bound[name])
            if isinstance(node, ast.ImportFrom) and node.module in wanted:
                found.update(f"{node.module}.{a.name}" for a in node.names if a.name in wanted[node.module])
    return found


def answer_cells(cells, owners, question):
    """The code cells of ``cells`` that answer ``question`` (every code cell when the notebook lost
    the handed-out cell ids, or ``owners`` is empty)."""
    code = [c for c in cells if c.cell_type == "code"]
    kept = owners and any(c.get("id") in owners for c in code)  # ids lost: every cell may be the answer
    return [c for c in code if not kept or owners.get(c.get("id")) == question]


def _bindings(trees, wanted):
    """``{name or dotted name in the notebook: "module.helper"}`` for every way the imports reach a helper."""
    bound = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name in wanted:
                        local = a.asname or a.name
                        bound.update({f"{local}.{h}": f"{a.name}.{h}" for h in wanted[a.name]})
            elif isinstance(node, ast.ImportFrom) and node.module:
                for a in node.names:
                    full = f"{node.module}.{a.name}"
                    if full in wanted:  # from tfdist_edu import batching
                        bound.update({f"{a.asname or a.name}.{h}": f"{full}.{h}" for h in wanted[full]})
                    elif a.name in wanted.get(node.module, ()):  # from tfdist_edu.batching import split_batch
                        bound[a.asname or a.name] = full
    return bound


def _dotted(node):
    """``"a.b.c"`` for a name or an attribute chain on a name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def _parse(source):
    try:
        with _PARSING:
            return ast.parse(MAGIC.sub("", source))
    except SyntaxError:  # reported elsewhere, as the cell's error
        return ast.Module(body=[], type_ignores=[])
