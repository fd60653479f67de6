"""The main job: a short measured tour of the default and the mirrored strategy.

``run_tour()`` trains the course CNN under the default strategy and under MirroredStrategy,
each with ``Model.fit`` and with the reference custom loop, on whatever machine it runs on,
and writes a report folder: report.md and report.html (a table and a reading of it),
the figures as PNG, and the raw numbers as results.json.
"""

import dataclasses
import html
import json
import os
import sys
import tempfile

from tfdist_edu import settings

RUNS = (("default", "fit"), ("default", "custom loop"),
        ("mirrored", "fit"), ("mirrored", "custom loop"))
SAME_SPEED = 0.05  # throughputs within 5% of each other are read as "about as fast"


def check_arguments(epochs, replicas, per_replica_batch, out):
    """Refuse bad arguments and an output folder that cannot be written, before any training."""
    for name, value in (("--epochs", epochs), ("--replicas", replicas), ("--batch", per_replica_batch)):
        if value is not None and value < 1:
            raise ValueError(f"{name} must be at least 1, got {value}")
    try:
        os.makedirs(out, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as error:
        raise ValueError(f"--out {out!r} is not a folder this user can write to "
                         f"({error.strerror or error})") from None


def prepare_devices(replicas):
    """Make ``replicas`` devices exist for MirroredStrategy; return how they were found.

    Real GPUs are used when there are enough; otherwise one GPU, or the CPU, is split into
    logical devices. This must run before TensorFlow initialises.
    """
    import tensorflow as tf

    from tfdist_edu import hardware

    if replicas < 1:
        raise ValueError(f"--replicas must be at least 1, got {replicas}")
    gpus = tf.config.list_physical_devices("GPU")
    if len(gpus) >= replicas:
        return f"{replicas} GPUs"
    kind = "GPU" if gpus else "CPU"
    hardware.simulate_devices(replicas, kind=kind)
    return f"{replicas} logical {kind} devices simulated on one {kind}"


def _train(strategy_name, method, course, epochs, per_replica_batch, hardware_label):
    import keras

    from tfdist_edu import data, models, strategies, timing, training

    strategy = strategies.make(strategy_name)
    # Same per-replica batch everywhere: more replicas means a larger global batch.
    global_batch = per_replica_batch * strategy.num_replicas_in_sync
    train = data.batches(course.train, global_batch)
    test = data.batches(course.test, global_batch, shuffle=False)
    run = timing.RunTiming.of(f"{strategy_name} {method}", strategy, course, global_batch,
                              hardware=hardware_label, data=course.label)
    print(f"\n== {run.name}: {strategies.describe(strategy)}, global batch {global_batch}",
          flush=True)
    keras.utils.set_random_seed(0)
    with strategy.scope():
        model = models.for_data(course)
        optimizer = keras.optimizers.Adam(1e-3)
    if method == "fit":
        model.compile(optimizer, keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                      metrics=["accuracy"])
        # shuffle=False: the pipeline already shuffles each epoch (data.batches).
        model.fit(train, epochs=epochs, validation_data=test, shuffle=False,
                  verbose=1 if sys.stdout.isatty() else 2,
                  callbacks=[timing.TimingCallback(run)])
    else:
        training.CustomLoop(strategy, model, optimizer, global_batch).fit(
            train, epochs=epochs, validation_data=test, run=run)
    return run


def reading(runs, device_note):
    """Return a paragraph that reads the measured runs, with the numbers in it."""
    by_name = {run.name: run for run in runs}
    default, mirrored = by_name["default fit"], by_name["mirrored fit"]
    ratio = mirrored.examples_per_s / default.examples_per_s
    if abs(ratio - 1) <= SAME_SPEED:
        speed = f"about as fast ({ratio:.2f}x)"
    else:
        speed = f"{ratio:.1f}x faster" if ratio > 1 else f"{1 / ratio:.1f}x slower"
    text = (f"With Model.fit, MirroredStrategy over {mirrored.replicas} replicas ({device_note}) "
            f"was {speed} than the default strategy in the steady state "
            f"({mirrored.examples_per_s:,.0f} vs {default.examples_per_s:,.0f} examples/s). ")
    if abs(ratio - 1) <= SAME_SPEED:
        text += ("Within a few percent, that is the noise of one short run: neither setup is "
                 "faster here. ")
    elif "simulated" in device_note and ratio < 1:
        text += ("Its replicas are logical devices that share the same processor, so they "
                 "cannot compute in parallel, while every step still pays for splitting the "
                 "batch and all-reducing the gradients. ")
    elif ratio < 1:
        text += ("At this model and batch size the per-step synchronisation outweighs the "
                 "extra compute; a larger global batch or more work per step pays it back. ")
    else:
        text += "The replicas computed in parallel and the gradient all-reduce cost less than it saved. "
    first = max(runs, key=lambda r: r.first_epoch_s / r.steady_epoch_s)
    if first.first_epoch_s > first.steady_epoch_s:
        text += (f"The first epoch of {first.name} took {first.first_epoch_s:.1f}s against "
                 f"{first.steady_epoch_s:.1f}s later: it includes tracing the training step "
                 "into a graph. ")
    accuracy = {r.name: r.final("val_accuracy") for r in runs}
    text += (f"After {len(default.epoch_seconds)} epochs the validation accuracy was "
             + ", ".join(f"{acc:.1%} ({name})" for name, acc in accuracy.items()) + ". ")
    if mirrored.global_batch > default.global_batch:
        text += (f"The mirrored runs kept {mirrored.global_batch // mirrored.replicas} examples "
                 f"per replica, so their global batch was {mirrored.global_batch} and they took "
                 f"{mirrored.global_batch / default.global_batch:.0f}x fewer optimizer steps per "
                 "epoch: that, not the strategy, is where a gap in accuracy comes from.")
    return text


def write_report(out, runs, paragraph, figures, header):
    """Write report.md, report.html, results.json and the figures into ``out``."""
    from tfdist_edu import timing

    os.makedirs(out, exist_ok=True)
    for name, figure in figures.items():
        figure.savefig(os.path.join(out, f"{name}.png"), dpi=110, bbox_inches="tight")
    table = timing.compare(runs)
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump({"header": header, "reading": paragraph,
                   "runs": [dataclasses.asdict(r) for r in runs]}, f, indent=2)
    rows = table.rows
    md_table = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * len(rows[0])]
    md_table += ["| " + " | ".join(str(v) for v in row.values()) + " |" for row in rows]
    images = [f"![{name}]({name}.png)" for name in figures]
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n\n".join(["# tfdist-edu tour", *header, "\n".join(md_table),
                             *table.labels(), paragraph, *images]) + "\n")
    body = "".join(f"<p>{html.escape(line)}</p>" for line in header)
    body += table._repr_html_() + f"<p>{html.escape(paragraph)}</p>"
    body += "".join(f'<p><img src="{name}.png" alt="{name}" width="720"></p>' for name in figures)
    with open(os.path.join(out, "report.html"), "w") as f:
        f.write(f"<!doctype html><meta charset='utf-8'><title>tfdist-edu tour</title>"
                f"<h1>tfdist-edu tour</h1>{body}")


def run_tour(epochs=None, replicas=2, dataset="fashion_mnist", source=None,
             out="tour-report", per_replica_batch=64):
    """Train four short runs, print their table and reading, write the report; return the runs."""
    check_arguments(epochs, replicas, per_replica_batch, out)
    device_note = prepare_devices(replicas)

    from tfdist_edu import data, hardware, plots, timing

    epochs = epochs or (2 if settings.fast_mode() else 3)
    report = hardware.detect()
    course = data.load(dataset, source=source)
    header = [f"Hardware: {report.summary()}", f"Data: {course.describe()}",
              f"TensorFlow {report.tensorflow}, Keras {report.keras}; {epochs} epochs per run."]
    print("\n".join(header), flush=True)
    runs = [_train(strategy, method, course, epochs, per_replica_batch, report.summary())
            for strategy, method in RUNS]
    paragraph = reading(runs, device_note)
    figures = {"epoch_times": plots.plot_epoch_times(runs),
               "training_curves": plots.plot_training_curves(runs)}
    write_report(out, runs, paragraph, figures, header)
    print("\n" + str(timing.compare(runs)) + "\n\n" + paragraph, flush=True)
    print(f"\nReport written to {os.path.abspath(out)}/report.html (and report.md, results.json)")
    return runs
