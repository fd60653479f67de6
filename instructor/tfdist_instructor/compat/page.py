"""The page, docs/compatibility.md: the table, its notes and advice, from templates/compatibility.md.j2.

This module decides what each cell, note and line of advice says, and reads the versions and
machine the page names; the template holds the page's fixed text and layout.
"""

import glob
import os
import platform

import jinja2

from tfdist_instructor.compat.job import PER_REPLICA_BATCH, STEPS
from tfdist_instructor.compat.outcome import FAILS, NO_HARDWARE, PATHS, WORKS, WRONG_METRICS
from tfdist_instructor.machine import installed_version

PATH_TITLES = {
    "keras_fit": "Keras 3 `Model.fit`",
    "keras_ctl": "Keras 3 custom loop",
    "tf_keras_fit": "tf-keras `Model.fit`",
}
STRATEGY_TITLES = {
    "default": "default strategy",
    "one_device": "`OneDeviceStrategy`",
    "mirrored": "`MirroredStrategy`",
    "central_storage": "`CentralStorageStrategy`",
    "tpu": "`TPUStrategy`",
    "multi_worker": "`MultiWorkerMirroredStrategy` (2 workers)",
    "parameter_server": "`ParameterServerStrategy` (2 workers, 1 ps)",
}
# Failures with a known upstream report; cited beside the measured error, never instead of it.
KNOWN_ISSUES = {
    ("multi_worker", "keras_fit"): "https://github.com/keras-team/keras/issues/20585",
    ("parameter_server", "keras_fit"): "https://github.com/keras-team/keras/issues/18624",
}
_TEMPLATES = jinja2.Environment(loader=jinja2.PackageLoader("tfdist_instructor.compat"), trim_blocks=True,
                                lstrip_blocks=True, keep_trailing_newline=True, undefined=jinja2.StrictUndefined)


def render(outcomes, env, date):
    """Return the Markdown page for ``outcomes`` measured with ``env`` (see environment()) on ``date``."""
    by_key = {(o.strategy, o.path): o for o in outcomes}
    rows = list(dict.fromkeys(o.strategy for o in outcomes))
    cols = [p for p in PATHS if any(o.path == p for o in outcomes)]
    notes = {}  # error text -> its number: one note for the same error in several cells
    table = [(STRATEGY_TITLES[strategy], [_cell(by_key.get((strategy, path)), notes) for path in cols])
             for strategy in rows]
    notes = [(number, error, sorted({KNOWN_ISSUES[o.strategy, o.path] for o in outcomes
                                     if o.error == error and (o.strategy, o.path) in KNOWN_ISSUES}))
             for error, number in notes.items()]  # (number, error, its upstream reports)
    return _TEMPLATES.get_template("compatibility.md.j2").render(
        env=env, date=date, titles=[PATH_TITLES[p] for p in cols], table=table, notes=notes,
        advice=_advice(by_key, rows, cols), steps=STEPS, per_replica_batch=PER_REPLICA_BATCH)


def _cell(outcome, notes):
    """What one cell says; a problem gets the number of its error in ``notes``, added when new."""
    if outcome is None:
        return "not run"
    if outcome.status == WORKS:
        return "works"
    number = notes.setdefault(outcome.error, len(notes) + 1)
    label = {NO_HARDWARE: "no TPU here", WRONG_METRICS: "trains, wrong metrics"}.get(
        outcome.status, f"fails: `{outcome.error.split(':')[0]}`")
    return f"{label} [{number}]"


def _advice(by_key, rows, cols):
    """One line per strategy where some path fails and another works: the paths that work."""
    lines = []
    for strategy in rows:
        outcomes = [by_key[strategy, p] for p in cols if (strategy, p) in by_key]
        problems = [f"{PATH_TITLES[o.path]} {'fails' if o.status == FAILS else 'reports wrong metrics'}"
                    for o in outcomes if o.status in (FAILS, WRONG_METRICS)]
        working = [PATH_TITLES[o.path] for o in outcomes if o.status == WORKS]
        if problems and working:
            lines.append(f"- {STRATEGY_TITLES[strategy]}: {' and '.join(problems)} here; "
                         f"{' or '.join(working)} works.")
    return lines


def environment():
    """The versions and machine a table was measured with, as a dict of strings.

    Reads installed package versions without importing TensorFlow, by module: the nightlies
    (tf-nightly, keras-nightly, tf-keras-nightly) count as TensorFlow, Keras and tf-keras.
    """

    def version(module):
        return installed_version(module) or "not installed"

    return {
        "tensorflow": version("tensorflow"),
        "keras": version("keras"),
        "tf_keras": version("tf_keras"),
        "python": platform.python_version(),
        "machine": _machine(),
    }


def _machine():
    """The hardware label of a table, e.g. "Linux x86_64, 2 CPU cores, no GPU, no TPU"."""
    gpus = glob.glob("/dev/nvidia[0-9]*")
    tpu = glob.glob("/dev/accel[0-9]*") or glob.glob("/dev/vfio/[0-9]*")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (f"{platform.system()} {platform.machine()}, {cores} CPU cores, "
            f"{f'{len(gpus)} GPU(s)' if gpus else 'no GPU'}, {'a TPU' if tpu else 'no TPU'}")
