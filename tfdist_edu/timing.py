"""Measuring training runs: a stopwatch, Keras callbacks, a side-by-side table, alternated repeats.

The statistics that turn paired repeats into a verdict live in ``verdict``; ``timing.paired``
is the same function, so a lesson needs one import.

Every timing a lesson shows comes from a ``RunTiming`` filled in by the run that printed it,
labelled with the hardware and the data it ran on.
"""

import contextlib
import dataclasses
import html
import statistics
import time

import keras

# One way to compare two timings, re-exported so a lesson needs one import: a typical ratio,
# its 95% interval, and faster / slower / within the threshold / undecided.
from tfdist_edu.verdict import FASTER, SLOWER, UNDECIDED, WITHIN, Paired, paired  # noqa: F401


class Timer:
    """A stopwatch that keeps every lap: ``start()``, ``stop()`` -> seconds, ``times``, ``sum()``."""

    def __init__(self):
        self.times = []
        self._tic = None

    def start(self):
        self._tic = time.perf_counter()

    def stop(self):
        """Stop the running lap, record it and return its length in seconds."""
        self.times.append(time.perf_counter() - self._tic)
        return self.times[-1]

    def sum(self):
        return sum(self.times)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()


@dataclasses.dataclass
class RunTiming:
    """The wall-clock record of one training run, JSON-able with ``dataclasses.asdict``.

    Epoch 0 includes tracing and graph building; ``steady_epoch_s`` and ``examples_per_s``
    leave it out whenever there is a later epoch to use instead.
    """

    name: str
    strategy: str = ""
    replicas: int = 1
    global_batch: int = 0
    epoch_seconds: list = dataclasses.field(default_factory=list)
    examples_per_epoch: int = 0
    steps_per_epoch: int = 0
    hardware: str = ""
    data: str = ""
    history: dict = dataclasses.field(default_factory=dict)
    # XLA on or off for this run's training step. Keras's jit_compile="auto" turns it on for a
    # model built without a strategy on a GPU/TPU and off under any strategy, so a fair
    # comparison sets it explicitly on every arm; the table prints it.
    jit_compile: object = None
    # Times of the equal-sized blocks of steps a run was split into (the tour alternates arms
    # block by block), when it was.
    block_seconds: list = dataclasses.field(default_factory=list)
    # This process's CPU time (all threads) in each of those blocks, beside the wall time, and
    # the whole call's wall time when block_seconds times only its steady steps (StepClock).
    block_cpu_seconds: list = dataclasses.field(default_factory=list)
    block_call_seconds: list = dataclasses.field(default_factory=list)
    block_wall_seconds: list = dataclasses.field(default_factory=list)
    # Other processes' CPU use, in cores, during each block (other_load.OtherLoad).
    block_other_cores: list = dataclasses.field(default_factory=list)

    @property
    def first_epoch_s(self):
        return self.epoch_seconds[0] if self.epoch_seconds else float("nan")

    @property
    def steady_epoch_s(self):
        """Median epoch time after the first (the first one alone if there is no other)."""
        later = self.epoch_seconds[1:] or self.epoch_seconds
        return statistics.median(later) if later else float("nan")

    @property
    def steady_step_s(self):
        """Mean wall time of one training step in the steady state."""
        return self.steady_epoch_s / self.steps_per_epoch if self.steps_per_epoch else float("nan")

    @property
    def examples_per_s(self):
        """Steady-state throughput in examples per second."""
        return self.examples_per_epoch / self.steady_epoch_s

    @classmethod
    def of(cls, name, strategy, course, global_batch, **fields):
        """A new record for a run named ``name`` of ``strategy`` on ``course`` (a
        ``data.CourseData``) at ``global_batch``, labelled with this machine's hardware.
        ``fields`` override what is derived (e.g. ``examples_per_epoch`` for a capped epoch)."""
        from tfdist_edu import hardware, strategies

        derived = dict(strategy=strategies.describe(strategy).split(":")[0],
                       replicas=strategy.num_replicas_in_sync, global_batch=global_batch,
                       examples_per_epoch=course.num_train, hardware=hardware.detect().summary(),
                       data=course.describe())
        return cls(name=name, **{**derived, **fields})

    def final(self, metric):
        """The last epoch's value of ``metric`` (e.g. "val_accuracy"), or None."""
        values = self.history.get(metric)
        return values[-1] if values else None


class TimingCallback(keras.callbacks.Callback):
    """A Keras callback that times each epoch of ``Model.fit`` into a ``RunTiming``.

    Pass it to ``fit(callbacks=[...])``; afterwards ``callback.run`` holds the epoch times and
    the per-epoch metrics Keras reported.
    """

    def __init__(self, run):
        super().__init__()
        self.run = run
        self._timer = Timer()

    def on_train_begin(self, logs=None):
        if self.run.jit_compile is None:  # what compile() resolved "auto" to, on this machine
            self.run.jit_compile = bool(getattr(self.model, "jit_compile", False))

    def on_epoch_begin(self, epoch, logs=None):
        self._timer.start()

    def on_epoch_end(self, epoch, logs=None):
        self.run.epoch_seconds.append(self._timer.stop())
        self.run.steps_per_epoch = self.params.get("steps") or self.run.steps_per_epoch
        for key, value in (logs or {}).items():
            self.run.history.setdefault(key, []).append(float(value))


