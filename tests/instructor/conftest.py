"""Fixtures shared by the instructor tooling's tests: the browser, and the decks and the site built
once per session (the slide, handout, site, accessibility and deck-number tests all read the same
build)."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chromium import HeadlessChromium
from tfdist_instructor import REPO_ROOT, site, slides

EXECUTED = Path(os.environ.get("TFDIST_EDU_EXECUTED_DIR", REPO_ROOT / "build" / "executed"))
SPHINX = REPO_ROOT / ".venv-site" / "bin" / "sphinx-build"


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium for one module's page tests, closed after them: a test that checks no
    child process is left (the compatibility matrix's) may come next."""
    binary = shutil.which("chromium")
    if binary is None:
        pytest.fail("chromium not found: install it with `scripts/install_slide_deps.sh chromium`")
    chromium = HeadlessChromium(binary)
    yield chromium
    chromium.close()


class _ExecutedDecks(dict):
    """Executed deck notebooks by deck name; a deck not in it is executed when first asked for."""

    def __missing__(self, name):
        self[name] = slides.execute_deck(slides.deck_paths([name])[0])
        return self[name]


@pytest.fixture(scope="session")
def deck_notebooks():
    """The session's executed deck notebooks by name, filled by the deck build (``built_decks``)."""
    return _ExecutedDecks()


@pytest.fixture(scope="session")
def built_decks(request, tmp_path_factory, deck_notebooks):
    """Every deck built once (fast mode, from conftest) into a temporary folder; prints the time.

    Two decks are built at once (one alone keeps less than one of CI's two cores busy), and when
    the session builds the site too, the session's tour runs meanwhile (``course_tour``).

    For a local loop, ``TFDIST_EDU_BUILT_SLIDES=build/slides`` reuses the decks `make slides` left
    there instead (CI never sets it: there the decks are built from the notebooks under test)."""
    if os.environ.get("TFDIST_EDU_BUILT_SLIDES"):
        built = sorted(Path(os.environ["TFDIST_EDU_BUILT_SLIDES"]).resolve().glob("[0-9][0-9]_*.html"))
        assert [p.stem for p in built] == [p.stem for p in slides.deck_paths()], "rebuild: make slides"
        return built
    if any("built_site" in getattr(item, "fixturenames", ()) for item in request.session.items):
        request.getfixturevalue("course_tour")  # started now, so it runs while the decks build
    out = tmp_path_factory.mktemp("slides")
    start = time.perf_counter()
    paths = slides.build_all(out, jobs=2, executed=deck_notebooks)
    print(f"\nbuilt {len(paths)} decks in {time.perf_counter() - start:.0f} s")
    return paths


@pytest.fixture(scope="session")
def executed_decks(request, deck_notebooks):
    """The executed deck notebooks by name (``"01_data_parallelism"``): those the session's deck
    build ran (``built_decks``), else, with ``TFDIST_EDU_BUILT_SLIDES`` (decks reused, nothing
    executed) or no deck build in this session, each deck executed here when first asked for."""
    if any("built_decks" in getattr(item, "fixturenames", ()) for item in request.session.items):
        request.getfixturevalue("built_decks")
    return deck_notebooks


def _executed(tmp_path_factory):
    if list((EXECUTED / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        return EXECUTED
    folder = tmp_path_factory.mktemp("executed")
    print(f"\nno executed lessons in {EXECUTED}: running them in fast mode into {folder}")
    subprocess.run([sys.executable, "-m", "pytest", "-q", "--nbval-lax", "-p", "no:cacheprovider", "notebooks"],
                   cwd=REPO_ROOT, check=True, env={**os.environ, "TFDIST_EDU_FAST": "1",
                                                   "TFDIST_EDU_EXECUTED_DIR": str(folder)})
    return folder


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, built_decks, course_tour):
    """The site with every executed lesson, the session's decks and a short tour: (folder, executed).

    The lessons are the copies the normal-mode nbval run leaves in build/executed/ (``make test``
    runs it before these tests); without them they are run here in fast mode first."""
    work = tmp_path_factory.mktemp("site")
    executed = _executed(tmp_path_factory)
    tour = course_tour.result()
    if tour.returncode:
        raise RuntimeError(f"the tour exited with {tour.returncode}:\n{tour.stderr[-3000:]}")
    start = time.perf_counter()
    site.build(executed, work / "site", slides=built_decks[0].parent, tour=course_tour.out, sphinx_build=SPHINX)
    print(f"\nsite built in {time.perf_counter() - start:.0f} s")
    return work / "site", executed
