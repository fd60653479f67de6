import matplotlib
import matplotlib.image
import numpy as np
import pytest
import tensorflow as tf

from tfdist_edu import dynamic_loss_scale, loss_scaling, models, parameter_server, plots, strategies, timing

HARDWARE = "2 CPU cores, 2 logical CPU devices (simulated)"
DATA = "Fashion-MNIST, synthetic stand-in (offline), 600 examples"


def _run(name, strategy, replicas, global_batch, epoch_seconds, accuracy):
    return timing.RunTiming(
        name=name, strategy=strategy, replicas=replicas, global_batch=global_batch,
        epoch_seconds=epoch_seconds, examples_per_epoch=600, steps_per_epoch=600 // global_batch,
        hardware=HARDWARE, data=DATA,
        history={"loss": [1.5, 1.0, 0.8], "accuracy": accuracy,
                 "val_loss": [1.4, 1.1, 0.9], "val_accuracy": [a - 0.05 for a in accuracy]})


@pytest.fixture(scope="module")
def runs():
    return [_run("default fit", "default", 1, 32, [3.0, 1.0, 1.2], [0.5, 0.7, 0.8]),
            _run("mirrored fit", "mirrored", 2, 64, [5.0, 1.5, 1.5], [0.45, 0.65, 0.75]),
            _run("mirrored ctl", "mirrored", 2, 128, [4.0, 1.25, 1.25], [0.4, 0.6, 0.72])]


@pytest.fixture(scope="module")
def strategy():
    strategy = strategies.make("mirrored")
    assert strategy.num_replicas_in_sync >= 2, "tests/conftest.py should provide 2 logical CPUs"
    return strategy


def _saved(fig, tmp_path):
    """Save ``fig`` as PNG and check the file is a real, non-blank picture."""
    path = tmp_path / "figure.png"
    fig.savefig(path, dpi=60)
    assert path.stat().st_size > 10_000
    pixels = matplotlib.image.imread(path)[..., :3]
    assert (pixels < 0.9).mean() > 0.01, "the figure is (nearly) blank"
    return path


def _texts(fig):
    return " ".join(t.get_text() for ax in fig.axes for t in ax.texts) + " ".join(
        t.get_text() for t in fig.texts)


def _bar_tops(ax):
    return [p.get_y() + p.get_height() for p in ax.patches]


def test_data_parallelism_diagram_shows_the_strategys_replicas_devices_and_slices(strategy, tmp_path):
    n = strategy.num_replicas_in_sync
    fig = plots.plot_data_parallelism(strategy, 32 * n)
    text = _texts(fig)
    for i in range(n):
        assert f"replica {i}\non CPU:{i}" in text
        assert f"examples {32 * i}-{32 * i + 31}" in text
    assert f"global batch {32 * n}" in fig.axes[0].get_title()
    assert "all-reduce" in text
    _saved(fig, tmp_path)


def test_data_parallelism_diagram_of_the_default_strategy_has_nothing_to_reduce():
    fig = plots.plot_data_parallelism(tf.distribute.get_strategy(), 16)
    assert "nothing to all-reduce" in _texts(fig)
    with pytest.raises(ValueError, match="does not split evenly"):
        plots.plot_data_parallelism(strategies.make("mirrored"), 33)


def test_loss_scaling_figure_plots_equal_norms_for_a_and_c_and_n_times_for_b(strategy, tmp_path):
    n = strategy.num_replicas_in_sync
    rng = np.random.default_rng(1)
    with strategy.scope():
        model = models.fashion_cnn()
    result = loss_scaling.loss_scaling_demo(
        strategy, model, rng.random((4 * n, 28, 28, 1), dtype=np.float32), rng.integers(0, 10, 4 * n))
    fig = plots.plot_loss_scaling(result)
    loss_ax, grad_ax = fig.axes
    a, b, c = [p.get_height() for p in grad_ax.patches]
    np.testing.assert_allclose(a, c, rtol=1e-5)
    np.testing.assert_allclose(b, n * c, rtol=1e-5)
    stacked = _bar_tops(loss_ax)  # n stacked replica losses per case, then the single device
    np.testing.assert_allclose([stacked[n - 1], stacked[2 * n - 1], stacked[-1]],
                               [result.cases[k].total_loss for k in result.cases], rtol=1e-6)
    assert f"{n:.2f} x single device" in _texts(fig)
    _saved(fig, tmp_path)


def test_regularization_figure_lists_the_code_of_each_case_and_the_penalty(tmp_path):
    case = loss_scaling.Case
    result = loss_scaling.LossScalingResult(
        "regularization", 2, 8,
        {"scale_regularization_loss": case("scaled code", [1.5, 1.5], 3.0, 0.5),
         "unscaled penalty": case("raw code", [2.0, 2.0], 4.0, 0.6),
         loss_scaling.SINGLE_DEVICE: case("reference code", [3.0], 3.0, 0.5)}, penalty=1.0)
    fig = plots.plot_loss_scaling(result)
    assert [p.get_height() for p in fig.axes[1].patches] == [0.5, 0.6, 0.5]
    text = _texts(fig)
    assert "scaled code" in text and "raw code" in text and "= 1.0000" in text
    _saved(fig, tmp_path)


def test_metric_pitfall_figure_shows_3_5_against_1_75(tmp_path):
    fig = plots.plot_metric_pitfall(loss_scaling.metric_pitfall())
    assert _bar_tops(fig.axes[0]) == pytest.approx([1.25, 3.5, 1.75, 3.5])
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "3.5" in texts and "1.75" in texts
    _saved(fig, tmp_path)


