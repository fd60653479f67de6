"""Every built deck and every page of the built site pass axe-core (from the npm registry) in
headless Chromium with no serious or critical violation, and a deck is driven by the keyboard
alone. The decks and site come from the session's builds (conftest.py).

A deck shows one slide at a time (reveal.js hides the others from assistive technology), so each
deck is audited twice: as presented (page structure, controls, the first slide) and in reveal.js's
print view with the notes shown, where every slide and its notes are laid out at once.
"""

import time

import pytest

import axe
from chromium import problems
from test_site import _pages
from test_slides import DECKS

PRINT_VIEW = "?print-pdf&showNotes=true"
TABS_AT_ONCE = 2  # site pages audited at once: one axe keeps one of CI's two cores busy


@pytest.fixture(scope="module")
def axe_source():
    return axe.source()


def _audit(browser, urls, axe_source, reveal):
    """Each page's serious and critical axe violations, the pages open at once in windows of their
    own (visible, not background tabs), so axe runs in each page's renderer at the same time."""
    tabs = [browser.open_offline_tab(window=True) for _ in urls]
    try:
        browser.send_each([("Page.navigate", session, {"url": url}) for url, (_, session) in zip(urls, tabs)])
        for url, (_, session) in zip(urls, tabs):
            browser.wait_until(session, "document.readyState === 'complete'", f"{url} did not load")
            if reveal:
                browser.wait_until(session, "typeof Reveal !== 'undefined' && Reveal.isReady()",
                                   f"{url}: no reveal.js")
        return [axe.blocking(found) for found in axe.run_each(browser, [s for _, s in tabs], axe_source)]
    finally:
        for target, _ in tabs:
            browser.send("Target.closeTarget", targetId=target)


@pytest.mark.parametrize("index", range(len(DECKS)), ids=[deck.stem for deck in DECKS])
def test_deck_has_no_serious_or_critical_axe_violation(built_decks, browser, axe_source, index):
    page = built_decks[index]
    views = ("", PRINT_VIEW)
    for view, found in zip(views, _audit(browser, [page.as_uri() + view for view in views], axe_source, reveal=True)):
        assert not found, f"{page.name}{view}:\n" + "\n".join(axe.summary(found))


def test_every_site_page_has_no_serious_or_critical_axe_violation(built_site, browser, axe_source):
    root, _ = built_site
    failing = {}
    pages = _pages(root)
    for start in range(0, len(pages), TABS_AT_ONCE):
        batch = pages[start:start + TABS_AT_ONCE]
        for page, found in zip(batch, _audit(browser, [p.as_uri() for p in batch], axe_source, reveal=False)):
            if found:
                failing[str(page.relative_to(root))] = axe.summary(found)
    assert not failing, "\n".join(f"{page}:\n  " + "\n  ".join(lines) for page, lines in failing.items())


def _press(browser, session, key, code, keycode):
    for kind in ("keyDown", "keyUp"):
        browser.send("Input.dispatchKeyEvent", session, type=kind, key=key, code=code,
                     windowsVirtualKeyCode=keycode, **({"text": key} if kind == "keyDown" and key == " " else {}))
    time.sleep(0.05)


def test_a_deck_is_driven_by_the_keyboard_alone(built_decks, browser):
    target, session = browser.open_offline_tab()
    browser.events.clear()
    browser.send("Page.navigate", session, url=built_decks[2].as_uri())
    browser.wait_until(session, "typeof Reveal !== 'undefined' && Reveal.isReady()", "reveal.js not ready")
    slide = "Reveal.getIndices().h"
    steps = [("ArrowRight", "ArrowRight", 39, 1), (" ", "Space", 32, 2), ("ArrowRight", "ArrowRight", 39, 3),
             ("ArrowLeft", "ArrowLeft", 37, 2), ("End", "End", 35, None), ("Home", "Home", 36, 0)]
    for key, code, keycode, expected in steps:
        _press(browser, session, key, code, keycode)
        expected = browser.evaluate(session, "Reveal.getTotalSlides() - 1") if expected is None else expected
        assert browser.evaluate(session, slide) == expected, f"after {code}: slide {browser.evaluate(session, slide)}"
    # No keyboard trap: after Tab has moved focus into the slide, the arrows still change slides.
    for _ in range(4):
        _press(browser, session, "Tab", "Tab", 9)
    focused = browser.evaluate(session, "document.activeElement.tagName")
    _press(browser, session, "ArrowRight", "ArrowRight", 39)
    assert browser.evaluate(session, slide) == 1, f"focus on {focused} kept the arrow keys from the deck"
    browser.send("Target.closeTarget", targetId=target)
    assert not problems(browser.events), problems(browser.events)
