"""Two interactive explorers for the lessons, each a plain function behind a few controls.

- ``batch_explorer()``: replicas and per-replica batch -> global batch, the slice each replica
  gets, the loss denominators and the learning-rate rule of thumb (``batch_plan``).
- ``strategy_chooser()``: machines, accelerator, sync or async -> the strategy to use, why,
  and the code that creates it (``choose_strategy``).

The controls are ipywidgets core widgets (they work with ipywidgets 7, as on Colab, and 8).
Without ipywidgets, or in a frontend that cannot draw widgets (nbval, exported HTML), an
explorer shows the same answer as plain text, and ``update(...)`` drives it from code.
"""

import dataclasses
import html
import math
import numbers


@dataclasses.dataclass(frozen=True)
class BatchPlan:
    """How one global batch is cut across replicas, and what that implies.

    ``slices`` are the ``(start, stop)`` example ranges each replica gets; ``learning_rate`` is
    ``base_learning_rate`` scaled by ``global_batch / base_batch``. With ``examples`` (the
    dataset size) the plan also gives the epoch's last, short batch (``last_batch`` examples, 0
    if none) and how tf.distribute splits it (``last_batch_split``, one size per replica).
    """

    replicas: int
    per_replica_batch: int
    global_batch: int
    slices: list
    base_learning_rate: float
    base_batch: int
    learning_rate: float
    examples: int | None = None
    steps_per_epoch: int | None = None
    last_batch: int | None = None
    last_batch_split: list | None = None

    def denominators(self):
        """What each replica divides its summed per-example losses by, for a full batch.

        Returns ``{code: (denominator, what the summed loss becomes)}``.
        """
        times = self.replicas
        return {
            f"tf.nn.compute_average_loss(per_example, global_batch_size={self.global_batch})": (
                self.global_batch, "the mean over the global batch: right"),
            "tf.reduce_mean(per_example)  # on each replica": (
                self.per_replica_batch,
                "the mean x 1: right" if times == 1 else
                f"{times} x the mean: gradients {times} times too large"),
        }

    def last_batch_denominators(self):
        """Denominators for the short last batch: ``{choice: one denominator per replica}``."""
        if not self.last_batch:
            return {}
        return {
            f"global_batch_size={self.global_batch} (fixed)": [self.global_batch] * self.replicas,
            "compute_average_loss with no global_batch_size (local size x replicas)": [
                n * self.replicas for n in self.last_batch_split],
            "the batch's true size": [self.last_batch] * self.replicas,
        }

    def __str__(self):
        lines = [f"{self.replicas} replica(s) x {self.per_replica_batch} examples each "
                 f"= global batch {self.global_batch}"]
        lines += [f"  replica {i}: examples {start}..{stop - 1}"
                  for i, (start, stop) in enumerate(self.slices)]
        lines.append("Loss denominators (each replica sums its per-example losses, then divides):")
        lines += [f"  {code}: / {denominator} -> summed over replicas: {meaning}"
                  for code, (denominator, meaning) in self.denominators().items()]
        factor = self.global_batch / self.base_batch
        lines.append(f"Learning rate, rule of thumb (scale with the global batch): "
                     f"{self.base_learning_rate:g} at batch {self.base_batch} -> "
                     f"{self.learning_rate:g} at batch {self.global_batch} (x{factor:g})")
        if factor >= 8:
            lines.append("  a large factor: warm the rate up over the first epochs, then tune it")
        if self.examples is not None:
            lines.append(f"An epoch of {self.examples} examples: {self.steps_per_epoch} steps")
            if self.last_batch:
                split = " + ".join(str(n) for n in self.last_batch_split)
                lines.append(f"  the last batch has {self.last_batch} examples, split {split}; "
                             "each replica divides by:")
                lines += [f"    {choice}: {values}"
                          for choice, values in self.last_batch_denominators().items()]
            else:
                lines.append("  every batch is full")
        return "\n".join(lines)


def _whole(name, value):
    """``value`` as an int, if it is a whole number >= 1 (numpy integers included)."""
    if not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")
    return int(value)


def _split(batch, replicas):
    """Per-replica sizes of one batch, as ``experimental_distribute_dataset`` cuts it.

    Each replica in turn takes ceil(batch / replicas) examples until none are left, so the
    last replicas of a short batch can get fewer, or none.
    """
    share = math.ceil(batch / replicas)
    return [max(0, min(share, batch - i * share)) for i in range(replicas)]


def batch_plan(replicas, per_replica_batch, base_learning_rate=1e-3, base_batch=None,
               examples=None):
    """Return the ``BatchPlan`` for ``replicas`` replicas of ``per_replica_batch`` examples.

    ``base_learning_rate`` is a rate that works at ``base_batch`` (default: one replica's
    batch); ``examples``, if given, is the dataset size, for the epoch's last batch.
    """
    replicas = _whole("replicas", replicas)
    per_replica_batch = _whole("per_replica_batch", per_replica_batch)
    if base_learning_rate <= 0:
        raise ValueError(f"base_learning_rate must be positive, got {base_learning_rate!r}")
    base_batch = base_batch or per_replica_batch
    global_batch = replicas * per_replica_batch
    slices = [(i * per_replica_batch, (i + 1) * per_replica_batch) for i in range(replicas)]
    plan = dict(replicas=replicas, per_replica_batch=per_replica_batch, global_batch=global_batch,
                slices=slices, base_learning_rate=base_learning_rate, base_batch=base_batch,
                learning_rate=base_learning_rate * global_batch / base_batch)
    if examples is not None:
        examples = _whole("examples", examples)
        last = examples % global_batch
        plan.update(examples=examples, steps_per_epoch=math.ceil(examples / global_batch),
                    last_batch=last, last_batch_split=_split(last, replicas) if last else [])
    return BatchPlan(**plan)


