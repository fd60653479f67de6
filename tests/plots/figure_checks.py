"""What the figure tests share: timed runs to draw, and checks on a drawn figure."""

import matplotlib.image

from tfdist_edu import timing

HARDWARE = "2 CPU cores, 2 logical CPU devices (simulated)"
DATA = "Fashion-MNIST, synthetic stand-in (offline), 600 examples"


def run_timing(name, strategy, replicas, global_batch, epoch_seconds, accuracy):
    return timing.RunTiming(
        name=name, strategy=strategy, replicas=replicas, global_batch=global_batch,
        epoch_seconds=epoch_seconds, examples_per_epoch=600, steps_per_epoch=600 // global_batch,
        hardware=HARDWARE, data=DATA,
        history={"loss": [1.5, 1.0, 0.8], "accuracy": accuracy,
                 "val_loss": [1.4, 1.1, 0.9], "val_accuracy": [a - 0.05 for a in accuracy]})


def saved(fig, tmp_path):
    """Save ``fig`` as PNG and check the file is a real, non-blank picture."""
    path = tmp_path / "figure.png"
    fig.savefig(path, dpi=60)
    assert path.stat().st_size > 10_000
    pixels = matplotlib.image.imread(path)[..., :3]
    assert (pixels < 0.9).mean() > 0.01, "the figure is (nearly) blank"
    return path


def all_text(fig):
    return " ".join(t.get_text() for ax in fig.axes for t in ax.texts) + " ".join(
        t.get_text() for t in fig.texts)
