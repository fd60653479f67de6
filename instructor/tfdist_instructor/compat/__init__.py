"""Which strategy trains with which Keras path: measured here, one combination per fresh process.

Three ways to train a model meet seven strategies, and not every pair works. Rather than keep a
list by hand, this module runs each pair for real and records what happened:

* ``keras_fit``: Keras 3 ``Model.fit``;
* ``keras_ctl``: a Keras 3 model in a custom training loop (``strategy.run`` and ``reduce``,
  or ``ClusterCoordinator.schedule`` for the parameter-server strategy);
* ``tf_keras_fit``: ``Model.fit`` from tf-keras, the Keras 2 package (``TF_USE_LEGACY_KERAS=1``
  in that process only).

Every combination trains a tiny model for a few steps on synthetic data in a process of its own,
so no state leaks from one to the next: local strategies on 2 simulated CPUs (or the GPUs),
``multi_worker`` as 2 local workers through :mod:`tfdist_edu.cluster`, ``parameter_server`` on
an in-process cluster of 2 workers and 1 ps, and ``tpu`` on the TPU when there is one (here it
records the ``NoTPUError``). A combination *works* when its steps ran, the loss is finite and
the weights changed, and (for the synchronous strategies) a replay of the same steps on one
device ends with the same weights and the same loss as the one reported; when only the loss
differs the combination "trains, with wrong metrics". Multi-worker runs must also end with
identical weights on both workers.

``tfdist-instructor compat`` (``make compat``) measures the whole matrix and
writes the table; tests/test_compat.py checks that the committed table still matches.
Importing this module does not import TensorFlow.
"""

import argparse
import concurrent.futures
import dataclasses
import datetime
import hashlib
import importlib.metadata
import json
import math
import os
import platform
import re
import sys
import tempfile
import time
from pathlib import Path

from tfdist_edu import cluster, strategies, supervisor, worker
from tfdist_instructor import REPO_ROOT

STRATEGIES = strategies.NAMES
PATHS = ("keras_fit", "keras_ctl", "tf_keras_fit")
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

WORKS, FAILS, NO_HARDWARE = "works", "fails", "no hardware"
WRONG_METRICS = "wrong metrics"  # trains, but the losses and metrics Keras reports are wrong
DEADLINE_S = 180  # per combination: a hang is recorded as a failure, never waited out
# The tiny training job every combination runs.
FEATURES, CLASSES, PER_REPLICA_BATCH, STEPS = 8, 4, 16, 3
LEARNING_RATE = 0.1
DEFAULT_DOC = REPO_ROOT / "docs" / "compatibility.md"


@dataclasses.dataclass
class Outcome:
    """What one strategy x path combination did.

    ``status`` is "works", "fails", "wrong metrics" (the weights match a replay of the same
    steps on one device, the loss reported does not) or "no hardware" (a TPU row without a TPU);
    ``error`` is the exception as one line, ``"Type: message"`` (None when it works); ``detail``
    says what ran, e.g. "2 replicas, loss 1.41". ``seconds`` is the wall time, start-up included.
    """

    strategy: str
    path: str
    status: str
    error: str | None = None
    detail: str = ""
    seconds: float = 0.0


def run_combination(strategy, path, deadline_s=DEADLINE_S):
    """Train briefly with ``strategy`` (a name in STRATEGIES) on ``path`` (in PATHS); return an Outcome.

    Runs in fresh processes (two workers for multi_worker), killed by ``deadline_s`` at the
    latest; an error, a crash or a timeout becomes a "fails" outcome, never an exception here.
    """
    strategy = strategies.canonical_name(strategy)
    if path not in PATHS:
        raise ValueError(f"unknown path {path!r}; choose one of {', '.join(PATHS)}")
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="tfdist-compat-") as workdir:
        if strategy == "multi_worker":
            outcome = _run_workers(path, deadline_s, workdir)
        else:
            outcome = _run_probe(strategy, path, deadline_s, workdir)
    outcome.seconds = round(time.monotonic() - start, 1)
    return outcome


