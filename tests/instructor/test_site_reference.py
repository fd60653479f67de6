"""The site's reference pages, staged without building the site (tests/instructor/test_site.py
builds it whole): the instructor guide is one of them, and repository links still lead somewhere."""

import re

from tfdist_instructor import REPO_ROOT, site
from tfdist_instructor.outputs import term_plan


def test_the_instructor_guide_is_a_reference_page_of_the_site_with_its_term_plan(tmp_path):
    assert site.REFERENCE_PAGES["instructor-guide"] == "docs/instructor-guide.md"
    page = site._stage_reference(tmp_path, "instructor-guide", "docs/instructor-guide.md")
    text = (tmp_path / f"{page}.md").read_text()
    assert text.startswith("# Instructor guide")
    assert term_plan.tables(REPO_ROOT).splitlines()[2] in text  # the term plan's header row


def test_links_out_of_docs_point_at_the_repository_file_they_name(tmp_path):
    page = site._stage_reference(tmp_path, "instructor-guide", "docs/instructor-guide.md")
    links = re.findall(r"\]\(([^)]+)\)", (tmp_path / f"{page}.md").read_text())
    repository = site._repository_url()
    assert f"{repository}/exercises/README.md" in links
    assert f"{repository}/docs/stand_in_fidelity.md" in links
    assert not [link for link in links if "/../" in link or not link.startswith(("https:", "#"))]
