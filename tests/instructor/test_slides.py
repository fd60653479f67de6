"""tfdist_instructor.slides: every deck builds, is talk-sized with speaker notes, and renders offline.

The decks are built once per session (fast mode, from conftest) and opened in Debian's headless
Chromium with the network switched off; install it and reveal.js with
``scripts/install_slide_deps.sh``.
"""

import argparse
import base64
import re
import time
from html.parser import HTMLParser

import nbformat
import pytest

from tfdist_instructor import slides

from chromium import blank, problems

DECKS = slides.deck_paths()
TALK_SLIDES = range(8, 19)  # 20-30 minutes at about two minutes a slide, objectives and questions aside
OBJECTIVES = "## Learning objectives"
CHECK = "## Check your understanding"
QUESTIONS = range(2, 5)
README = slides.DECKS_DIR / "README.md"
MIN_NOTES_CHARS = 120  # a sentence or two a presenter can actually use
SLIDE_HEIGHT = 720  # reveal height set by slides.export_deck


def _slides(notebook_path):
    """The deck's slides as lists of cells (skipped cells left out), in order."""
    cells = nbformat.read(notebook_path, as_version=4).cells
    grouped = []
    for cell in cells:
        kind = cell.metadata.get("slideshow", {}).get("slide_type", "-")
        if kind == "skip":
            continue
        if kind in ("slide", "subslide") or not grouped:
            grouped.append([])
        grouped[-1].append(cell)
    return grouped


def _notes(slide):
    return [c for c in slide if c.metadata.get("slideshow", {}).get("slide_type") == "notes"]


def _heading(slide):
    return slide[0].source.split("\n", 1)[0] if slide[0].cell_type == "markdown" else ""


class _DeckHTML(HTMLParser):
    """Counts slides and speaker notes, and lists every resource the page would load."""

    LOADS = {"script": "src", "link": "href", "img": "src", "iframe": "src", "source": "src",
             "embed": "src", "video": "src", "audio": "src", "object": "data"}

    def __init__(self, text):
        super().__init__()
        self.depth = 0
        self.slides = 0
        self.notes = 0
        self.loads = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section":
            self.depth += 1
            self.slides += self.depth == 2  # nbconvert nests each slide in a column section
        elif tag == "aside" and "notes" in (attrs.get("class") or "").split():
            self.notes += 1
        if attrs.get(self.LOADS.get(tag, "")):
            self.loads.append(attrs[self.LOADS[tag]])

    def handle_endtag(self, tag):
        if tag == "section":
            self.depth -= 1


@pytest.fixture(scope="module")
def built(built_decks):
    """Every deck, built once per session (conftest.py)."""
    return built_decks


def test_every_deck_is_talk_sized():
    assert len(DECKS) == 8, [d.name for d in DECKS]
    for deck in DECKS:
        talk = [s for s in _slides(deck) if not _heading(s).startswith((OBJECTIVES, CHECK))]
        assert len(talk) in TALK_SLIDES, f"{deck.name}: {len(talk)} slides besides objectives and questions"


def test_every_deck_opens_with_its_learning_objectives():
    for deck in DECKS:
        title, objectives = _slides(deck)[:2]
        assert _heading(title).startswith("# "), f"{deck.name}: the first slide is the title"
        assert _heading(objectives) == OBJECTIVES, f"{deck.name}: slide 2 is {_heading(objectives)!r}"
        bullets = [line for line in objectives[0].source.splitlines() if line.startswith("- ")]
        assert len(bullets) in range(3, 6), f"{deck.name}: {len(bullets)} objectives, not 3 to 5"


def test_every_deck_closes_with_questions_answered_in_the_speaker_notes():
    for deck in DECKS:
        headings = [_heading(s) for s in _slides(deck)]
        asked = [i for i, h in enumerate(headings) if h.startswith(CHECK)]
        assert len(asked) in QUESTIONS, f"{deck.name}: {len(asked)} check-your-understanding slides"
        assert asked == list(range(asked[0], asked[0] + len(asked))), f"{deck.name}: questions apart"
        closing = headings[asked[0] - 1: asked[-1] + 2]
        assert "## Takeaways" in (headings[-1], headings[asked[0] - 1]) and asked[-1] >= len(headings) - 2, (
            f"{deck.name}: the questions must close the deck, beside Takeaways: {closing}")
        for number, index in enumerate(asked, 1):
            slide = _slides(deck)[index]
            assert headings[index] == f"{CHECK} ({number} of {len(asked)})", headings[index]
            assert "?" in slide[0].source, f"{deck.name}: {headings[index]} asks no question"
            answer = " ".join(c.source for c in _notes(slide))
            assert answer.startswith("Answer:"), f"{deck.name}: {headings[index]}: notes {answer[:60]!r}"


