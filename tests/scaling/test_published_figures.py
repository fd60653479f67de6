"""Every figure lesson 5 and deck 5 use from outside comes with a source a student can open."""

import re

from tfdist_edu import cost_model, published_figures


def test_the_cost_model_hands_out_the_same_figures():
    assert cost_model.PUBLISHED is published_figures.PUBLISHED


def test_every_published_figure_names_a_title_an_address_and_a_date():
    for key, figure in cost_model.PUBLISHED.items():
        assert figure.value > 0 and figure.unit and figure.what, key
        assert figure.title and figure.date and figure.url.startswith("https://"), key
        assert figure.title in str(figure) and figure.url in str(figure) and figure.date in str(figure)


def test_figures_on_github_are_linked_at_the_commit_that_holds_them():
    on_github = [f.url for f in cost_model.PUBLISHED.values() if "://github.com/" in f.url
                 and "nccl-tests" not in f.url]
    assert on_github and all(re.search(r"/blob/[0-9a-f]{40}/", url) for url in on_github), on_github
