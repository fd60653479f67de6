"""Every course figure fits a notebook column (<= 1000 px wide as a notebook shows it), and its
footnote names the data in a few words, not the folder it came from."""

import io

import pytest
from PIL import Image

from figure_checks import all_text, run_timing
from tfdist_edu import cost_model, dynamic_loss_scale, loss_scaling, plots, scaling_plots, trace
from tfdist_edu.plots import display
from tfdist_edu.plots.style import MAX_WIDTH_PX, short_data

# What lessons 1, 4 and 6 passed as the runs' data: the describe() line with its path.
REAL = ("Fashion-MNIST: real (IDX files in /usr/share/datasets/fashion-mnist) (Debian package "
        "dataset-fashion-mnist, contents checked), 60000 train / 10000 test, 28x28x1, 10 classes")
LONG = ["default", "one device", "mirrored", "1 device, batch 128, finite dataset",
        "2 replicas, batch 128, PNG decoded every epoch"]


def _runs(names):
    runs = [run_timing(name, "mirrored", 2, 128, [3.0 + i, 1.0 + 0.1 * i, 1.1], [0.5, 0.7, 0.8])
            for i, name in enumerate(names)]
    for run in runs:
        run.data = REAL
    return runs


def _model():
    return cost_model.StepModel(cost_model.Line(0.0, 0.001), cost_model.Link(1e-5, 1e10), 1e8)


CASES = {
    "epoch times, five runs": lambda: plots.plot_epoch_times(_runs(LONG)),
    "throughput": lambda: plots.plot_throughput(_runs(LONG), against="global_batch"),
    "training curves": lambda: plots.plot_training_curves(_runs(LONG[:3])),
    "metric pitfall": lambda: plots.plot_metric_pitfall(loss_scaling.metric_pitfall()),
    "loss scaling": lambda: plots.plot_loss_scaling(loss_scaling.LossScalingResult(
        "regularization", 2, 8,
        {"scale_regularization_loss": loss_scaling.Case("scaled code", [1.5, 1.5], 3.0, 0.5),
         "unscaled penalty": loss_scaling.Case("raw code", [2.0, 2.0], 4.0, 0.6),
         loss_scaling.SINGLE_DEVICE: loss_scaling.Case("reference", [3.0], 3.0, 0.5)}, penalty=1.0)),
    "loss scale": lambda: plots.plot_loss_scale(dynamic_loss_scale.LossScaleTrace(
        scale=[2.0**15] * 5 + [2.0**14] * 5, loss=[2.3] * 10, skipped=[False] * 5 + [True] + [False] * 4,
        overflow_steps=[5], initial_scale=2.0**15, growth_steps=5)),
    "timeline": lambda: scaling_plots.plot_timeline(
        [trace.Event(r, p, "op", 2.0 * i, 1.5) for r in (0, 1)
         for i, p in enumerate(trace.PHASES)], "2 replicas, global batch 256; " + REAL),
    "what-if, three models": lambda: scaling_plots.plot_what_if(
        {f"model {i}, PCIe Gen3": (_model(), "published figures (see text), PCIe Gen3 at 65% of "
                                             "its one-way bandwidth") for i in range(3)}, [1, 16, 256]),
    "prediction, a long label": lambda: scaling_plots.plot_prediction(
        [dict(n=n, batch=b, predicted_ms=b / 10, measured_ms=b / 9) for b in (64, 256, 1024)
         for n in (1, 2, 4)], "cpu time per step; predictions out of sample; 2 CPU cores, 4 logical "
                              "CPU devices (simulated), no GPU, no TPU; " + REAL + "; median error 8%"),
}


@pytest.mark.parametrize("case", CASES)
def test_a_course_figure_fits_a_notebook_column(case):
    png = display.display_bundle(CASES[case]())[0]["image/png"]
    width = Image.open(io.BytesIO(png)).size[0]
    assert width <= MAX_WIDTH_PX, f"{case}: {width} px wide"


def test_the_footnote_says_which_data_and_not_the_folder_it_came_from():
    fig = plots.plot_epoch_times(_runs(LONG[:3]))
    footnote = " ".join(all_text(fig).split())
    assert "Fashion-MNIST: real" in footnote and "/usr/share" not in footnote
    assert "/usr/share" not in plots.alt_text(fig)


@pytest.mark.parametrize("label, short", [
    (REAL, "Fashion-MNIST: real"),
    ("Fashion-MNIST, real (IDX files in /usr/share/x), 60000 train examples", "Fashion-MNIST: real"),
    ("SVHN: SYNTHETIC stand-in (offline), 73257 train / 26032 test", "SVHN: SYNTHETIC stand-in"),
    ("random tensors (no files), 512 examples", "random tensors, 512 examples"),
])
def test_a_data_label_is_shortened_to_its_name_and_origin(label, short):
    assert short_data(label) == short
