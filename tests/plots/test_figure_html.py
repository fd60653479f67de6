"""A figure's alt text reaches the page: nbconvert's HTML, Colab and GitHub render the figure's
``text/html`` output, ``<img alt=...>``, which carries it (they ignore the PNG's metadata)."""

import base64
import io
import re

import matplotlib.pyplot as plt
import nbclient
import nbformat
import pytest
from nbconvert import HTMLExporter
from PIL import Image

from tfdist_edu import plots
from tfdist_edu.plots import display

PLACEHOLDER = "No description has been provided for this image"


def rendered_alts(nb):
    """The alt text of every <img> in nbconvert's HTML of ``nb``, in order."""
    body, _ = HTMLExporter().from_notebook_node(nb)
    return [re.search(r'alt="([^"]*)"', tag).group(1) if "alt=" in tag else ""
            for tag in re.findall(r"<img\b[^>]*>", body)]


def _two_bars():
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.bar(["1 replica", "2 replicas"], [3.1, 3.4])
    ax.set_title("epoch time")
    plt.close(fig)
    return fig


def test_a_figure_displays_its_png_and_the_same_png_in_html_with_its_alt():
    data, metadata = display.display_bundle(_two_bars())
    alt, png_b64 = display.parse_figure_html(data["text/html"])
    assert alt == data["text/plain"] == metadata["image/png"]["alt"]
    assert "Highest: 2 replicas at 3.4" in alt
    assert base64.b64decode(png_b64) == data["image/png"]


def test_an_alt_with_quotes_and_angle_brackets_survives_the_html():
    fig = plots.set_alt(_two_bars(), 'a "quoted" <b>bold</b> & plain alt')
    data, _ = display.display_bundle(fig)
    assert display.parse_figure_html(data["text/html"])[0] == 'a "quoted" <b>bold</b> & plain alt'
    assert "<b>" not in data["text/html"]


def test_nbconvert_html_shows_the_alt_of_a_displayed_figure_not_its_placeholder():
    data, metadata = display.display_bundle(_two_bars())
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "plots.plot_epoch_times(runs)",
        outputs=[nbformat.v4.new_output("execute_result", data={
            "image/png": base64.b64encode(data["image/png"]).decode(), "text/html": data["text/html"],
            "text/plain": data["text/plain"]}, metadata=metadata, execution_count=1)])])
    assert rendered_alts(nb) == [data["text/plain"]]


@pytest.mark.slow
@pytest.mark.parametrize("how", ["the cell's value", "plt.show()", "display(fig)"])
def test_in_a_kernel_every_way_a_lesson_shows_a_figure_renders_with_its_alt(how):
    show = {"the cell's value": "fig",
            "plt.show()": "plt.show()",
            "display(fig)": "from IPython.display import display\ndisplay(fig)"}[how]
    setup = ("import matplotlib.pyplot as plt\nimport tfdist_edu\n"
             "fig, ax = plt.subplots()\nax.bar(['a', 'b'], [1.0, 2.5]); ax.set_title('two bars')\n")
    close = "plt.close(fig)\n" if how != "plt.show()" else ""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(setup + close + show)])
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3").execute()
    alts = rendered_alts(nb)
    assert len(alts) == 1 and "two bars" in alts[0] and "Highest: b at 2.5" in alts[0], alts
    shown = [o for o in nb.cells[0].outputs if "image/png" in o.get("data", {})]
    html_png = display.parse_figure_html(shown[0].data["text/html"])[1]
    assert html_png == shown[0].data["image/png"].replace("\n", ""), "the HTML holds the same PNG"


def test_a_figure_wider_than_a_column_is_drawn_at_a_lower_dpi_with_the_same_layout():
    from tfdist_edu.plots.style import MAX_WIDTH_PX, _figure_function

    @_figure_function
    def wide():
        fig, ax = plt.subplots(figsize=(16, 4))
        ax.plot([0, 1], [0, 1])
        return fig

    fig = wide()
    png = display.display_bundle(fig)[0]["image/png"]
    assert fig.get_figwidth() == 16 and Image.open(io.BytesIO(png)).size[0] <= MAX_WIDTH_PX