def test_loss_scale_figure_plots_the_trace_and_marks_the_injected_overflow(tmp_path):
    trace = dynamic_loss_scale.loss_scale_trace(steps=12, overflow_steps=(8,), growth_steps=3,
                                          initial_scale=2.0**8)
    fig = plots.plot_loss_scale(trace)
    scale_ax, loss_ax = fig.axes
    plotted = list(scale_ax.lines[0].get_ydata())
    assert plotted == trace.scale and plotted[8] == plotted[7] / 2
    marked = scale_ax.collections[0].get_offsets()
    assert marked.tolist() == [[8, plotted[8]]]
    assert list(loss_ax.lines[0].get_ydata()) == trace.loss
    _saved(fig, tmp_path)


def test_epoch_time_bars_are_first_and_steady_epochs_in_each_runs_colour(runs, tmp_path):
    fig = plots.plot_epoch_times(runs)
    heights = [p.get_height() for p in fig.axes[0].patches]
    assert heights == [3.0, 5.0, 4.0, 1.1, 1.5, 1.25]
    assert fig.axes[0].patches[1].get_facecolor()[:3] == pytest.approx(
        matplotlib.colors.to_rgb(plots.color_for("mirrored fit")))
    assert HARDWARE in _texts(fig)
    _saved(fig, tmp_path)


@pytest.mark.parametrize("against", ["replicas", "global_batch"])
def test_throughput_figure_plots_examples_per_second_against_replicas_or_batch(runs, against, tmp_path):
    fig = plots.plot_throughput(runs, against=against)
    points = [c.get_offsets()[0].tolist() for c in fig.axes[0].collections]
    assert points == [[getattr(r, against), pytest.approx(r.examples_per_s)] for r in runs]
    _saved(fig, tmp_path)


def test_scaling_efficiency_compares_speed_up_with_the_ideal_line(runs, tmp_path):
    fig = plots.plot_scaling_efficiency(runs)
    ideal = fig.axes[0].lines[0]
    assert list(ideal.get_xdata()) == [1, 2] and list(ideal.get_ydata()) == [1, 2]
    speedups = [c.get_offsets()[0][1] for c in fig.axes[0].collections]
    assert speedups == pytest.approx([1.0, (600 / 1.5) / (600 / 1.1), (600 / 1.25) / (600 / 1.1)])
    text = _texts(fig)
    assert "100% efficient" in text and f"{speedups[2] / 2:.0%} efficient" in text
    _saved(fig, tmp_path)


def test_training_curves_plot_every_history_in_the_runs_colour(runs, tmp_path):
    fig = plots.plot_training_curves(runs)
    loss_ax, accuracy_ax = fig.axes
    assert len(accuracy_ax.lines) == 2 * len(runs)
    for run, train, val in zip(runs, accuracy_ax.lines[::2], accuracy_ax.lines[1::2]):
        assert list(train.get_ydata()) == run.history["accuracy"]
        assert list(val.get_ydata()) == run.history["val_accuracy"]
        assert train.get_color() == val.get_color() == plots.color_for(run.name)
    from_dict = plots.plot_training_curves({"fit": {"loss": [2.0, 1.0]}}, metrics=("loss",))
    assert list(from_dict.axes[0].lines[0].get_ydata()) == [2.0, 1.0]
    _saved(fig, tmp_path)


def test_ps_placement_shows_each_shard_on_its_ps_task_and_the_steps_per_worker(tmp_path):
    record = {  # the fields of parameter_server.PSRun
        "loss": [2.3, 2.0], "num_workers": 2, "num_ps": 2, "seconds": 3.5,
        "steps_per_worker": {"worker 0": 11, "worker 1": 9},
        "placement": [
            {"variable": "dense/kernel", "shard": 0, "device": "/job:ps/replica:0/task:0/device:CPU:0",
             "shape": [392, 64]},
            {"variable": "dense/kernel", "shard": 1, "device": "/job:ps/replica:0/task:1/device:CPU:0",
             "shape": [392, 64]},
            {"variable": "dense/bias", "shard": 0, "device": "/job:ps/replica:0/task:1/device:CPU:0",
             "shape": [64]},
        ],
    }
    fig = plots.plot_ps_placement(parameter_server.PSRun(**record))
    grid_ax, steps_ax = fig.axes
    assert [t.get_text() for t in grid_ax.get_yticklabels()] == ["dense/kernel", "dense/bias"]
    assert [t.get_text() for t in grid_ax.get_xticklabels()] == ["ps 0 / CPU:0", "ps 1 / CPU:0"]
    cells = {(t.get_position(), t.get_text()) for t in grid_ax.texts}
    assert ((1, 0), "shard 1\n392x64") in cells and ((1, 1), "shard 0\n64") in cells
    assert [p.get_height() for p in steps_ax.patches] == [11, 9]
    _saved(fig, tmp_path)
    assert _texts(plots.plot_ps_placement(record)) == _texts(fig)  # the asdict record draws the same
    with pytest.raises(ValueError, match="placement"):
        plots.plot_ps_placement({"loss": []})


def test_timing_figures_refuse_an_empty_run_list_and_an_unknown_axis(runs):
    with pytest.raises(ValueError, match="no runs"):
        plots.plot_epoch_times([])
    with pytest.raises(ValueError, match="against"):
        plots.plot_throughput(runs, against="epochs")
    with pytest.raises(ValueError, match="baseline"):
        plots.plot_scaling_efficiency(runs, baseline="tpu run")
