"""The course's figures: one ``plot_*`` function per figure, each returning a matplotlib Figure.

Every figure draws data that code produced: a real strategy, a ``loss_scaling`` record, the
``timing.RunTiming`` records of real runs, a parameter-server run's record. Nothing here
computes what it shows. Fonts are sized for a projector (the slides reuse the figures), and a
run keeps its colour (``color_for``) in every figure of a session.

The figures are detached from pyplot, so a notebook shows each once, as the cell's value, and
no wider than a notebook column; ``fig.savefig(path)`` writes one to a file.

One concern a file:

- ``alt``: words for every figure, read from its data (``alt_text(fig)``), written into
  the site, the decks and the tour report
- ``display``: how a figure reaches a notebook: its PNG, and the same PNG as HTML with its
  alt text, which Jupyter, Colab, GitHub and nbconvert show
- ``style``: the projector style, the colours (``color_for``, ``RIGHT``, ``WRONG``,
  ``REFERENCE``) and the helpers every figure shares
- ``parallelism``: ``plot_data_parallelism``
- ``replica_loss``: ``plot_loss_scaling``, ``plot_metric_pitfall``
- ``mixed_precision``: ``plot_loss_scale``
- ``speed``: ``plot_block_times``, ``plot_epoch_times``, ``plot_throughput``, ``plot_scaling_efficiency``
- ``curves``: ``plot_training_curves``, ``plot_step_losses``, ``plot_restart``
- ``placement``: ``plot_ps_placement``
"""

from tfdist_edu.plots.alt import alt_text, set_alt
from tfdist_edu.plots.curves import plot_restart, plot_step_losses, plot_training_curves
from tfdist_edu.plots.mixed_precision import plot_loss_scale
from tfdist_edu.plots.parallelism import plot_data_parallelism
from tfdist_edu.plots.placement import plot_ps_placement
from tfdist_edu.plots.replica_loss import plot_loss_scaling, plot_metric_pitfall
from tfdist_edu.plots.speed import plot_block_times, plot_epoch_times, plot_scaling_efficiency, plot_throughput
from tfdist_edu.plots.style import REFERENCE, RIGHT, WRONG, color_for

__all__ = [
    "REFERENCE", "RIGHT", "WRONG", "color_for", "alt_text", "set_alt",
    "plot_data_parallelism",
    "plot_loss_scaling", "plot_metric_pitfall", "plot_loss_scale",
    "plot_block_times", "plot_epoch_times", "plot_throughput", "plot_scaling_efficiency", "plot_training_curves",
    "plot_step_losses", "plot_restart",
    "plot_ps_placement",
]
