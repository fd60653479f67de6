"""Repairs to the site's theme markup that axe-core (tests/instructor/test_accessibility.py) finds
on every page built with pydata-sphinx-theme 0.17 under sphinx-book-theme 1.3:

- ``summary-name`` (serious): the sidebar's expand/collapse toggles are ``<summary>`` elements
  holding only a decorative chevron (pydata_sphinx_theme/toctree.py), so a screen reader announces
  an unnamed control. Each gets a name from the entry it opens: "Sections of Exercise 1: ...".
- ``label-content-name-mismatch`` (serious): the search button reads "Search Ctrl+K" but is labelled
  "Search" only (components/search-button-field.html), so a voice-control user saying what they
  see does not reach it. Without the ``aria-label`` its name is its visible text. The colour-mode
  button shows one icon titled "Light", "Dark" or "System Settings" and is labelled "Color mode":
  its label gets all three.

The pages are rewritten in place after ``sphinx-build``; ``repair(out)`` returns how many fixes it
made, so a theme upgrade that changes the markup shows as zero.
"""

import html
import re
from pathlib import Path

TOGGLE = re.compile(r'(<a class="(?:current )?reference internal" href="[^"]*">(.*?)</a><details(?: open="open")?>)<summary>')
SEARCH_LABEL = re.compile(r'(<button class="btn search-button-field[^"]*"[^>]*?) aria-label="[^"]*"')
MODE_LABEL = re.compile(r'(<button class="[^"]*theme-switch-button[^"]*"[^>]*?) aria-label="Color mode"')
MODE_NAME = "Color mode: Light, Dark or System Settings"  # each icon's title is its visible name


def _name_toggle(match):
    entry = html.unescape(re.sub(r"<[^>]+>", "", match.group(2))).strip()
    return f'{match.group(1)}<summary aria-label="{html.escape(f"Sections of {entry}")}">'


def repair_page(text):
    """Return ``(text, fixes)``: the page with named toggles and a search button named by its text."""
    text, toggles = TOGGLE.subn(_name_toggle, text)
    text, searches = SEARCH_LABEL.subn(r"\1", text)
    text, modes = MODE_LABEL.subn(rf'\1 aria-label="{MODE_NAME}"', text)
    return text, toggles + searches + modes


def repair(out):
    """Repair every HTML page under ``out`` in place; return the number of fixes made."""
    fixes = 0
    for page in Path(out).rglob("*.html"):
        if "_static" in page.parts or "slides" in page.parts:
            continue
        text, count = repair_page(page.read_text(encoding="utf-8"))
        if count:
            page.write_text(text, encoding="utf-8")
            fixes += count
    return fixes