def test_readme_states_each_decks_slide_count():
    rows = re.findall(r"^\| `(\d\d_\w+)\.ipynb` \|.*\| (\d+) \|$", README.read_text(), re.M)
    stated = {name: int(count) for name, count in rows}
    assert stated == {deck.stem: len(_slides(deck)) for deck in DECKS}, "update the table in slides/README.md"


def test_every_slide_has_speaker_notes_a_presenter_can_use():
    for deck in DECKS:
        for number, slide in enumerate(_slides(deck), 1):
            notes = " ".join(cell.source for cell in _notes(slide))
            assert len(notes) >= MIN_NOTES_CHARS, f"{deck.name} slide {number}: notes {notes!r}"


def test_figures_come_from_code_not_pasted_images():
    for deck in DECKS:
        for cell in nbformat.read(deck, as_version=4).cells:
            if cell.cell_type == "markdown":
                assert "![" not in cell.source and "<img" not in cell.source, deck.name
                assert not cell.get("attachments"), deck.name
            else:
                assert not cell.get("outputs"), f"{deck.name}: commit decks without outputs"


def test_build_writes_one_page_per_deck_beside_a_local_reveal(built):
    assert [path.stem for path in built] == [deck.stem for deck in DECKS]
    out = built[0].parent
    assert (out / slides.REVEAL_FOLDER / "dist" / "reveal.js").is_file()
    assert (out / slides.REVEAL_FOLDER / "plugin" / "notes" / "notes.js").is_file()


def test_built_pages_keep_slides_and_notes_and_load_only_local_files(built):
    for deck, page in zip(DECKS, built):
        html = _DeckHTML(page.read_text(encoding="utf-8"))
        assert html.slides == len(_slides(deck)), page.name
        assert html.notes >= html.slides, page.name
        for url in html.loads:
            assert not url.startswith(("http:", "https:", "//")), f"{page.name} loads {url}"
            assert url.startswith("data:") or (page.parent / url).is_file(), f"{page.name}: {url} missing"


@pytest.mark.parametrize("index", range(len(DECKS)), ids=[deck.stem for deck in DECKS])
def test_deck_renders_offline_in_headless_chromium(built, browser, index):
    page = built[index]
    target, session = browser.open_offline_tab()
    browser.send("Emulation.setDeviceMetricsOverride", session, width=1280, height=720,
                 deviceScaleFactor=1, mobile=False)  # a projector's 720p
    browser.events.clear()
    browser.send("Page.navigate", session, url=page.as_uri())
    deadline = time.monotonic() + 15
    while not browser.evaluate(session, "typeof Reveal !== 'undefined' && Reveal.isReady()"):
        assert time.monotonic() < deadline, f"reveal.js never became ready; {problems(browser.events)}"
        time.sleep(0.2)
    assert browser.evaluate(session, "!!document.querySelector('.reveal.ready section.present')")
    assert browser.evaluate(session, "Reveal.getTotalSlides()") == len(_slides(DECKS[index]))

    time.sleep(0.5)  # fonts and images paint
    first = base64.b64decode(browser.send("Page.captureScreenshot", session, format="png")["data"])
    (page.parent / f"{page.stem}.first.png").write_bytes(first)
    assert not blank(first), f"{page.name}: the first slide rendered blank"

    # Visit every slide: slide-change handlers run, and no slide may spill off the screen.
    overflowing = []
    for h in range(len(_slides(DECKS[index]))):
        browser.evaluate(session, f"Reveal.slide({h})")
        height = browser.evaluate(session, "Reveal.getCurrentSlide().scrollHeight")
        if height > SLIDE_HEIGHT:
            overflowing.append((h + 1, height))
    browser.send("Target.closeTarget", targetId=target)
    assert not problems(browser.events), problems(browser.events)
    assert not overflowing, f"{page.name}: slides (number, height) taller than {SLIDE_HEIGHT}: {overflowing}"


