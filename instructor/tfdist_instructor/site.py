"""The course as a static website: the executed lessons with their figures, the exercises as
students get them, the tour's report, the reference pages and the decks.

``build(executed, out)`` stages a Sphinx source folder (myst-nb reads the notebooks; nothing is
executed here: the lessons come with the outputs of the run that produced ``executed``, as
``make test`` leaves them in build/executed/) and runs ``sphinx-build`` from the site's own
environment (Jupyter Book 1's stack: sphinx-book-theme, myst-nb). Every page works from disk
with no network: no CDN script, font or badge, and search runs on the local index.
"""

import json
import posixpath
import re
import shutil
import subprocess
import time
from pathlib import Path

from tfdist_instructor import REPO_ROOT, site_access
from tfdist_instructor import toml as tomllib

BADGE_URL = "https://colab.research.google.com/assets/colab-badge.svg"
BADGE_FILE = "_static/open-in-colab.svg"
REFERENCE_PAGES = {"instructor-guide": "docs/instructor-guide.md", "compatibility": "docs/compatibility.md",
                   "multi-host": "docs/multi-host.md"}
CONF = """\
project = "tfdist-edu"
html_title = "tfdist-edu: distributed training with tf.distribute"
extensions = ["myst_nb", "sphinx_external_toc", "sphinx_copybutton", "sphinx_design"]
external_toc_path = "_toc.yml"
html_theme = "sphinx_book_theme"
html_theme_options = {"home_page_in_toc": True, "search_bar_text": "Search the course..."}
html_static_path = ["_static"]
html_extra_path = ["_extra"]
html_show_copyright = False
html_context = {"default_mode": "light"}  # an empty mode is reported as a console error
nb_execution_mode = "off"   # the outputs are those of the run that executed the lessons
nb_ipywidgets_js = {}       # widget scripts come from a CDN; the saved text fallback shows instead
nb_output_stderr = "remove"
myst_enable_extensions = ["colon_fence"]
exclude_patterns = ["_build", "_extra"]
suppress_warnings = ["myst.header", "misc.highlighting_failure"]
"""
BADGE_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="117" height="20" role="img" aria-label="Open in Colab">
<rect width="117" height="20" rx="3" fill="#555"/><rect x="40" width="77" height="20" rx="3" fill="#f9ab00"/>
<g fill="#fff" font-family="Verdana,sans-serif" font-size="11"><text x="6" y="14">Open</text>
<text x="45" y="14">in Colab</text></g></svg>
"""


class SiteError(RuntimeError):
    """Something the site needs is missing; the message says how to make it."""


def build(executed="build/executed", out="build/site", slides="build/slides", tour="tour-report",
          sphinx_build=None):
    """Stage and build the site into ``out``; return the path of its index page."""
    executed, out = Path(executed), Path(out)
    lessons = sorted((executed / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    if not lessons:
        raise SiteError(f"no executed lessons in {executed}/notebooks: run `make test` (or the "
                        "normal-mode nbval run with TFDIST_EDU_EXECUTED_DIR) first")
    sphinx_build = sphinx_build or _site_tool("sphinx-build")
    src = out.parent / f"{out.name}-src"
    shutil.rmtree(src, ignore_errors=True)
    (src / "_static").mkdir(parents=True)
    (src / "_extra").mkdir()
    (src / "_static" / "open-in-colab.svg").write_text(BADGE_SVG)
    toc = _stage(src, lessons, Path(slides), Path(tour))
    (src / "_toc.yml").write_text(toc)
    (src / "conf.py").write_text(CONF)
    start = time.perf_counter()
    shutil.rmtree(out, ignore_errors=True)
    result = subprocess.run([str(sphinx_build), "-q", "-b", "html", str(src), str(out)],
                            capture_output=True, text=True)
    if result.returncode:
        raise SiteError(f"sphinx-build failed:\n{result.stderr[-3000:]}")
    site_access.repair(out)  # the theme's unnamed controls (see site_access)
    print(f"site built in {time.perf_counter() - start:.0f} s: {out / 'index.html'}", flush=True)
    return out / "index.html"


def _stage(src, lessons, slides, tour):
    """Copy every page into ``src``; return the table of contents."""
    (src / "lessons").mkdir()
    for lesson in lessons:
        _copy_notebook(lesson, src / "lessons" / lesson.name, depth=1)
    exercises = sorted(p for p in (REPO_ROOT / "exercises").glob("[0-9][0-9]_*") if p.is_dir())
    for exercise in exercises:
        _stage_exercise(exercise, src / "exercises" / exercise.name)
    # a page the copy lacks is left out: the student release has no instructor guide
    reference = [_stage_reference(src, name, path) for name, path in REFERENCE_PAGES.items()
                 if (REPO_ROOT / path).exists()]
    reference += [p for p in (_stage_tour(src, tour), _stage_decks(src, slides)) if p]
    (src / "index.md").write_text(_index(lessons, exercises))
    parts = [("Lessons", [f"lessons/{p.stem}" for p in lessons]),
             ("Exercises", [f"exercises/{p.name}/{p.name}" for p in exercises]),
             ("Reference", reference)]
    lines = ["format: jb-book", "root: index", "parts:"]
    for caption, files in parts:
        lines += [f"- caption: {caption}", "  chapters:"]
        for page in files:
            lines.append(f"  - file: {page}")
            if page.startswith("exercises/"):
                lines += ["    sections:", f"    - file: {page.rsplit('/', 1)[0]}/public_checks"]
    return "\n".join(lines) + "\n"


def _copy_notebook(source, target, depth):
    """Copy a notebook, pointing the Colab badge at a local picture (the real one is online)
    and giving each figure the alt text it was displayed with."""
    target.parent.mkdir(parents=True, exist_ok=True)
    nb = json.loads(source.read_text().replace(BADGE_URL, "../" * depth + BADGE_FILE))
    for cell in nb["cells"]:
        alts = [out.get("metadata", {}).get("image/png", {}).get("alt")
                for out in cell.get("outputs", []) if "image/png" in out.get("data", {})]
        if any(alts):
            # myst-nb reads image options from the cell (mystnb.image), not from the output.
            cell["metadata"].setdefault("mystnb", {})["image"] = {"alt": " ".join(filter(None, alts))}
    target.write_text(json.dumps(nb, indent=1, ensure_ascii=False))


def _stage_exercise(exercise, target):
    """The student notebook and its public checks; never a solution or a hidden test."""
    _copy_notebook(exercise / f"{exercise.name}.ipynb", target / f"{exercise.name}.ipynb", depth=2)
    checks = sorted((exercise / "tests").glob("*.py"))
    body = [f"# Public checks of {exercise.name}", "",
            "What `grader.check(...)` runs in the notebook. The grader adds hidden tests.", ""]
    for check in checks:
        body += [f"## {check.stem}", "", "```python", check.read_text().rstrip(), "```", ""]
    (target / "public_checks.md").write_text("\n".join(body))


def _stage_reference(src, name, path):
    text = (REPO_ROOT / path).read_text()
    # Links to files of the repository do not exist on the site: point them at the repository.
    folder, url = posixpath.dirname(path), _repository_url()
    text = re.sub(r"\]\((?!https?:|#)([^)]+)\)",
                  lambda link: f"]({url}/{posixpath.normpath(posixpath.join(folder, link[1]))})", text)
    (src / "reference").mkdir(exist_ok=True)
    (src / "reference" / f"{name}.md").write_text(text)
    return f"reference/{name}"


def _repository_url():
    """Where the repository's files are browsed: pyproject's address and branch, kept there only."""
    pyproject = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())
    return f"{pyproject['project']['urls']['Repository'].rstrip('/')}/blob/{pyproject['tool']['tfdist-edu']['branch']}"


def _stage_tour(src, tour):
    report = tour / "report.md"
    if not report.exists():
        return None
    target = src / "reference" / "tour"
    shutil.copytree(tour, target, ignore=shutil.ignore_patterns("*.html", "*.json"))
    (target / "report.md").write_text(report.read_text().replace("# tfdist-edu tour", "# The tour's report", 1))
    return "reference/tour/report"


def _stage_decks(src, slides):
    decks = sorted(slides.glob("[0-9][0-9]_*.html"))
    if not decks:
        return None
    shutil.copytree(slides, src / "_extra" / "slides")
    lines = ["# Instructor decks", "", "Reveal.js decks that open from disk (press S for speaker notes):", ""]
    lines += [f"- [{d.stem.replace('_', ' ')}](../slides/{d.name})" for d in decks]
    (src / "reference" / "decks.md").write_text("\n".join(lines) + "\n")
    return "reference/decks"


def _index(lessons, exercises):
    readme = (REPO_ROOT / "README.md").read_text().split("\n## ")[0]
    intro = readme.split("\n", 1)[1].strip()
    lines = ["# tfdist-edu: distributed training with tf.distribute", "", intro, "",
             "Every lesson here was executed in one run; each figure and number says the hardware and "
             "data it came from: the real Fashion-MNIST where its files are installed (`make test` "
             "installs them), SVHN's labelled synthetic stand-in offline.", "", "## Lessons", ""]
    lines += [f"- [{_title(p)}](lessons/{p.stem}.ipynb)" for p in lessons]
    lines += ["", "## Exercises", ""] + [f"- [{p.name}](exercises/{p.name}/{p.name}.ipynb)" for p in exercises]
    return "\n".join(lines) + "\n"


def _title(notebook):
    for cell in json.loads(notebook.read_text())["cells"]:
        if cell["cell_type"] == "markdown":
            for line in "".join(cell["source"]).splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return notebook.stem


def _site_tool(name):
    """A command of the site's own environment (.venv-site, made by `make site`)."""
    path = REPO_ROOT / ".venv-site" / "bin" / name
    if not path.exists():
        raise SiteError(f"{path} is missing: `make site` installs the site's tools (Jupyter Book 1)")
    return path


def add_cli(subparsers):
    """Register ``site [--executed DIR] [--out DIR] [--slides DIR] [--tour DIR]``."""
    parser = subparsers.add_parser("site", help="build the course website from executed lessons")
    for flag, default, meaning in (("--executed", "build/executed", "executed notebooks (make test leaves them)"),
                                   ("--out", "build/site", "output folder (replaced)"),
                                   ("--slides", "build/slides", "built decks to link (if present)"),
                                   ("--tour", "tour-report", "the tour's report folder (if present)")):
        parser.add_argument(flag, default=default, help=meaning)
    parser.set_defaults(func=run)
    return parser


def run(args):
    build(args.executed, args.out, slides=args.slides, tour=args.tour)
    return 0