def run_matrix(strategy_names=STRATEGIES, paths=PATHS, parallel=1, deadline_s=DEADLINE_S, echo=True):
    """Run every combination of ``strategy_names`` x ``paths``; return the Outcomes in that order.

    ``parallel`` combinations run at a time. With ``echo`` each outcome is printed as it lands.
    """
    combos = [(s, p) for s in strategy_names for p in paths]
    with concurrent.futures.ThreadPoolExecutor(max_workers=parallel) as pool:
        futures = [pool.submit(run_combination, s, p, deadline_s) for s, p in combos]
        for future in concurrent.futures.as_completed(futures):
            if echo:
                o = future.result()
                print(f"{o.strategy:17} {o.path:13} {o.status:13} {o.seconds:5.1f} s  {o.error or o.detail}",
                      flush=True)
        return [f.result() for f in futures]


def environment():
    """The versions and machine a table was measured with, as a dict of strings.

    Reads installed package versions without importing TensorFlow.
    """

    def version(dist):
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            return "not installed"

    return {
        "tensorflow": version("tensorflow"),
        "keras": version("keras"),
        "tf_keras": version("tf-keras"),
        "python": platform.python_version(),
        "machine": _machine(),
    }


def render(outcomes, env, date):
    """Return the Markdown page for ``outcomes`` measured with ``env`` (see environment()) on ``date``."""
    by_key = {(o.strategy, o.path): o for o in outcomes}
    rows = list(dict.fromkeys(o.strategy for o in outcomes))
    cols = [p for p in PATHS if any(o.path == p for o in outcomes)]
    notes = {}  # error text -> its number: one note for the same error in several cells
    lines = [
        "<!-- Generated by `tfdist-instructor compat --write docs/compatibility.md`; do not edit.",
        "     tests/instructor/test_compat.py measures the matrix again and fails when this page no longer matches. -->",
        "",
        "# Which strategy works with which training path",
        "",
        f"Measured on {date} with TensorFlow {env['tensorflow']}, Keras {env['keras']}, "
        f"tf-keras {env['tf_keras']}, Python {env['python']}.",
        f"Machine: {env['machine']}.",
        "",
        "| strategy | " + " | ".join(PATH_TITLES[p] for p in cols) + " |",
        "| --- | " + " | ".join("---" for _ in cols) + " |",
    ]
    for strategy in rows:
        cells = []
        for path in cols:
            o = by_key.get((strategy, path))
            if o is None:
                cells.append("not run")
            elif o.status == WORKS:
                cells.append("works")
            else:
                number = notes.setdefault(o.error, len(notes) + 1)
                label = {NO_HARDWARE: "no TPU here", WRONG_METRICS: "trains, wrong metrics"}.get(
                    o.status, f"fails: `{o.error.split(':')[0]}`")
                cells.append(f"{label} [{number}]")
        lines.append(f"| {STRATEGY_TITLES[strategy]} | " + " | ".join(cells) + " |")
    if notes:
        lines += ["", "What went wrong, as measured:", ""]
        for error, number in notes.items():
            known = sorted({KNOWN_ISSUES[o.strategy, o.path] for o in outcomes
                            if o.error == error and (o.strategy, o.path) in KNOWN_ISSUES})
            lines.append(f"{number}. `{error}`" + (f" Reported upstream: {', '.join(known)}." if known else ""))
    advice = _advice(by_key, rows, cols)
    if advice:
        lines += ["", "## What to use instead", ""] + advice
    lines += [
        "",
        "## How this was measured",
        "",
        f"Each cell is one run in a fresh Python process: a two-layer model trains for {STEPS} steps of "
        f"{PER_REPLICA_BATCH} synthetic examples per replica with plain SGD. A cell says *works* when the "
        "steps ran, the loss was finite, the weights changed, and the run agrees with a replay of the same "
        "steps on one device with no strategy: the same final weights, and the same loss as the one "
        "reported (for `fit`, the epoch's mean loss; for the custom loop, the last step's). *Trains, wrong "
        "metrics* means the weights match the replay but the loss reported does not. The "
        "parameter-server strategy trains asynchronously, so it has no single-device replay; there "
        "*works* means the steps ran and the loss is finite.",
        "",
        "Local strategies run on 2 simulated CPU devices (or the GPUs). `MultiWorkerMirroredStrategy` "
        "runs as 2 worker processes on loopback ports, and *works* also requires both workers to end with "
        "identical weights. `ParameterServerStrategy` runs on an in-process cluster of 2 workers and 1 "
        "parameter server, its custom loop through `ClusterCoordinator.schedule`. tf-keras runs with "
        "`TF_USE_LEGACY_KERAS=1` in its own process only. Without a TPU the TPU row records the "
        "`NoTPUError` that `tfdist_edu.hardware.connect_tpu()` raises.",
        "",
        "Regenerate this page on your machine with:",
        "",
        "```bash",
        "tfdist-instructor compat --write docs/compatibility.md",
        "```",
        "",
    ]
    return "\n".join(lines)


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


