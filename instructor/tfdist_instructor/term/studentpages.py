"""The pages of the release written for students (``release`` calls :func:`write`).

- ``README.md`` is ``student_readme.md``: how to start, the lessons table taken from the course
  README (retargeted with the rest), the graded exercises, and the docs that were released; no
  instructor command and no link to anything withheld.
- ``exercises/README.md`` stops before its "For instructors" section.
- A relative link, in any released Markdown page, to a file that was not released becomes its
  text, so every link left resolves inside the release (code blocks are left as they are).
"""

import re
from pathlib import Path

STUDENT_README = Path(__file__).with_name("student_readme.md")
FOR_INSTRUCTORS = "\n## For instructors\n"
LINK = re.compile(r"(?<!!)\[(?P<text>[^\]\n]*)\]\((?P<target>[^)\s]+)\)")
CODE = re.compile(r"(```[\s\S]*?```|`[^`\n]*`)")


def write(out, root):
    """Write the student pages into the release folder ``out`` copied from the course at ``root``."""
    out, readme = Path(out), (Path(root) / "README.md").read_text(encoding="utf-8")
    title = readme.splitlines()[0].lstrip("# ").strip()
    lessons = readme.split("\n## Lessons\n", 1)[1].split("\n## ", 1)[0]
    table = "\n".join(ln for ln in lessons.splitlines() if ln.startswith("|"))
    docs = "\n".join(f"- [{_heading(p)}](docs/{p.name})" for p in sorted((out / "docs").glob("*.md")))
    (out / "README.md").write_text(STUDENT_README.read_text(encoding="utf-8").format(
        title=title, lessons=table, docs=docs or "-"), encoding="utf-8")
    exercises = out / "exercises" / "README.md"
    text = exercises.read_text(encoding="utf-8")
    exercises.write_text(text.split(FOR_INSTRUCTORS, 1)[0].rstrip() + "\n", encoding="utf-8")
    for page in out.rglob("*.md"):
        text = page.read_text(encoding="utf-8")
        kept = _outside_code(text, lambda part: LINK.sub(
            lambda m: m[0] if resolves(page, m["target"]) else m["text"], part))
        if kept != text:
            page.write_text(kept, encoding="utf-8")


def links(text):
    """The link targets of Markdown ``text``, code blocks and inline code left out."""
    found = []
    _outside_code(text, lambda part: found.extend(m["target"] for m in LINK.finditer(part)) or part)
    return found


def resolves(page, target):
    """Whether a link ``target`` written in ``page`` works: an address, an anchor, or a file there."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("#"):
        return True
    path = target.split("#", 1)[0].split("?", 1)[0]
    return (Path(page).parent / path).exists()


def _outside_code(text, change):
    parts = CODE.split(text)
    return "".join(part if i % 2 else change(part) for i, part in enumerate(parts))


def _heading(page):
    first = next((ln for ln in page.read_text(encoding="utf-8").splitlines() if ln.startswith("# ")), "")
    return first[2:].strip() or page.stem