class StepClock(keras.callbacks.Callback):
    """Wall and CPU clocks read at the end of every training step: the steady steps of a block.

    A Keras callback for ``fit`` (``on_train_batch_end``), or call ``tick()`` after each step of
    a custom loop. ``steady()`` returns (wall s, CPU s) from the end of the first step to the
    end of the last: the steps themselves, without starting and stopping the input iterator
    (a new distributed iterator can take up to seconds to start and to shut down) or the
    first step's tracing.
    """

    def __init__(self):
        super().__init__()
        self.ticks = []

    def tick(self):
        self.ticks.append((time.perf_counter(), time.process_time()))

    def on_train_batch_end(self, batch, logs=None):
        self.tick()

    def steady(self):
        if len(self.ticks) < 2:
            raise ValueError("a block needs at least 2 steps to time its steady steps")
        (wall0, cpu0), (wall1, cpu1) = self.ticks[0], self.ticks[-1]
        return wall1 - wall0, cpu1 - cpu0

    def median_step(self):
        """The median wall time of one step after the first: the typical step, which a step
        held up by something outside the training (another process, the OS) does not move."""
        walls = [b[0] - a[0] for a, b in zip(self.ticks, self.ticks[1:])]
        if not walls:
            raise ValueError("a block needs at least 2 steps to time its steady steps")
        return statistics.median(walls)


@contextlib.contextmanager
def epoch(run):
    """Time one epoch of a custom loop into ``run``: ``with timing.epoch(run): ...``."""
    timer = Timer()
    timer.start()
    yield
    run.epoch_seconds.append(timer.stop())


_COLUMNS = (
    ("run", lambda r: r.name),
    ("replicas", lambda r: r.replicas),
    ("global batch", lambda r: r.global_batch),
    ("jit_compile", lambda r: "-" if r.jit_compile is None else str(r.jit_compile)),
    ("first epoch (s)", lambda r: f"{r.first_epoch_s:.2f}"),
    ("steady epoch (s)", lambda r: f"{r.steady_epoch_s:.2f}"),
    ("step (ms)", lambda r: f"{1000 * r.steady_step_s:.1f}"),
    ("examples/s", lambda r: f"{r.examples_per_s:,.0f}"),
    ("final val acc", lambda r: _percent(r.final("val_accuracy"))),
)


def _percent(value):
    return "-" if value is None else f"{value:.1%}"


class Comparison:
    """Several ``RunTiming``s side by side; prints as text, renders as HTML in a notebook."""

    def __init__(self, runs, baseline=None):
        self.runs = list(runs)
        self.baseline = baseline or self.runs[0].name

    def speedup(self, name):
        """Steady-state throughput of run ``name`` divided by the baseline's (>1 is faster)."""
        runs = {r.name: r for r in self.runs}
        return runs[name].examples_per_s / runs[self.baseline].examples_per_s

    @property
    def rows(self):
        """The table as a list of dicts, one per run, including the speed-up vs the baseline."""
        rows = []
        for run in self.runs:
            row = {title: get(run) for title, get in _COLUMNS}
            row[f"vs {self.baseline}"] = f"{self.speedup(run.name):.2f}x"
            rows.append(row)
        return rows

    def labels(self):
        """The hardware and data the runs came from, one line each without repeats, then the
        runs' ``jit_compile`` when any run recorded it (run by run when they differ)."""
        seen = dict.fromkeys(f"{r.hardware} | {r.data}" for r in self.runs)
        return [f"measured on {label}" for label in seen] + self._jit_compile_label()

    def _jit_compile_label(self):
        values = {r.name: r.jit_compile for r in self.runs}
        if all(v is None for v in values.values()):
            return []
        if len(set(values.values())) == 1:
            return [f"jit_compile={next(iter(values.values()))} on every run"]
        return ["jit_compile differs: " + ", ".join(
            f"{name} {'not recorded' if v is None else v}" for name, v in values.items())]

    def __str__(self):
        rows = self.rows
        headers = list(rows[0])
        widths = [max(len(h), *(len(str(r[h])) for r in rows)) for h in headers]
        lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths))]
        lines.append("  ".join("-" * w for w in widths))
        lines += ["  ".join(str(r[h]).ljust(w) for h, w in zip(headers, widths)) for r in rows]
        return "\n".join(lines + self.labels())

    def __repr__(self):  # a notebook's plain-text form of the table: the table, not an address
        return str(self)

    def _repr_html_(self):
        rows = self.rows
        head = "".join(f"<th>{html.escape(h)}</th>" for h in rows[0])
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in r.values()) + "</tr>"
            for r in rows
        )
        notes = "".join(f"<br><small>{html.escape(n)}</small>" for n in self.labels())
        return f"<table><tr>{head}</tr>{body}</table>{notes}"


def compare(runs, baseline=None):
    """Lay several runs side by side; ``baseline`` names the run speed-ups are relative to."""
    return Comparison(runs, baseline)


# --- Paired, alternated repeats; ``paired`` (from ``verdict``) reads them.

def alternate(arms, repeats, warmup=1):
    """Time each callable in ``arms`` (name -> fn) ``repeats`` times, alternating their order.

    Every arm runs ``warmup`` times first (tracing, caches), untimed. Rounds alternate the
    order (A B, B A, ...), so a machine that slows down for a while slows every arm alike.
    Returns name -> list of seconds, the i-th entries of all arms measured in the same round.
    """
    for _ in range(warmup):
        for fn in arms.values():
            fn()
    names = list(arms)
    times = {name: [] for name in names}
    for round_ in range(repeats):
        for name in (names if round_ % 2 == 0 else names[::-1]):
            tic = time.perf_counter()
            arms[name]()
            times[name].append(time.perf_counter() - tic)
    return times
