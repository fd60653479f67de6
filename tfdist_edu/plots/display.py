"""How a figure reaches a notebook: its PNG, and its alt text where readers see it.

``import tfdist_edu`` registers ``display_bundle`` for every matplotlib figure in IPython, so a
figure returned at the end of a cell, passed to ``display()`` or shown by ``plt.show()`` is
displayed as:

- ``image/png`` with ``alt`` in its metadata (read by the course site and the decks);
- ``text/html``: the same PNG as ``<img alt="..." src="data:image/png;base64,...">``. Jupyter,
  Colab, GitHub and nbconvert render the HTML first, so the alt text reaches the page there
  too (nbconvert 7.17 ignores the metadata's alt and writes a placeholder);
- ``text/plain``: the alt text itself, for terminals and for the text of a notebook.

``tfdist_edu.figure_html`` is the one place that writes that ``<img>``; the instructor tooling
rebuilds it with it after re-compressing a stored PNG, so the two never differ.
"""

import base64

from tfdist_edu.figure_html import figure_html, parse_figure_html

__all__ = ["display_bundle", "figure_html", "parse_figure_html"]


def display_bundle(fig, include=None, exclude=None):
    """IPython's display of a figure: PNG, the same PNG in HTML with its alt, and the alt as text."""
    from IPython.core.pylabtools import print_figure

    from tfdist_edu.plots.alt import alt_text

    text = alt_text(fig)
    png = print_figure(fig, "png", bbox_inches="tight")
    png_b64 = base64.b64encode(png).decode("ascii")
    return ({"image/png": png, "text/html": figure_html(png_b64, text), "text/plain": text},
            {"image/png": {"alt": text}})
