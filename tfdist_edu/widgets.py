"""Two interactive explorers for the lessons, each a plain function behind a few controls.

- ``batch_explorer()``: replicas and per-replica batch -> global batch, the slice each replica
  gets, the loss denominators and the learning-rate rule of thumb (``batching.BatchPlan``).
- ``strategy_chooser()``: machines, accelerator, sync or async -> the strategy to use, why,
  and the code that creates it (``strategy_choice.choose``, which ``strategies.auto`` uses too).

The controls are ipywidgets core widgets (they work with ipywidgets 7, as on Colab, and 8).
Without ipywidgets, or in a frontend that cannot draw widgets (nbval, exported HTML), an
explorer shows the same answer as plain text, and ``update(...)`` drives it from code.
"""

import html

from tfdist_edu.batching import BatchPlan
from tfdist_edu.strategy_choice import choose


class Explorer:
    """Controls feeding a plain function, whose answer is shown as text.

    ``values`` holds the current inputs, ``result`` the function's answer for them and
    ``text`` that answer as plain text. ``controls`` maps input names to their ipywidgets
    controls (empty without ipywidgets): moving one, or calling ``update(name=value)``,
    recomputes. A notebook shows the widgets, or the text where widgets cannot be drawn;
    ``print(explorer)`` prints the text.
    """

    def __init__(self, compute, values, make_controls):
        self._compute = compute
        self.values = dict(values)
        self.result = compute(**self.values)
        self.controls, self.widget, self._syncing = {}, None, False
        try:
            import ipywidgets
        except ImportError:
            return
        self.controls = make_controls(ipywidgets, self.values)
        self._output = ipywidgets.HTML(self._html())
        for control in self.controls.values():
            control.observe(self._on_change, names="value")
        self.widget = ipywidgets.VBox([*self.controls.values(), self._output])

    @property
    def text(self):
        return str(self.result)

    def update(self, **values):
        """Set some inputs (moving their controls too) and return the new result.

        Raises ValueError for inputs the function refuses, TypeError for unknown names.
        """
        unknown = set(values) - set(self.values)
        if unknown:
            raise TypeError(f"unknown input(s) {sorted(unknown)}; the inputs are {sorted(self.values)}")
        self.result = self._compute(**{**self.values, **values})
        self.values.update(values)
        self._syncing = True
        try:
            for name, value in values.items():
                if name in self.controls:
                    self.controls[name].value = value
        finally:
            self._syncing = False
        self._show()
        return self.result

    def _on_change(self, change):
        if self._syncing:
            return
        self.values.update({name: c.value for name, c in self.controls.items()})
        self.result = self._compute(**self.values)  # the controls' bounds keep inputs valid
        self._show()

    def _html(self):
        return f"<pre>{html.escape(self.text)}</pre>"

    def _show(self):
        if self.widget is not None:
            self._output.value = self._html()

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = {"text/plain": self.text}
        if self.widget is not None:
            bundle["application/vnd.jupyter.widget-view+json"] = {
                "version_major": 2, "version_minor": 0, "model_id": self.widget.model_id}
        return bundle

    def __str__(self):
        return self.text


def batch_explorer(replicas=2, per_replica_batch=32, base_learning_rate=1e-3, examples=60000,
                   max_replicas=8):
    """An ``Explorer`` over ``BatchPlan``: sliders for replicas and per-replica batch, plus the
    dataset size; the learning rate is scaled from ``base_learning_rate`` at one replica's batch.
    """

    def compute(replicas, per_replica_batch, examples):
        return BatchPlan(replicas, per_replica_batch, base_learning_rate,
                         base_batch=per_replica_batch, examples=examples)

    def make_controls(w, values):
        style = {"description_width": "initial"}
        return {
            "replicas": w.IntSlider(value=values["replicas"], min=1, max=max(max_replicas, replicas),
                                    description="replicas", style=style),
            "per_replica_batch": w.IntSlider(value=values["per_replica_batch"], min=1, max=512,
                                             description="per-replica batch", style=style),
            "examples": w.BoundedIntText(value=values["examples"], min=1, max=10**9,
                                         description="dataset size", style=style),
        }

    return Explorer(compute, dict(replicas=replicas, per_replica_batch=per_replica_batch,
                                  examples=examples), make_controls)


def strategy_chooser(machines=1, accelerator="gpu", devices_per_machine=1, sync=True):
    """An ``Explorer`` over ``strategy_choice.choose``: machines, accelerator, devices per machine, sync."""

    def make_controls(w, values):
        style = {"description_width": "initial"}
        return {
            "machines": w.IntSlider(value=values["machines"], min=1, max=max(16, machines),
                                    description="machines", style=style),
            "accelerator": w.Dropdown(options=[("CPU only", "cpu"), ("GPU", "gpu"), ("TPU", "tpu")],
                                      value=values["accelerator"], description="accelerator",
                                      style=style),
            "devices_per_machine": w.IntSlider(value=values["devices_per_machine"], min=1,
                                               max=max(8, devices_per_machine),
                                               description="devices per machine", style=style),
            "sync": w.ToggleButtons(options=[("synchronous (all-reduce)", True),
                                             ("asynchronous (parameter servers)", False)],
                                    value=values["sync"], description="updates", style=style),
        }

    return Explorer(choose, dict(machines=machines, accelerator=accelerator,
                                 devices_per_machine=devices_per_machine, sync=sync),
                    make_controls)
