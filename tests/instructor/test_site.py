"""tfdist_instructor.site: the course as a website, built offline and opened in headless Chromium.

The site is built from executed lessons: the copies the normal-mode nbval run leaves in
build/executed/ (``make test`` runs it before these tests); without them the lessons are run
here in fast mode first. The session's decks and a short tour are built too, so their links are
checked; the build is shared with the accessibility tests (conftest.py).
"""

import base64
import json
import re
import time
from html.parser import HTMLParser

import pytest

from chromium import blank, problems
from tfdist_instructor import REPO_ROOT, site

SPHINX = REPO_ROOT / ".venv-site" / "bin" / "sphinx-build"


@pytest.fixture(scope="module")
def built(built_site):
    """The site built once per session (conftest): every executed lesson, the decks, a short tour."""
    return built_site


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.images = [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        elif tag in ("img", "script", "link") and (attrs.get("src") or attrs.get("href")):
            self.images.append(attrs.get("src") or attrs.get("href"))


def _parse(page):
    parser = _Links()
    parser.feed(page.read_text())
    return parser


def _pages(root):
    return sorted(p for p in root.rglob("*.html") if "_static" not in p.parts and "slides" not in p.parts)


def test_every_lesson_exercise_and_reference_page_is_built(built):
    root, executed = built
    lessons = sorted(p.stem for p in (executed / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert sorted(p.stem for p in (root / "lessons").glob("*.html")) == lessons
    exercises = sorted(p.name for p in (REPO_ROOT / "exercises").glob("[0-9][0-9]_*") if p.is_dir())
    for name in exercises:
        assert (root / "exercises" / name / f"{name}.html").exists()
        assert (root / "exercises" / name / "public_checks.html").exists()
    for page in ("compatibility", "multi-host", "decks", "tour/report"):
        assert (root / "reference" / f"{page}.html").exists(), page


def test_links_between_pages_and_every_local_file_a_page_loads_resolve(built):
    root, _ = built
    broken = []
    for page in _pages(root):
        parsed = _parse(page)
        for ref in parsed.links + parsed.images:
            if re.match(r"^(https?:|mailto:|#|javascript:|data:)", ref):
                continue
            target = (page.parent / ref.split("#")[0].split("?")[0]).resolve()
            if ref.split("#")[0] and not target.exists():
                broken.append(f"{page.relative_to(root)} -> {ref}")
    assert not broken, broken[:20]


def test_nothing_loads_from_the_internet(built):
    root, _ = built
    remote = [(p.relative_to(root), ref) for p in _pages(root) for ref in _parse(p).images
              if re.match(r"^(https?:)?//", ref)]
    assert not remote, remote[:10]


def test_no_solution_or_hidden_test_reaches_the_site(built):
    root, _ = built
    text = "\n".join(p.read_text(errors="replace") for p in root.rglob("*") if p.is_file()
                     and p.suffix in (".html", ".txt", ".js", ".ipynb", ".md", ".py"))
    assert "BEGIN SOLUTION" not in text and "hidden=True" not in text and "solutions/" not in text


def test_every_page_opens_offline_without_errors_and_lesson_pages_show_their_figures(built, browser):
    root, executed = built
    for page in _pages(root):
        target, session = browser.open_offline_tab()
        browser.events.clear()
        browser.send("Page.navigate", session, url=page.as_uri())
        deadline = time.monotonic() + 15
        while browser.evaluate(session, "document.readyState") != "complete":
            assert time.monotonic() < deadline, f"{page} never finished loading"
            time.sleep(0.1)
        if page.parent.name == "lessons":
            _check_figures(browser, session, page, executed / "notebooks" / f"{page.stem}.ipynb", root)
        browser.send("Target.closeTarget", targetId=target)
        assert not problems(browser.events), (page.relative_to(root), problems(browser.events))


def _check_figures(browser, session, page, notebook, root):
    cells = json.loads(notebook.read_text())["cells"]
    figures = sum("image/png" in o.get("data", {}) for c in cells for o in c.get("outputs", []))
    shown = browser.evaluate(session, "[...document.querySelectorAll('.cell_output img')]"
                                      ".filter(i => i.complete && i.naturalWidth > 0).length")
    assert shown == figures, f"{page.name}: {shown} of {figures} figures shown"
    # Every figure has words: what it shows and its numbers, never its file name.
    alts = browser.evaluate(session, "[...document.querySelectorAll('.cell_output img')].map(i => i.alt)")
    wordless = [a for a in alts if not a or a.endswith(".png") or not any(c.isdigit() for c in a)]
    assert not wordless, f"{page.name}: figures without alt text stating their data: {wordless}"
    if page.stem.startswith("04_"):  # a page with figures, kept for a person to look at
        png = base64.b64decode(browser.send("Page.captureScreenshot", session, format="png",
                                            captureBeyondViewport=True)["data"])
        (root.parent / f"{page.stem}.png").write_bytes(png)
        assert not blank(png)


def test_missing_executed_lessons_are_named_with_how_to_make_them(tmp_path):
    with pytest.raises(site.SiteError, match="make test"):
        site.build(tmp_path / "nothing", tmp_path / "site", sphinx_build=SPHINX)
