"""A figure as HTML: its PNG inline in an ``<img>`` that carries its alt text.

Jupyter, Colab, GitHub and nbconvert render a ``text/html`` output before an ``image/png`` one,
and nbconvert 7.17 ignores the PNG's ``alt`` metadata, so the alt text travels in this HTML
(``tfdist_edu.plots.display`` shows every figure so). The instructor tooling rebuilds it with
``figure_html`` after re-compressing a stored PNG. No matplotlib or TensorFlow here.
"""

import html
import re

_IMG = re.compile(r'<img alt="([^"]*)" src="data:image/png;base64,([^"]*)"')


def figure_html(png_b64, alt):
    """The ``text/html`` of a figure: its PNG (base64 text) inline, with ``alt``."""
    png_b64 = "".join(png_b64.split())
    return (f'<img alt="{html.escape(alt, quote=True)}" src="data:image/png;base64,{png_b64}" '
            f'style="max-width: 100%">')


def parse_figure_html(text):
    """Return (alt, png_b64) of a ``figure_html`` output, or None when ``text`` is not one."""
    match = _IMG.match(text if isinstance(text, str) else "".join(text or []))
    return (html.unescape(match.group(1)), match.group(2)) if match else None
