"""tfdist_instructor.site_access: the theme's unnamed controls get names (axe-core's summary-name and
label-content-name-mismatch rules); the markup is the theme's own, as sphinx-build writes it."""

from tfdist_instructor import site_access

TOGGLE = ('<li class="toctree-l1 has-children"><a class="reference internal" href="exercises/01_global_batch/'
          '01_global_batch.html">Exercise 1: Global batch</a><details><summary><span class="toctree-toggle" '
          'role="presentation"><i class="fa-solid fa-chevron-down"></i></span></summary><ul>')
OPEN_TOGGLE = ('<a class="current reference internal" href="#">Lesson <code>2</code> &amp; more</a>'
               '<details open="open"><summary><span class="toctree-toggle" role="presentation">')
SEARCH = ('<button class="btn search-button-field search-button__button pst-js-only" title="Search" '
          'aria-label="Search" data-bs-placement="bottom" data-bs-toggle="tooltip">')
MODE = ('<button class="btn btn-sm nav-link pst-navbar-icon theme-switch-button pst-js-only" '
        'aria-label="Color mode" data-bs-title="Color mode"  data-bs-placement="bottom">')


def test_each_sidebar_toggle_is_named_after_the_entry_it_opens():
    text, fixes = site_access.repair_page(TOGGLE + OPEN_TOGGLE)
    assert fixes == 2
    assert '<summary aria-label="Sections of Exercise 1: Global batch">' in text
    assert '<details open="open"><summary aria-label="Sections of Lesson 2 &amp; more">' in text


def test_the_search_button_is_named_by_its_visible_text_and_the_mode_button_by_its_icons():
    text, fixes = site_access.repair_page(SEARCH + MODE)
    assert fixes == 2 and 'aria-label="Search"' not in text and 'title="Search"' in text
    assert f'aria-label="{site_access.MODE_NAME}"' in text


def test_markup_the_repairs_do_not_know_is_left_alone_and_counted_as_no_fix():
    page = '<summary>Details</summary><button aria-label="Search">Search</button>'
    assert site_access.repair_page(page) == (page, 0)


def test_repair_rewrites_pages_but_not_static_files_or_decks(tmp_path):
    (tmp_path / "_static").mkdir()
    (tmp_path / "slides").mkdir()
    for path in (tmp_path / "index.html", tmp_path / "_static" / "x.html", tmp_path / "slides" / "01_a.html"):
        path.write_text(SEARCH)
    assert site_access.repair(tmp_path) == 1
    assert 'aria-label="Search"' not in (tmp_path / "index.html").read_text()
    assert (tmp_path / "_static" / "x.html").read_text() == SEARCH == (tmp_path / "slides" / "01_a.html").read_text()
