"""The main job: a short, fair, repeated measurement of the default and the mirrored strategy.

``run_tour()`` trains the course CNN under the default strategy and under MirroredStrategy,
each with ``Model.fit`` and with the reference custom loop (``arms``), at one global batch and
one ``jit_compile`` for all four. It alternates the arms block by block, with a steadiness
probe of the machine's memory system before them and between rounds (``steadiness``), reads the
paired ratios as verdicts with 95% intervals (``reading``), and writes a report folder: report.md and report.html
(a table and a reading of it), the figures as PNG, and the raw numbers as results.json.
"""

import dataclasses
import gc
import html
import json
import os
import tempfile
import warnings

from tfdist_edu import settings

from tfdist_edu.tour.arms import JIT_COMPILE, RUNS
from tfdist_edu.tour.blocks import BlockData
from tfdist_edu.tour import reading, slowdowns
from tfdist_edu.other_load import OtherLoad

# Each epoch is run as 8 blocks per arm (about 2 s each on 2 CPU cores), the arms alternating:
# a round of four blocks is shorter than the 2-15 s stretches in which the whole machine ran
# slower, so such a stretch slows the arms of a round together (``slowdowns``), not one arm.
BLOCKS_PER_EPOCH = 8
PROBE_SECONDS = 6  # one-second windows of each steadiness probe before the arms
# A per-replica batch of 16 (global 32 with two replicas): small enough that what every mirrored
# step adds (splitting the batch, all-reducing the gradients) shows against its compute. At 64
# that cost is a few percent of a step, close to the 5% threshold, and tours of the same code
# read "within 5%", "undecided" or a small difference by turns (the README gives the tours).
PER_REPLICA_BATCH = 16


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


def write_report(out, runs, paragraph, figures, header, slow_rounds=(), steadiness=None):
    """Write report.md, report.html, results.json and the figures into ``out``; ``slow_rounds``:
    the 0-based rounds in which the arms slowed together; ``steadiness``: the probes' numbers."""
    from tfdist_edu import timing

    os.makedirs(out, exist_ok=True)
    for name, figure in figures.items():
        figure.savefig(os.path.join(out, f"{name}.png"), dpi=110, bbox_inches="tight")
    table = timing.compare(runs)
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump({"header": header, "reading": paragraph, "slow_rounds": list(slow_rounds),
                   "steadiness": steadiness or {},
                   "runs": [dataclasses.asdict(r) for r in runs]}, f, indent=2)
    rows = table.rows
    md_table = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * len(rows[0])]
    md_table += ["| " + " | ".join(str(v) for v in row.values()) + " |" for row in rows]
    from tfdist_edu.plots import alt_text

    alts = {name: alt_text(figure) for name, figure in figures.items()}
    images = [f"![{alts[name]}]({name}.png)" for name in figures]
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n\n".join(["# tfdist-edu tour", *header, "\n".join(md_table),
                             *table.labels(), paragraph, *images]) + "\n")
    body = "".join(f"<p>{html.escape(line)}</p>" for line in header)
    body += table._repr_html_() + f"<p>{html.escape(paragraph)}</p>"
    body += "".join(f'<p><img src="{name}.png" alt="{html.escape(alts[name])}" width="720"></p>'
                    for name in figures)
    with open(os.path.join(out, "report.html"), "w") as f:
        f.write(f"<!doctype html><html lang='en'><meta charset='utf-8'><title>tfdist-edu tour</title>"
                f"<h1>tfdist-edu tour</h1>{body}")


def run_tour(epochs=None, replicas=2, dataset="fashion_mnist", source=None,
             out="tour-report", per_replica_batch=PER_REPLICA_BATCH):
    """Train the four arms alternately, print their table and reading, write the report."""
    check_arguments(epochs, replicas, per_replica_batch, out)
    # TensorFlow's own note when tf.distribute reads a dataset's options in graph mode: nothing
    # the user did or can change.
    warnings.filterwarnings("ignore", message="To make it possible to preserve tf.data options")
    others = OtherLoad().start()  # how much CPU other processes take while the tour runs
    device_note = prepare_devices(replicas)

    from tfdist_edu import data, hardware, plots, steadiness, timing
    from tfdist_edu.tour.arms import Arm

    epochs = epochs or (2 if settings.fast_mode() else 3)
    report = hardware.detect()
    course = data.load(dataset, source=source)
    global_batch = per_replica_batch * replicas  # the same on every arm
    steps = max(1, course.num_train // global_batch // BLOCKS_PER_EPOCH)
    header = [f"Hardware: {report.summary()}", f"Data: {course.describe()}",
              f"TensorFlow {report.tensorflow}, Keras {report.keras}; {epochs} epochs of "
              f"{BLOCKS_PER_EPOCH} blocks x {steps} steps per run, global batch {global_batch} "
              f"and jit_compile={JIT_COMPILE} on every run."]
    print("\n".join(header), flush=True)
    work = steadiness.Work()
    probes = steadiness.probe(2 if settings.fast_mode() else PROBE_SECONDS, work)
    print(steadiness.sentence(probes), flush=True)
    arms = [Arm(s, m, course, global_batch, steps, report.summary()) for s, m in RUNS]
    memory = _alternate(arms, epochs, BlockData(course, global_batch, steps, BLOCKS_PER_EPOCH), work)
    runs = [arm.run for arm in arms]
    paragraph = reading.reading(runs, device_note, others.cores(), probes, memory)
    slow = slowdowns.slow_rounds(runs)
    figures = {"block_times": plots.plot_block_times(runs, slow),
               "training_curves": plots.plot_training_curves(runs)}
    write_report(out, runs, paragraph, figures, header, slow,
                 {"probes": [dataclasses.asdict(p) for p in probes],
                  "memory_gb_per_s_after_each_round": memory})
    print("\n" + str(timing.compare(runs)) + "\n\n" + paragraph, flush=True)
    print(f"\nReport written to {os.path.abspath(out)}/report.html (and report.md, results.json)")
    return runs


def _alternate(arms, epochs, blocks, work):
    """Run every arm block by block on the same data, reversing the order each round; print
    progress. Return the memory probe's GB/s after each round (``work.memory_rate``)."""
    rounds, memory = epochs * BLOCKS_PER_EPOCH, []
    for round_ in range(rounds):
        order = arms if round_ % 2 == 0 else arms[::-1]
        times = {}
        for arm in order:
            train = blocks.dataset(round_)
            gc.collect()  # Python's own pauses land here, between blocks, not inside one
            load = OtherLoad().start()
            times[arm.run.name] = arm.run_block(train)
            arm.run.block_other_cores.append(round(load.stop(), 3))
        memory.append(round(work.memory_rate(), 2))
        print(f"round {round_ + 1}/{rounds}: " + ", ".join(
            f"{name} {seconds:.1f} s" for name, seconds in times.items())
            + f"; memory probe {memory[-1]:.1f} GB/s", flush=True)
        if (round_ + 1) % BLOCKS_PER_EPOCH == 0:
            for arm in arms:
                arm.end_epoch(BLOCKS_PER_EPOCH)
    return memory
