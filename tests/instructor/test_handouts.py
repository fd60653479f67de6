"""tfdist_instructor.handouts: every built deck prints offline to one PDF, a page per slide and a
page of its speaker notes, counted with poppler's pdfinfo (``scripts/install_slide_deps.sh``)."""

import argparse
import re
import shutil
import subprocess

import pytest

from tfdist_instructor import handouts, slides

from test_slides import DECKS, _notes, _slides


def _poppler(tool, *args):
    if shutil.which(tool) is None:
        pytest.fail(f"{tool} not found: install poppler-utils with `scripts/install_slide_deps.sh chromium`")
    return subprocess.run([tool, *map(str, args)], check=True, capture_output=True, text=True).stdout


def _pages(pdf):
    return int(re.search(r"^Pages:\s+(\d+)$", _poppler("pdfinfo", pdf), re.M).group(1))


@pytest.fixture(scope="module")
def printed(built_decks, tmp_path_factory):
    """The session's decks printed once; {deck name: (pdf, slides reveal.js counted)}."""
    out = tmp_path_factory.mktemp("handouts")
    return {pdf.stem: (pdf, count) for pdf, count in handouts.print_all(built_decks[0].parent, out).items()}


def test_every_deck_prints_a_page_per_slide_and_a_page_of_its_notes(printed):
    assert sorted(printed) == [deck.stem for deck in DECKS]
    pages = {}
    for deck in DECKS:
        pdf, counted = printed[deck.stem]
        pages[deck.stem] = _pages(pdf)
        assert counted == len(_slides(deck)), f"{deck.stem}: reveal.js laid out {counted} slides"
        assert pages[deck.stem] == handouts.PAGES_PER_SLIDE * len(_slides(deck)), (
            f"{deck.stem}: {pages[deck.stem]} pages for {len(_slides(deck))} slides")
    print(f"\nhandout pages: {pages}")


def test_each_notes_page_follows_its_slide(printed):
    deck = DECKS[0]
    pdf, _ = printed[deck.stem]
    for number, slide in enumerate(_slides(deck)[:3], 1):
        title = _poppler("pdftotext", "-f", 2 * number - 1, "-l", 2 * number - 1, pdf, "-")
        notes = " ".join(_poppler("pdftotext", "-f", 2 * number, "-l", 2 * number, pdf, "-").split())
        heading = slide[0].source.splitlines()[0].lstrip("# ").replace("`", "")
        assert heading.split()[0].upper() in title.upper(), (number, heading, title[:80])
        assert " ".join(_notes(slide)[0].source.split()[:6]) in notes, (number, notes[:120])


def test_missing_built_decks_say_how_to_build_them(tmp_path):
    with pytest.raises(FileNotFoundError, match="make slides"):
        handouts.built_decks(tmp_path)


def test_an_unknown_deck_is_refused_with_the_built_ones(built_decks):
    with pytest.raises(ValueError, match="01_data_parallelism"):
        handouts.built_decks(built_decks[0].parent, ["no_such_deck"])


def test_handouts_subcommand_takes_the_decks_folder_an_output_folder_and_names():
    parser = argparse.ArgumentParser()
    handouts.add_cli(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["handouts", "--slides", "s", "--out", "h", "03_custom_loops"])
    assert (args.slides, args.out, args.decks, args.func) == ("s", "h", ["03_custom_loops"], handouts._run_cli)
    defaults = parser.parse_args(["handouts"])
    assert (defaults.slides, defaults.out) == ("build/slides", "build/handouts") and slides.DECKS_DIR.is_dir()