def write(path=DEFAULT_DOC, parallel=None):
    """Measure the whole matrix, write its page to ``path``; return the Outcomes."""
    outcomes = run_matrix(parallel=parallel or default_parallel())
    text = render(outcomes, environment(), datetime.date.today().isoformat())
    Path(path).write_text(text)
    return outcomes


def default_parallel():
    """How many combinations to run at once here: 2 on 2+ cores (most of a run is process start-up)."""
    return 2 if (os.cpu_count() or 1) >= 2 else 1


# --------------------------------------------------------------------------------------------
# The parent side: start processes, read what they wrote


def _run_probe(strategy, path, deadline_s, workdir):
    result = Path(workdir, "result.json")
    env = cluster.worker_env(legacy_keras=path == "tf_keras_fit")
    env[worker.RESULT_ENV] = str(result)
    argv = [sys.executable, "-u", "-m", "tfdist_instructor.compat", "--probe", strategy, path]
    try:
        with supervisor.Supervisor(deadline_s, echo=False) as sup:
            sup.start("probe", argv, env=env)
            sup.wait()
    except supervisor.ClusterError as err:
        return _from_result(strategy, path, result) or Outcome(strategy, path, FAILS, _crash_line(err, deadline_s))
    return _from_result(strategy, path, result) or Outcome(
        strategy, path, FAILS, "RuntimeError: the probe exited without writing a result")


def _run_workers(path, deadline_s, workdir):
    script = Path(__file__).resolve()
    try:
        run = cluster.launch_workers(script, num_workers=2, args=["--worker", path], deadline_s=deadline_s,
                                     legacy_keras=path == "tf_keras_fit", echo=False, workdir=workdir)
    except supervisor.ClusterError as err:
        written = [r for r in (err.run.results if err.run else []) if r]
        if written:
            return Outcome("multi_worker", path, FAILS, written[0]["error"])
        return Outcome("multi_worker", path, FAILS, _crash_line(err, deadline_s))
    results = run.results
    if any(r is None for r in results):
        return Outcome("multi_worker", path, FAILS, "RuntimeError: a worker exited without writing a result")
    failed = [r for r in results if r["status"] != WORKS]
    if failed:
        return Outcome("multi_worker", path, failed[0]["status"], failed[0]["error"])
    if len({r["weights_sha256"] for r in results}) != 1:
        return Outcome("multi_worker", path, FAILS,
                       "AssertionError: the workers ended with different weights: the updates were not in sync")
    first = results[0]
    return Outcome("multi_worker", path, WORKS,
                   detail=f"2 workers, {first['replicas']} replicas, same weights on both, loss {first['loss']:.2f}")


def _from_result(strategy, path, result):
    try:
        data = json.loads(result.read_text())
    except (OSError, ValueError):
        return None
    return Outcome(strategy, path, data["status"], data.get("error"), data.get("detail", ""))


def _crash_line(err, deadline_s):
    if isinstance(err, supervisor.ClusterTimeout):
        return f"TimeoutError: no result within {deadline_s} s (the run hung)"
    tail = [line for line in str(err).splitlines()[1:] if line.strip()]
    return "RuntimeError: the process died: " + (_one_line(tail[-1]) if tail else "no output")


def _one_line(text, limit=200):
    """One stable line of an error message: whitespace collapsed, run-specific details masked."""
    text = " ".join(str(text).split())
    text = re.sub(r",\s*numpy=[^>]*>", ">", text)  # tensor values in a repr: long and run-specific
    text = re.sub(r"0x[0-9a-fA-F]+", "0x...", text)
    text = re.sub(r"(localhost|127\.0\.0\.1|\[::1\]):\d+", r"\1:PORT", text)
    text = re.sub(r"/tmp/\S+", "/tmp/...", text)
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


def _machine():
    """The hardware label of a table, e.g. "Linux x86_64, 2 CPU cores, no GPU, no TPU"."""
    import glob

    gpus = glob.glob("/dev/nvidia[0-9]*")
    tpu = glob.glob("/dev/accel[0-9]*") or glob.glob("/dev/vfio/[0-9]*")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (f"{platform.system()} {platform.machine()}, {cores} CPU cores, "
            f"{f'{len(gpus)} GPU(s)' if gpus else 'no GPU'}, {'a TPU' if tpu else 'no TPU'}")


