"""Print the built decks to PDF handouts, slides plus speaker notes, offline in headless Chromium.

Each deck opens from disk in reveal.js's print view (``?print-pdf``, reveal.js's documented way
to export a PDF: https://revealjs.com/pdf-export/) with ``showNotes=separate-page``, so every
slide's page is followed by a page of its speaker notes, and ``pdfMaxPagesPerSlide=1``, so a
slide is one page. Chromium saves it with the DevTools protocol's ``Page.printToPDF`` at the
page size reveal.js sets (``preferCSSPageSize``). A deck of N slides gives 2 N pages.
"""

import base64
import time
from pathlib import Path

from tfdist_instructor import browser

PRINT_QUERY = "?print-pdf&showNotes=separate-page&pdfMaxPagesPerSlide=1"
PAGES_PER_SLIDE = 2  # the slide, then its notes


def built_decks(slides_dir, decks=None):
    """The built deck pages (``NN_*.html``) in ``slides_dir``, or those named in ``decks``."""
    slides_dir = Path(slides_dir)
    pages = sorted(slides_dir.glob("[0-9][0-9]_*.html"))
    if not pages:
        raise FileNotFoundError(f"no built decks in {slides_dir}: build them first with "
                                "`make slides` (tfdist-instructor slides)")
    if decks:
        by_name = {page.stem: page for page in pages}
        unknown = [d for d in decks if d not in by_name]
        if unknown:
            raise ValueError(f"unknown deck(s) {', '.join(unknown)}: built are {', '.join(by_name)}")
        pages = [by_name[d] for d in decks]
    return pages


def print_deck(chromium, page, pdf):
    """Print one built deck to ``pdf`` with its speaker notes; return the number of slides."""
    target, session = chromium.open_offline_tab()
    try:
        chromium.send("Page.addScriptToEvaluateOnNewDocument", session,
                      source="document.addEventListener('pdf-ready', () => { window.pdfReady = true; });")
        chromium.send("Page.navigate", session, url=Path(page).resolve().as_uri() + PRINT_QUERY)
        chromium.wait_until(session, "window.pdfReady === true", f"{page.name} was not laid out for print")
        slides = chromium.evaluate(session, "Reveal.getTotalSlides()")
        result = chromium.send("Page.printToPDF", session, timeout=180, printBackground=True,
                               preferCSSPageSize=True, displayHeaderFooter=False)
        Path(pdf).write_bytes(base64.b64decode(result["data"]))
    finally:
        chromium.send("Target.closeTarget", targetId=target)
    return slides


def print_all(slides_dir="build/slides", out_dir="build/handouts", decks=None, verbose=False):
    """Print every built deck (or those named) into ``out_dir``; return {pdf path: slides}."""
    pages = built_decks(slides_dir, decks)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    printed = {}
    with browser.HeadlessChromium(browser.find_chromium()) as chromium:
        for page in pages:
            start = time.perf_counter()
            pdf = out / f"{page.stem}.pdf"
            printed[pdf] = print_deck(chromium, page, pdf)
            if verbose:
                print(f"{pdf}  ({printed[pdf]} slides, {time.perf_counter() - start:.0f} s)", flush=True)
    return printed


def add_cli(subparsers):
    """Register ``handouts [--slides DIR] [--out DIR] [DECK ...]``; return the parser."""
    parser = subparsers.add_parser(
        "handouts", help="print the built decks to PDF, slides plus speaker notes",
        description="Print each built deck to a PDF handout (a page per slide, then a page of its "
                    "notes) in headless Chromium, offline.")
    parser.add_argument("--slides", default="build/slides", help="built decks (default: build/slides)")
    parser.add_argument("--out", default="build/handouts", help="output folder (default: build/handouts)")
    parser.add_argument("decks", nargs="*", help="deck names such as 01_data_parallelism (default: all)")
    parser.set_defaults(func=_run_cli)
    return parser


def _run_cli(args):
    printed = print_all(args.slides, args.out, args.decks or None, verbose=True)
    print(f"printed {len(printed)} handout(s) into {args.out}/")
    return 0