@dataclasses.dataclass(frozen=True)
class StrategyChoice:
    """The strategy to use: its class ``name``, a one-line ``reason``, the ``code`` that
    creates it, and its ``key`` in ``strategies.NAMES`` (for ``strategies.make(key)``)."""

    key: str
    name: str
    reason: str
    code: str

    def __str__(self):
        return f"Use {self.name}: {self.reason}\n\n{self.code}"


ACCELERATORS = ("cpu", "gpu", "tpu")

_TPU_CODE = """resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="{tpu}")
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)"""

_PS_CODE = """# on the coordinator; TF_CONFIG lists the "worker" and "ps" tasks
resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
strategy = tf.distribute.ParameterServerStrategy(resolver)
coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)"""


def choose_strategy(machines=1, accelerator="gpu", gpus_per_machine=1, sync=True):
    """Return the ``StrategyChoice`` for a setup.

    ``machines``: how many machines train together; ``accelerator``: "cpu", "gpu" or "tpu";
    ``gpus_per_machine``: GPUs on each machine (used when ``accelerator="gpu"``); ``sync``:
    True for synchronous all-reduce training, False for asynchronous parameter-server training.
    """
    machines = _whole("machines", machines)
    if accelerator not in ACCELERATORS:
        raise ValueError(f"accelerator must be one of {', '.join(ACCELERATORS)}, got {accelerator!r}")
    if accelerator == "gpu":
        gpus_per_machine = _whole("gpus_per_machine", gpus_per_machine)
    if accelerator == "tpu":
        tpu = "local" if machines == 1 else "your-tpu-pod-name"
        why = ("TPU cores train in lockstep, all-reducing gradients"
               + ("" if sync else " (there is no asynchronous TPU training)"))
        return StrategyChoice("tpu", "TPUStrategy", why, _TPU_CODE.format(tpu=tpu))
    if not sync:
        where = ("on real machines" if machines > 1 else
                 "on one machine only as local processes, to learn it; it rarely pays there")
        return StrategyChoice(
            "parameter_server", "ParameterServerStrategy",
            f"workers update variables held by parameter servers without waiting for each other, "
            f"{where}; train with a custom loop and ClusterCoordinator.schedule (Keras 3 fit "
            f"does not support it)", _PS_CODE)
    if machines > 1:
        return StrategyChoice(
            "multi_worker", "MultiWorkerMirroredStrategy",
            "every device on every machine holds a replica, gradients are all-reduced across "
            "machines; use a custom loop (Keras 3 fit does not run multi-worker) or tf-keras",
            "# on every machine, with TF_CONFIG naming the cluster and this task\n"
            "strategy = tf.distribute.MultiWorkerMirroredStrategy()")
    if accelerator == "gpu" and gpus_per_machine > 1:
        return StrategyChoice(
            "mirrored", "MirroredStrategy",
            f"one replica per GPU, {gpus_per_machine} in all, variables mirrored, gradients "
            "all-reduced between the GPUs",
            "strategy = tf.distribute.MirroredStrategy()  # uses every visible GPU")
    if accelerator == "gpu":
        return StrategyChoice(
            "one_device", "OneDeviceStrategy",
            "one GPU: nothing to synchronise; this keeps the code strategy-shaped and pins "
            "the work to the GPU",
            'strategy = tf.distribute.OneDeviceStrategy("/gpu:0")')
    return StrategyChoice(
        "default", "the default strategy",
        "a CPU-only machine has one device: there is nothing to distribute (MirroredStrategy "
        "over logical CPUs only simulates replicas, and runs slower)",
        "strategy = tf.distribute.get_strategy()  # the default: no distribution")


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
    """An ``Explorer`` over ``batch_plan``: sliders for replicas and per-replica batch, plus the
    dataset size; the learning rate is scaled from ``base_learning_rate`` at one replica's batch.
    """

    def compute(replicas, per_replica_batch, examples):
        return batch_plan(replicas, per_replica_batch, base_learning_rate,
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


def strategy_chooser(machines=1, accelerator="gpu", gpus_per_machine=1, sync=True):
    """An ``Explorer`` over ``choose_strategy``: machines, accelerator, GPUs per machine, sync."""

    def make_controls(w, values):
        style = {"description_width": "initial"}
        return {
            "machines": w.IntSlider(value=values["machines"], min=1, max=max(16, machines),
                                    description="machines", style=style),
            "accelerator": w.Dropdown(options=[("CPU only", "cpu"), ("GPU", "gpu"), ("TPU", "tpu")],
                                      value=values["accelerator"], description="accelerator",
                                      style=style),
            "gpus_per_machine": w.IntSlider(value=values["gpus_per_machine"], min=1,
                                            max=max(8, gpus_per_machine),
                                            description="GPUs per machine", style=style),
            "sync": w.ToggleButtons(options=[("synchronous (all-reduce)", True),
                                             ("asynchronous (parameter servers)", False)],
                                    value=values["sync"], description="updates", style=style),
        }

    return Explorer(choose_strategy, dict(machines=machines, accelerator=accelerator,
                                          gpus_per_machine=gpus_per_machine, sync=sync),
                    make_controls)
