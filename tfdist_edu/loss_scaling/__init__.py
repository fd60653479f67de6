"""The numbers behind the loss-scaling lessons, computed with real TensorFlow calls.

Small experiments, each returning a record that ``plots`` draws or a lesson prints:

- ``loss_scaling_demo`` / ``regularization_demo``: one real batch through a real model under a
  strategy, with the loss scaled the right way and the wrong way, next to the same model on a
  single device. Gradients are summed across replicas, as the optimizer does under a strategy.
- ``metric_pitfall``: why a ``Mean`` metric fed the scaled per-replica losses reports the loss
  divided by the number of replicas.
- ``short_batch_demo``: a short last batch divided three ways (fixed, default, actual).
- ``keras_default_reduction``: what a Keras loss object's default reduction gives under a
  strategy, inside ``strategy.run`` and outside it.

Each way of scaling is a named function (``compute_average_loss``, ``reduce_mean_per_replica``,
...), so a lesson can show its source; the figures quote that same source. (Mixed precision's
dynamic loss scale is another matter: see ``dynamic_loss_scale``.)

One concern a file:

- ``cases``: the named cases (``compute_average_loss``, ``reduce_mean_per_replica``,
  ``scale_regularization_loss``, ``unscaled_penalty`` and the single-device references) and
  ``source_of``
- ``records``: ``Case``, ``LossScalingResult`` and ``SINGLE_DEVICE``, what the demos return
- ``comparison``: ``loss_scaling_demo``, ``regularization_demo``, the cases against one device
- ``metrics``: ``MetricPitfall``, ``metric_pitfall``
- ``short_batch``: ``default_denominator``, ``actual_denominator``, ``TOY_LOSSES``,
  ``ShortBatch``, ``short_batch_demo``
- ``keras_reduction``: ``KerasDefaultReduction``, ``keras_default_reduction``
"""

from tfdist_edu.loss_scaling.cases import (
    compute_average_loss, reduce_mean_per_replica, scale_regularization_loss,
    single_device_mean, single_device_mean_plus_penalty, source_of, unscaled_penalty)
from tfdist_edu.loss_scaling.comparison import loss_scaling_demo, regularization_demo
from tfdist_edu.loss_scaling.keras_reduction import KerasDefaultReduction, keras_default_reduction
from tfdist_edu.loss_scaling.metrics import MetricPitfall, metric_pitfall
from tfdist_edu.loss_scaling.records import SINGLE_DEVICE, Case, LossScalingResult
from tfdist_edu.loss_scaling.short_batch import (
    TOY_LOSSES, ShortBatch, actual_denominator, default_denominator, short_batch_demo)

__all__ = [
    "compute_average_loss", "reduce_mean_per_replica", "scale_regularization_loss",
    "unscaled_penalty", "single_device_mean", "single_device_mean_plus_penalty", "source_of",
    "SINGLE_DEVICE", "Case", "LossScalingResult", "loss_scaling_demo", "regularization_demo",
    "MetricPitfall", "metric_pitfall",
    "default_denominator", "actual_denominator", "TOY_LOSSES", "ShortBatch", "short_batch_demo",
    "KerasDefaultReduction", "keras_default_reduction",
]
