"""No two pieces of text in a course figure print over each other, at the lessons' longest labels.

Each figure is drawn with the longest run names the lessons and the tour use (lesson 4's
"1 device, batch 128, finite dataset" once printed over "2 replicas, batch 128" on the site),
and every pair of visible text boxes is checked after the figure is laid out.
"""

import itertools

import matplotlib.text
import pytest

from figure_checks import run_timing
from tfdist_edu import loss_scaling, parameter_server, plots

# The longest run names of lesson 4 (its grid and its what-helps runs) and of the tour.
LESSON_4 = ["1 device, batch 128", "2 replicas, batch 128", "1 device, batch 128, finite dataset",
            "2 replicas, batch 128, finite dataset", "2 replicas, batch 128, PNG decoded every epoch",
            "1 device, batch 32, steps_per_execution=16", "2 replicas, batch 128, mixed_float16"]
TOUR = ["default fit", "default custom loop", "mirrored fit", "mirrored custom loop"]


def _runs(names):
    return [run_timing(name, "mirrored" if "replicas" in name or "mirrored" in name else "default",
                       2 if "replicas" in name or "mirrored" in name else 1, 128,
                       [3.0 + i, 1.0 + 0.1 * i, 1.1], [0.5, 0.7, 0.8]) for i, name in enumerate(names)]


def overlaps(fig):
    """Pairs of visible, non-empty texts whose boxes intersect once the figure is drawn."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)  # the figures come detached from pyplot
    canvas.draw()
    renderer = canvas.get_renderer()
    texts = [t for t in fig.findobj(matplotlib.text.Text)
             if t.get_visible() and t.get_text().strip() and t.get_alpha() != 0]
    boxes = [(t.get_text(), t.get_window_extent(renderer).shrunk(0.98, 0.9)) for t in texts]
    return [(a, b) for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2)
            if box_a.overlaps(box_b)]


CASES = {
    "epoch times, lesson 4": lambda: plots.plot_epoch_times(_runs(LESSON_4[:4])),
    "epoch times, tour": lambda: plots.plot_epoch_times(_runs(TOUR)),
    "throughput, lesson 4": lambda: plots.plot_throughput(_runs(LESSON_4), against="global_batch"),
    "scaling efficiency": lambda: plots.plot_scaling_efficiency(_runs(LESSON_4[:2]), baseline=LESSON_4[0]),
    "training curves, tour": lambda: plots.plot_training_curves(_runs(TOUR)),
    "metric pitfall": lambda: plots.plot_metric_pitfall(loss_scaling.metric_pitfall()),
    "ps placement": lambda: plots.plot_ps_placement(parameter_server.PSRun(
        loss=[2.3, 2.0], num_workers=2, num_ps=2, seconds=3.5,
        steps_per_worker={"worker 0": 11, "worker 1": 9},
        placement=[{"variable": "sequential/dense/kernel", "shard": s, "shape": [392, 64],
                    "device": f"/job:ps/replica:0/task:{s}/device:CPU:0"} for s in (0, 1)])),
}


@pytest.mark.parametrize("case", CASES)
def test_no_two_labels_print_over_each_other(case):
    clashes = overlaps(CASES[case]())
    assert not clashes, f"{case}: overlapping labels {clashes[:5]}"


def test_the_check_catches_two_labels_in_the_same_place():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.text(0.5, 0.5, "1 device, batch 128, finite dataset")
    ax.text(0.52, 0.5, "2 replicas, batch 128")
    plt.close(fig)
    assert overlaps(fig)