def test_speaker_view_opens_offline_and_shows_the_slide_notes(built, browser):
    target = browser.send("Target.createTarget", url="about:blank")["targetId"]
    session = browser.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
    browser.send("Runtime.enable", session)
    browser.send("Network.emulateNetworkConditions", session, offline=True, latency=0,
                 downloadThroughput=-1, uploadThroughput=-1)
    browser.send("Page.navigate", session, url=built[0].as_uri() + "#/1")
    deadline = time.monotonic() + 15
    while not browser.evaluate(session, "typeof Reveal !== 'undefined' && Reveal.isReady()"):
        assert time.monotonic() < deadline, "reveal.js never became ready"
        time.sleep(0.2)
    before = {t["targetId"] for t in browser.send("Target.getTargets")["targetInfos"]}
    for kind in ("keyDown", "keyUp"):  # the presenter's key: a real key press, so no pop-up blocker
        browser.send("Input.dispatchKeyEvent", session, type=kind, key="s", code="KeyS",
                     windowsVirtualKeyCode=83, **({"text": "s"} if kind == "keyDown" else {}))
    deadline = time.monotonic() + 15
    popups = []
    while not popups:
        assert time.monotonic() < deadline, "pressing S opened no speaker view"
        time.sleep(0.2)
        popups = [t["targetId"] for t in browser.send("Target.getTargets")["targetInfos"]
                  if t["type"] == "page" and t["targetId"] not in before]
    view = browser.send("Target.attachToTarget", targetId=popups[0], flatten=True)["sessionId"]
    speaker_notes = ""
    while not speaker_notes:
        assert time.monotonic() < deadline, "the speaker view never showed the notes"
        time.sleep(0.2)
        speaker_notes = browser.evaluate(
            view, "(document.querySelector('.speaker-controls-notes .value') || {}).innerText || ''")
    for page in (popups[0], target):
        browser.send("Target.closeTarget", targetId=page)
    second_slide_notes = _notes(_slides(DECKS[0])[1])[0].source
    assert " ".join(second_slide_notes.split()[:6]) in " ".join(speaker_notes.split())


def test_a_failing_cell_fails_the_build(tmp_path):
    deck = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("raise RuntimeError('broken slide')")])
    path = tmp_path / "01_broken.ipynb"
    nbformat.write(deck, path)
    with pytest.raises(slides.DeckError, match="01_broken.ipynb") as failure:
        slides.execute_deck(path)
    assert "broken slide" in str(failure.value)


def test_unknown_deck_name_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="01_data_parallelism"):
        slides.deck_paths(["no_such_deck"])


def test_missing_reveal_says_how_to_install_it(monkeypatch, tmp_path):
    monkeypatch.delenv(slides.REVEAL_ENV, raising=False)
    monkeypatch.setattr(slides, "REVEAL_DIR", tmp_path / "node_modules" / "reveal.js")
    with pytest.raises(FileNotFoundError, match="install_slide_deps.sh"):
        slides.find_reveal()


def test_slides_subcommand_takes_an_output_folder_and_deck_names():
    parser = argparse.ArgumentParser()
    slides.add_cli(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["slides", "--out", "decks", "02_single_machine"])
    assert (args.out, args.decks, args.func) == ("decks", ["02_single_machine"], slides._run_cli)
    assert parser.parse_args(["slides"]).out == "build/slides"


def test_a_figures_alt_text_reaches_the_built_slide(tmp_path):
    import io

    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(2, 1))
    axes.bar(["1 replica", "2 replicas"], [3.1, 3.4])
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    plt.close(figure)
    png = base64.b64encode(buffer.getvalue()).decode()
    alt = "epoch time for 1 and 2 replicas; 1 replica fastest at 3.1 s"
    cell = nbformat.v4.new_code_cell("plots.plot_epoch_times(runs)", outputs=[
        nbformat.v4.new_output("display_data", data={"image/png": png}, metadata={"image/png": {"alt": alt}}),
        nbformat.v4.new_output("display_data", data={"image/png": png})])
    cell.metadata["slideshow"] = {"slide_type": "slide"}
    html = slides.export_deck(nbformat.v4.new_notebook(cells=[cell]), "01_alt", tmp_path).read_text()
    images = re.findall(r"<img\b[^>]*>", html)
    assert [re.search(r'alt="([^"]*)"', image).group(1) for image in images] == [
        alt, "No description has been provided for this image"]  # nbconvert's placeholder


def test_every_figure_on_a_slide_carries_the_alt_text_drawn_from_its_data(built):
    placeholder = "No description has been provided for this image"
    for page in built:
        images = re.findall(r"<img\b[^>]*>", page.read_text(encoding="utf-8"))
        alts = [(re.search(r'alt="([^"]*)"', image) or [None, ""])[1] for image in images]
        assert all(alt and alt != placeholder for alt in alts), f"{page.name}: figures' alt text {alts}"