# --------------------------------------------------------------------------------------------
# The child side: one combination, in this process


def _report(status, error=None, detail=""):
    worker.write_result({"status": status, "error": error, "detail": detail})


def _data(global_batch):
    """Synthetic, learnable examples (labels from a fixed linear teacher), repeated, in global batches."""
    import numpy as np
    import tensorflow as tf

    rng = np.random.default_rng(0)
    x = rng.normal(size=(512, FEATURES)).astype("float32")
    y = np.argmax(x @ rng.normal(size=(FEATURES, CLASSES)), axis=1).astype("int64")
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(global_batch, drop_remainder=True)
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
    return dataset.with_options(options)


def _model(keras_module):
    keras_module.utils.set_random_seed(0)
    return keras_module.Sequential([
        keras_module.Input((FEATURES,)),
        keras_module.layers.Dense(16, activation="relu"),
        keras_module.layers.Dense(CLASSES),
    ])


def _checksum(model):
    import numpy as np

    digest = hashlib.sha256()
    for w in model.get_weights():
        digest.update(np.ascontiguousarray(w).tobytes())
    return digest.hexdigest()


def _train(strategy, path, coordinator=None):
    """Train STEPS steps on ``path`` under ``strategy``; return a dict of what the verdict needs.

    ``loss``: what the run reports (``fit``: the epoch's mean loss; custom loop: the last step's
    reduced loss); ``changed``: whether the weights moved; ``checksum``: of the final weights;
    ``expected``: the same number from a replay of the same steps on one device, and
    ``same_weights``: whether the replay ends with the same weights; both None for the
    parameter-server strategy, whose asynchronous steps have no single-device replay.
    """
    import numpy as np
    import tensorflow as tf

    if path == "tf_keras_fit":
        keras_module = tf.keras  # tf-keras: TF_USE_LEGACY_KERAS=1 is set in this process
    else:
        import keras as keras_module
    global_batch = PER_REPLICA_BATCH * strategy.num_replicas_in_sync
    with strategy.scope():
        model = _model(keras_module)
        optimizer = keras_module.optimizers.SGD(LEARNING_RATE)
    before = _checksum(model)
    if path in ("keras_fit", "tf_keras_fit"):
        with strategy.scope():
            model.compile(optimizer=optimizer,
                          loss=keras_module.losses.SparseCategoricalCrossentropy(from_logits=True))
        history = model.fit(_data(global_batch), epochs=1, steps_per_epoch=STEPS, verbose=0)
        loss = float(history.history["loss"][-1])
    else:
        loss = float(_custom_loop(strategy, model, optimizer, global_batch, coordinator))
    result = {"loss": loss, "checksum": _checksum(model), "expected": None, "same_weights": None}
    result["changed"] = result["checksum"] != before
    if coordinator is None:
        replayed, weights = _replay(keras_module, global_batch)
        result["expected"] = sum(replayed) / len(replayed) if path.endswith("fit") else replayed[-1]
        result["same_weights"] = all(np.allclose(trained, replay, rtol=1e-3, atol=1e-5)
                                     for trained, replay in zip(model.get_weights(), weights))
    return result


def _replay(keras_module, global_batch):
    """Train the STEPS steps again on one device with no strategy; return (losses, final weights).

    Synchronous training over any number of replicas must compute these same numbers: the same
    seed gives the same starting weights, and each step sees the same global batch.
    """
    import tensorflow as tf

    model = _model(keras_module)
    optimizer = keras_module.optimizers.SGD(LEARNING_RATE)
    loss_fn = keras_module.losses.SparseCategoricalCrossentropy(from_logits=True)
    losses = []
    for features, labels in _data(global_batch).take(STEPS):
        with tf.GradientTape() as tape:
            loss = loss_fn(labels, model(features, training=True))
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        losses.append(float(loss))
    return losses, model.get_weights()


