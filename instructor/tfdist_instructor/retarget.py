"""Point every course link at one fork and branch: ``make retarget REPO=owner/name REF=branch``.

pyproject.toml holds the address (``[project.urls] Repository``) and branch (``[tool.tfdist-edu]
branch``); badges, install, clone and requirement lines repeat them, since a notebook on Colab
cannot read pyproject. Standard library only: it runs before anything is installed.
"""

import re
import sys
from pathlib import Path

from tfdist_instructor import REPO_ROOT

NAME = r"[A-Za-z0-9][\w.-]*"
REPO = rf"(?P<repo>{NAME}/{NAME})"
REF = r"(?P<ref>[\w.-]+)"
# Each kind of link, with the repository (and branch, where the link carries one) as groups.
LINK_PATTERNS = {
    "pyproject": re.compile(rf'^Repository = "https://github\.com/{REPO}"', re.M),
    "pyproject branch": re.compile(rf'^branch = "{REF}"', re.M),
    "badge": re.compile(rf"colab\.research\.google\.com/github/{REPO}/blob/{REF}/"),
    "repository url": re.compile(rf'REPO_URL = [^\n]*?"https://github\.com/{REPO}'),
    "cell branch": re.compile(rf'BRANCH = \\?"{REF}\\?"'),
    "pip requirement": re.compile(rf"git\+https://github\.com/{REPO}@{REF}"),
    "clone": re.compile(rf"git clone [^\n]*?https://github\.com/{REPO}"),
}
# Where links live; the instructor package's own sources and tests are left alone.
FOLDERS = ("notebooks", "exercises", "grading", "solutions", "slides", "docs")
TOP_FILES = ("pyproject.toml", "README.md")
SUFFIXES = {".ipynb", ".md", ".txt", ".toml", ".py", ".j2", ".html"}


def files(root):
    """The text files that may hold course links."""
    root = Path(root)
    found = [root / name for name in TOP_FILES]
    for folder in FOLDERS:
        found += sorted(p for p in (root / folder).rglob("*") if p.is_file() and p.suffix in SUFFIXES)
    return found


def links(root):
    """Every course link: (path, kind, repo or None, ref or None)."""
    for path in files(root):
        text = path.read_text(encoding="utf-8")
        for kind, pattern in LINK_PATTERNS.items():
            for match in pattern.finditer(text):
                groups = match.groupdict()
                yield path, kind, groups.get("repo"), groups.get("ref")


def current(root):
    """The (repo, ref) pyproject.toml names."""
    text = (Path(root) / "pyproject.toml").read_text(encoding="utf-8")
    repo, ref = (LINK_PATTERNS[k].search(text) for k in ("pyproject", "pyproject branch"))
    if not repo or not ref:
        raise ValueError("pyproject.toml lacks [project.urls] Repository or [tool.tfdist-edu] branch")
    return repo["repo"], ref["ref"]


def retarget(root, repo, ref):
    """Rewrite pyproject and every course link to ``repo`` (owner/name) at branch ``ref``.

    Returns the files changed.
    """
    check_address(repo, ref)
    changed = []
    for path in files(root):
        new = text = path.read_text(encoding="utf-8")
        for pattern in LINK_PATTERNS.values():
            new = pattern.sub(lambda m: _replace(m, repo, ref), new)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed


def check_address(repo, ref):
    """ValueError unless ``repo`` is owner/name and ``ref`` a branch name."""
    if not re.fullmatch(rf"{NAME}/{NAME}", repo) or not re.fullmatch(r"[\w.-]+", ref):
        raise ValueError(f"expected REPO=owner/name and REF=branch, got {repo!r} and {ref!r}")


def _replace(match, repo, ref):
    """The matched text with its repo and ref groups swapped for the new ones."""
    text, offset = match.group(0), match.start(0)
    values = {"repo": repo, "ref": ref}
    # Right to left, so an earlier group's position stays valid.
    for group in sorted(match.groupdict(), key=match.start, reverse=True):
        start, end = match.start(group) - offset, match.end(group) - offset
        text = text[:start] + values[group] + text[end:]
    return text


def add_cli(subparsers):
    """Register ``retarget`` on the ``tfdist-instructor`` command."""
    parser = subparsers.add_parser("retarget", help="point every badge, install and clone cell at a fork")
    parser.add_argument("--repo", required=True, metavar="OWNER/NAME")
    parser.add_argument("--ref", required=True, metavar="BRANCH")
    parser.set_defaults(func=run)


def run(args):
    """Retarget ``args.root`` and say what moved where."""
    old = "{}@{}".format(*current(REPO_ROOT))
    changed = retarget(REPO_ROOT, args.repo, args.ref)
    print(f"{old} -> {args.repo}@{args.ref}: {len(changed)} file(s) changed")
    return 0


def main(argv=None):
    """``python -m tfdist_instructor.retarget --repo owner/name --ref branch`` (make retarget)."""
    from tfdist_instructor import cli

    return cli.run_alone("tfdist_instructor.retarget", add_cli, "retarget", argv)


if __name__ == "__main__":
    sys.exit(main())
