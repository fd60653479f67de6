"""Two interactive explorers for the lessons, each a plain function behind a few controls.

- ``batch_explorer()``: replicas and per-replica batch -> global batch, the slice each replica
  gets, the loss denominators and the learning-rate rule of thumb (``batching.BatchPlan``).
- ``strategy_chooser()``: machines, accelerator, sync or async -> the strategy to use, why,
  and the code that creates it (``strategy_choice.choose``, which ``strategies.auto`` uses too).

Each is an ``explorer.Explorer``: ipywidgets core controls (ipywidgets 7, as on Colab, and 8)
and the answer as text. Without ipywidgets, or where widgets cannot be drawn (nbval, a stored
notebook, exported HTML), it shows the same answer as plain text; ``update(...)`` drives it
from code. ``tests/browser`` draws both in JupyterLab and moves every control.
"""

from tfdist_edu.batching import BatchPlan
from tfdist_edu.controls import BUTTON_STYLE, LABEL_STYLE
from tfdist_edu.explorer import Explorer
from tfdist_edu.strategy_choice import choose

__all__ = ["Explorer", "batch_explorer", "strategy_chooser"]


def batch_explorer(replicas=2, per_replica_batch=32, base_learning_rate=1e-3, examples=60000,
                   max_replicas=8):
    """An ``Explorer`` over ``BatchPlan``: sliders for replicas and per-replica batch, plus the
    dataset size; the learning rate is scaled from ``base_learning_rate`` at one replica's batch.
    """

    def compute(replicas, per_replica_batch, examples):
        return BatchPlan(replicas, per_replica_batch, base_learning_rate,
                         base_batch=per_replica_batch, examples=examples)

    def make_controls(w, values):
        return {
            "replicas": w.IntSlider(value=values["replicas"], min=1, max=max(max_replicas, values["replicas"]),
                                    description="replicas", style=LABEL_STYLE),
            "per_replica_batch": w.IntSlider(value=values["per_replica_batch"], min=1,
                                             max=max(512, values["per_replica_batch"]),
                                             description="per-replica batch", style=LABEL_STYLE),
            "examples": w.BoundedIntText(value=values["examples"], min=1, max=10**9,
                                         description="dataset size", style=LABEL_STYLE),
        }

    return Explorer(compute, dict(replicas=replicas, per_replica_batch=per_replica_batch,
                                  examples=examples), make_controls)


def strategy_chooser(machines=1, accelerator="gpu", devices_per_machine=1, sync=True):
    """An ``Explorer`` over ``strategy_choice.choose``: machines, accelerator, devices per machine, sync."""

    def make_controls(w, values):
        return {
            "machines": w.IntSlider(value=values["machines"], min=1, max=max(16, values["machines"]),
                                    description="machines", style=LABEL_STYLE),
            "accelerator": w.Dropdown(options=[("CPU only", "cpu"), ("GPU", "gpu"), ("TPU", "tpu")],
                                      value=values["accelerator"], description="accelerator",
                                      style=LABEL_STYLE),
            "devices_per_machine": w.IntSlider(value=values["devices_per_machine"], min=1,
                                               max=max(8, values["devices_per_machine"]),
                                               description="devices per machine", style=LABEL_STYLE),
            "sync": w.ToggleButtons(options=[("synchronous (all-reduce)", True),
                                             ("asynchronous (parameter servers)", False)],
                                    value=values["sync"], description="updates", style=BUTTON_STYLE),
        }

    return Explorer(choose, dict(machines=machines, accelerator=accelerator,
                                 devices_per_machine=devices_per_machine, sync=sync),
                    make_controls)
