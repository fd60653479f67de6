"""tfdist_edu.plots.alt: every figure says in words what it shows and its main numbers."""

import matplotlib.pyplot as plt
import nbclient
import nbformat
import pytest

from tfdist_edu import loss_scaling, plots
from tfdist_edu.plots import alt


def test_epoch_time_alt_text_names_every_run_with_its_times_and_the_fastest(runs):
    text = plots.alt_text(plots.plot_epoch_times(runs))
    assert "default fit (1 replica(s), global batch 32) 3.0 s then 1.1 s" in text
    assert "Fastest steady epoch: default fit at 1.1 s" in text and "measured on 2 CPU cores" in text


@pytest.mark.parametrize("draw", [plots.plot_training_curves, plots.plot_throughput,
                                  plots.plot_scaling_efficiency])
def test_every_timing_figure_states_its_runs_and_numbers(runs, draw):
    text = plots.alt_text(draw(runs))
    assert all(run.name in text for run in runs), text
    assert any(c.isdigit() for c in text.replace("2 CPU", "")), text


def test_the_metric_pitfall_figure_says_3_5_against_1_75():
    fig = plots.plot_metric_pitfall(loss_scaling.metric_pitfall())
    text = plots.alt_text(fig)
    assert "3.5" in text and "1.75" in text


def test_a_plain_matplotlib_figure_is_described_from_its_bars_and_lines():
    fig, (bars, lines) = plt.subplots(1, 2)
    bars.bar(["1 replica", "2 replicas", "4 replicas"], [12.0, 11.4, 13.9])
    bars.set_title("epoch time")
    bars.set_ylabel("seconds")
    lines.plot([1, 2, 3], [0.8, 0.85, 0.9], label="val accuracy")
    plt.close(fig)
    text = alt.describe(fig)
    assert "epoch time: seconds." in text
    assert "Highest: 4 replicas at 13.9; lowest: 2 replicas at 11.4" in text
    assert "val accuracy goes from 0.8 to 0.9" in text


def test_a_figure_function_may_set_its_own_sentence():
    fig = plt.figure()
    plt.close(fig)
    assert plots.alt_text(plots.set_alt(fig, "2 replicas fastest at 11.4 s")) == "2 replicas fastest at 11.4 s"


@pytest.mark.slow
def test_in_a_notebook_every_figure_displays_with_its_alt_text():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "import tfdist_edu\nimport matplotlib.pyplot as plt\n"
        "plt.bar(['a', 'b'], [1.0, 2.5]); plt.title('two bars')")])
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3").execute()
    shown = [out for out in nb.cells[0].outputs if "image/png" in out.get("data", {})]
    assert len(shown) == 1
    assert "Highest: b at 2.5" in shown[0].metadata["image/png"]["alt"]
    assert shown[0].data["text/plain"] == shown[0].metadata["image/png"]["alt"]
