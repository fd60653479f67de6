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


def test_a_traced_step_says_each_replicas_busy_time_per_phase_not_its_bars():
    from tfdist_edu import scaling_plots, trace

    events = [trace.Event(r, phase, "op", start, length) for r in (0, 1)
              for phase, start, length in (("forward", 0.0, 2.0), ("backward", 2.0, 3.0),
                                           ("all-reduce", 5.0, 4.0), ("update", 9.0, 1.0))]
    text = plots.alt_text(scaling_plots.plot_timeline(events, "2 replicas, global batch 256"))
    assert "10.0 ms in all" in text and "replica 1: forward 2.0 ms, backward 3.0 ms, all-reduce 4.0 ms" in text
    assert "2 all-reduce ops, 0 of them start before the last backward op ends at 5.0 ms" in text
    assert "bars:" not in text


def test_a_parameter_server_figure_says_where_the_shards_live_and_the_steps_per_worker():
    from tfdist_edu import parameter_server

    run = parameter_server.PSRun(
        loss=[2.3], num_workers=2, num_ps=2, seconds=3.5, steps_per_worker={"worker 0": 97, "worker 1": 103},
        placement=[{"variable": "dense/kernel", "shard": s, "shape": [392, 64],
                    "device": f"/job:ps/replica:0/task:{s}/device:CPU:0"} for s in (0, 1)]
        + [{"variable": "dense/bias", "shard": 0, "shape": [64], "device": "/job:ps/replica:0/task:1/device:CPU:0"}])
    text = plots.alt_text(plots.plot_ps_placement(run))
    assert "ps 0 / CPU:0 holds 1 shard(s), 25,088 values" in text
    assert "ps 1 / CPU:0 holds 2 shard(s), 25,152 values" in text
    assert "split into shards: dense/kernel" in text and "worker 0 97, worker 1 103 (of 200)" in text
    assert "values against" not in text


def test_the_loss_scale_figure_says_where_the_scale_went_and_which_steps_were_skipped():
    from tfdist_edu import dynamic_loss_scale

    trace = dynamic_loss_scale.LossScaleTrace(
        scale=[2.0**15] * 5 + [2.0**14] + [2.0**15] * 4, loss=[2.3] * 9 + [1.9],
        skipped=[False] * 5 + [True] + [False] * 4, overflow_steps=[5], initial_scale=2.0**15,
        growth_steps=5)
    text = plots.alt_text(plots.plot_loss_scale(trace))
    assert "inf gradients injected at steps 5; real fp16 overflows at steps none" in text
    assert "ends at 32768, from 16384 at its lowest" in text and "goes from 0 to 1" not in text


def test_reference_levels_and_marked_steps_are_said_as_such():
    fig, ax = plt.subplots()
    ax.plot([1, 2, 3], [0.5, 0.7, 0.9], label="efficiency")
    ax.axhline(1, ls="--", label="ideal")
    ax.axvline(2, label="overflow")
    ax.axvline(3, label="overflow")
    plt.close(fig)
    text = alt.describe(fig)
    assert "ideal (dashed) stays at 1" in text and "overflow marks x = 2, 3" in text