def _custom_loop(strategy, model, optimizer, global_batch, coordinator):
    import keras
    import tensorflow as tf

    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction=None)

    def replica_step(x, y):
        with tf.GradientTape() as tape:
            per_example = loss_fn(y, model(x, training=True))
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=global_batch)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    @tf.function
    def train_step(iterator):
        per_replica = strategy.run(replica_step, args=next(iterator))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)

    if coordinator is not None:  # parameter server: workers run the steps the coordinator schedules
        iterator = iter(coordinator.create_per_worker_dataset(lambda: _data(global_batch)))
        scheduled = [coordinator.schedule(train_step, args=(iterator,)) for _ in range(STEPS)]
        coordinator.join()
        return scheduled[-1].fetch()
    iterator = iter(strategy.experimental_distribute_dataset(_data(global_batch)))
    for _ in range(STEPS):
        loss = train_step(iterator)
    return loss


def _verdict(result, replicas):
    """Return (status, error, detail) for what ``_train`` returned."""
    loss = result["loss"]
    detail = f"{replicas} replica{'s' if replicas != 1 else ''}, loss {loss:.2f}"
    if not math.isfinite(loss):
        return FAILS, f"FloatingPointError: the loss is {loss}", detail
    if not result["changed"]:
        return FAILS, "AssertionError: training ran but the weights did not change", detail
    if result["same_weights"] is False:
        return FAILS, "AssertionError: the weights differ from the same steps replayed on one device", detail
    expected = result["expected"]
    if expected is not None and not math.isclose(loss, expected, rel_tol=1e-3):
        detail += f"; a replay on one device gives {expected:.4f}"
        return WRONG_METRICS, ("AssertionError: the weights match the same steps replayed on one device, "
                               "but the loss reported does not: the metrics are wrong"), detail
    return WORKS, None, detail


def _probe(strategy_name, path):
    """Child process: build one local strategy, train on ``path``, report through write_result."""
    import tensorflow as tf

    from tfdist_edu import hardware

    coordinator = None
    try:
        if strategy_name == "parameter_server":
            from tfdist_edu.scripts.ps_train import in_process_cluster

            strategy = tf.distribute.ParameterServerStrategy(in_process_cluster(num_workers=2, num_ps=1))
            coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)
        else:
            if strategy_name != "tpu" and not tf.config.list_physical_devices("GPU"):
                hardware.simulate_devices(2)
            strategy = strategies.make(strategy_name)
        _report(*_verdict(_train(strategy, path, coordinator), strategy.num_replicas_in_sync))
    except hardware.NoTPUError as err:
        first_sentence = str(err).split(". ")[0]
        cause = f" (TensorFlow raised {type(err.__cause__).__name__})" if err.__cause__ else ""
        _report(NO_HARDWARE, _one_line(f"NoTPUError: {first_sentence}.{cause}"))
    except Exception as err:  # the point is to record what fails, whatever it is
        _report(FAILS, _one_line(f"{type(err).__name__}: {err}"))
    sys.stdout.flush()
    # In-process parameter servers cannot be stopped, so leave without waiting for them.
    os._exit(0)


def _worker(path):
    """Child process: one multi-worker task; reports and exits non-zero on error so peers are killed."""
    import tensorflow as tf

    try:
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        result = _train(strategy, path)
    except Exception as err:
        worker.write_result({"status": FAILS, "error": _one_line(f"{type(err).__name__}: {err}")})
        sys.stdout.flush()
        os._exit(1)
    status, error, detail = _verdict(result, strategy.num_replicas_in_sync)
    worker.write_result({"status": status, "error": error, "detail": detail, "loss": result["loss"],
                          "replicas": strategy.num_replicas_in_sync, "weights_sha256": result["checksum"]})


def main(argv=None):
    """``python -m tfdist_instructor.compat --write docs/compatibility.md``: measure and write the table."""
    parser = argparse.ArgumentParser(prog="python -m tfdist_instructor.compat", description=main.__doc__)
    parser.add_argument("--write", metavar="PATH", help="measure every combination and write the Markdown table")
    parser.add_argument("--parallel", type=int, default=None,
                        help="combinations run at once (default: 2 on 2+ cores)")
    parser.add_argument("--probe", nargs=2, metavar=("STRATEGY", "PATH"), help=argparse.SUPPRESS)
    parser.add_argument("--worker", metavar="PATH", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.probe:
        _probe(*args.probe)
    elif args.worker:
        _worker(args.worker)
    elif args.write:
        outcomes = write(args.write, parallel=args.parallel)
        print(f"wrote {args.write}: {sum(o.status == WORKS for o in outcomes)} of {len(outcomes)} combinations work")
    else:
        parser.error("nothing to do: pass --write PATH")
    return 0


if __name__ == "__main__":
    sys.exit(main())
