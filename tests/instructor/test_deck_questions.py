"""Every number in the decks' check-your-understanding slides is a given of the question or an
answer computed here with the course's own functions on real strategies.

A question states its givens (``GIVEN``: the exercise's own data, not facts about the world);
its answer in the speaker notes states results, each a ``{}`` slot of a phrase filled with what
this test computes from those givens. A number no entry covers fails, as in
``test_deck_numbers.py`` (which leaves these slides to this file).
"""

import re
import statistics

import nbformat
import pytest
import tensorflow as tf

from tfdist_edu import batching, cost_model, loss_scaling, strategies, strategy_choice, tfconfig, timing
from tfdist_instructor import slides

from test_deck_numbers import NUMBER, Computed, _normalise
from test_slides import CHECK, _slides

LABELS = [r"\(\d of \d\)", r"[Ll]essons? \d", r"[Dd]eck \d", r"2\(N-1\)(?:/N)?", r"N-1",
          r"[Rr]eplica [01]\b", r"[Ww]orker 0\b", r"\((?:\d|\d again)\)", r"ResNet-50", r"Keras 3"]

GIVEN = {
    "01_data_parallelism": ["Two replicas train with a global batch of 64.",
                            "with value 10 and", "replica 0 calls `assign_add(5)` and replica 1 "
                            "calls `assign_add(7)`"],
    "02_single_machine": ["`MirroredStrategy` on 4 GPUs, 64 examples per replica, 60,000 training",
                          "moves a one-GPU script to 4 GPUs", "keeps `dataset.batch(64)`"],
    "03_custom_loops": ["Two replicas, global batch 8. Replica 0's per-example losses add up to 6, "
                        "replica 1's to 10.", "`compute_average_loss(per_example, global_batch_size=8)`",
                        "is 0.3 and training runs on 2 replicas."],
    "04_performance": ["takes 10 s per epoch", "it takes 13 s.", "epoch times are 9.1 s, 3.2 s, 3.3 s "
                       "and 3.1 s, with 60,000 examples per epoch.", "32 examples per replica.",
                       "(for example to 256,"],
    "05_by_hand": ["over 4 devices", "a step of global batch 256 costs 5 fixed plus 40 of",
                   "On 2 GPUs with the same global batch the all-reduce adds 10."],
    "06_beyond_one_machine": ["job of 10 epochs loses one worker in epoch 7."],
    "07_svhn_capstone": ["on one GPU with batch 128.", "`batch(128 * strategy.num_replicas_in_sync)`"],
    "08_keras_distribution": ["A Dense kernel of shape (4096, 1024)", "on a mesh of shape (2, 4)",
                              "the whole global batch of 128"],
}


@pytest.fixture(scope="module")
def strategy():
    return strategies.make("mirrored")


def _deck1(strategy):
    plan = batching.BatchPlan(strategy.num_replicas_in_sync, 64 // strategy.num_replicas_in_sync)
    with strategy.scope():
        w = tf.Variable(10.0, aggregation=tf.VariableAggregation.SUM)
    strategy.run(lambda: w.assign_add(tf.constant([5.0, 7.0])[
        tf.distribute.get_replica_context().replica_id_in_sync_group]))
    copies = {float(c) for c in strategy.experimental_local_results(w)}
    assert len(copies) == 1, copies
    end = copies.pop()
    machines, gpus = 4, 2
    choice = strategy_choice.choose(machines=machines, accelerator="gpu", devices_per_machine=gpus)
    return [("Answer: {} examples each", (plan.per_replica_batch,)),
            ("Answer: {:g} on both copies.", (end,)),
            ("the two proposed changes are added ({:g} + {:g} = {:g}) and the same total is applied to "
             "every copy: {:g} + {:g} = {:g}. No copy ever ends at {:g} or {:g};",
             (5, 7, end - 10, 10, end - 10, end, 10 + 5, 10 + 7)),
            ("Answer: {}, with {} replicas (one per GPU) on {} workers", (choice.name, machines * gpus, machines)),
            ('for machines={}, accelerator="gpu"', (machines,))]


def _deck2():
    plan = batching.BatchPlan(4, 64, examples=60_000)
    full = plan.examples // plan.global_batch
    small = batching.BatchPlan(4, 64 // 4)
    return [("Answer: batch({}), the global batch: {} per replica times {} replicas. An epoch is "
             "{:,} / {} = {:.1f}, so {} steps: {} full batches and a last batch of {} examples "
             "({:,} - {} x {}), split {} per replica. With drop_remainder=True it would be {} steps "
             "and {} examples skipped each epoch.",
             (plan.global_batch, 64, 4, plan.examples, plan.global_batch, plan.examples / plan.global_batch,
              plan.steps_per_epoch, full, plan.last_batch, plan.examples, full, plan.global_batch,
              plan.last_batch_split[0], full, plan.last_batch)),
            ("Answer: each GPU gets {} examples a step, because fit cuts the global batch of {} into {} "
             "slices.", (small.per_replica_batch, small.global_batch, small.replicas)),
            ("there are {} times more steps than with batch {},", (plan.global_batch // 64, plan.global_batch)),
            ("batch with {} x strategy.num_replicas_in_sync", (64,))]


def _deck3(strategy):
    losses = tf.constant([0.0, 1.0, 2.0, 3.0, 1.0, 2.0, 3.0, 4.0])  # replica 0 sums 6, replica 1 sums 10
    first = next(iter(strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices(losses).batch(8))))
    local = strategy.experimental_local_results
    sums = [float(tf.reduce_sum(s)) for s in local(first)]
    scaled = strategy.run(lambda x: tf.nn.compute_average_loss(x, global_batch_size=8), args=(first,))
    averaged = strategy.run(tf.reduce_mean, args=(first,))
    total = float(strategy.reduce(tf.distribute.ReduceOp.SUM, scaled, axis=None))
    wrong = float(strategy.reduce(tf.distribute.ReduceOp.SUM, averaged, axis=None))
    penalty = strategy.run(lambda: tf.nn.scale_regularization_loss(tf.constant(0.3)))
    short = loss_scaling.short_batch_demo(strategy)
    last, full = short[-1], short[0]
    return [("Answer: {:g} / {} = {:g} and {:g} / {} = {:g}; the SUM reduction gives {:.1f}, the mean "
             "loss of all {} examples ({:g} / {}).",
             (sums[0], 8, float(local(scaled)[0]), sums[1], 8, float(local(scaled)[1]), total, 8, sum(sums), 8)),
            ("What if each replica had averaged over its own {} examples?", (len(local(first)[0]),)),
            ("Averaging per replica gives {:g} and {:g}, summed {:.1f}: twice the true mean, so the "
             "gradients are twice too large with {} replicas",
             (*(float(a) for a in local(averaged)), wrong, strategy.num_replicas_in_sync)),
            ("Answer: tf.nn.scale_regularization_loss({:g}) = {:g} / {} = {:g}.",
             (0.3, 0.3, strategy.num_replicas_in_sync, float(local(penalty)[0]))),
            ("after the sum over the {} replicas it counts once. Adding the whole {:g} on each replica "
             "counts it {} times", (strategy.num_replicas_in_sync, 0.3, strategy.num_replicas_in_sync)),
            ("Seven examples, global batch {}, two replicas: the last batch has {} examples, split {} + {}. "
             "With `global_batch_size={}` fixed:", (len(full.examples), len(last.examples), *last.split,
                                                   len(full.examples))),
            ("the summed losses of {} examples are divided by {}", (len(last.examples), len(full.examples))),
            ("({:g} against a true mean of {:g} on the slide)", (last.losses["fixed"], last.true_mean))]


def _deck4():
    run = timing.RunTiming("question", epoch_seconds=[9.1, 3.2, 3.3, 3.1], examples_per_epoch=60_000)
    return [("Is `MirroredStrategy` {:.0%} slower?", (13 / 10 - 1,)),
            ("the median of the later epochs, {:.1f} s, or about {:,} / {:.1f} = {:,.0f} examples per second",
             (run.steady_epoch_s, run.examples_per_epoch, run.steady_epoch_s, round(run.examples_per_s, -2))),
            ("averaging it in ({:.1f} s)", (statistics.mean(run.epoch_seconds),))]


def _deck5():
    n, size = 4, 1.0
    step = cost_model.StepModel(cost_model.Line(5, 40 / 256), cost_model.Link(0.0, 1.0), 10.0)
    return [("Answer: 2(N-1) steps, so {} of them", (2 * (n - 1),)),
            ("S / {} bytes, so every device sends {} S / {} = {:g} S bytes",
             (n, 2 * (n - 1), n, cost_model.ring_bytes_per_device(size, n))),
            ("receives N-1 = {} tensors and sends {} sums back: {:g} S bytes",
             (n - 1, n - 1, cost_model.root_bytes(size, n))),
            ("Answer: each GPU computes half the batch, {} of the {}: {:g} + {:g} = {:g}, plus the "
             "all-reduce's {:g}, makes {:g} milliseconds a step against {:g} on one GPU: a speed-up of "
             "{:g} / {:g} = {:.2f}, not {}.",
             (128, 256, 5, 40 / 2, step.compute(128), step.link.all_reduce_s(10.0, 2), step.step_s(2, 256),
              step.step_s(1, 256), step.step_s(1, 256), step.step_s(2, 256),
              step.step_s(1, 256) / step.step_s(2, 256), 2)),
            ("What are the step time on {} GPUs and the speed-up?", (2,))]


def _deck6():
    spec = tfconfig.ClusterSpec.local(workers=3)
    indices = [spec.tf_config("worker", i)["task"]["index"] for i in range(3)]
    return [("Answer: {} replicas ({} workers x {} GPUs).", (3 * 2, 3, 2)),
            ('type "worker" with index {}, {} and {}.', tuple(indices))]


def _deck7():
    return [("the mirrored run uses a global batch of {} against {},", (128 * 2, 128)),
            ("Keep the global batch equal: {} per replica on two GPUs (global {}), or a baseline of {}.",
             (128 // 2, 128, 128 * 2))]


def _deck8():
    rows, columns = 4096, 1024
    batch_axis, model_axis = 2, 4  # the mesh of shape (2, 4), axes ("batch", "model")
    processes, global_batch = 2, 128
    return [("Answer: a ({}, {}) block: the columns are split {} ways over the model axis, and each "
             "block is held by the {} devices of the batch axis.",
             (rows, columns // model_axis, model_axis, batch_axis)),
            ("Answer: a global batch of {} examples that holds each example twice",
             (processes * global_batch,))]


def _check_text(deck):
    """The normalised markdown of the deck's check-your-understanding slides, notes included."""
    path = next(p for p in slides.deck_paths() if p.stem == deck)
    return " ".join(_normalise(c.source) for slide in _slides(path)
                    if slide[0].source.startswith(CHECK) for c in slide if c.cell_type == "markdown")


@pytest.fixture(scope="module")
def computed(strategy):
    phrases = {"01_data_parallelism": _deck1(strategy), "02_single_machine": _deck2(),
               "03_custom_loops": _deck3(strategy), "04_performance": _deck4(), "05_by_hand": _deck5(),
               "06_beyond_one_machine": _deck6(), "07_svhn_capstone": _deck7(),
               "08_keras_distribution": _deck8()}
    return {deck: [Computed(deck, phrase, values) for phrase, values in pins] for deck, pins in phrases.items()}


@pytest.mark.parametrize("deck", [p.stem for p in slides.deck_paths()])
def test_every_number_in_a_question_or_its_answer_is_given_or_computed(deck, computed):
    text = _check_text(deck)
    covers = []
    for pin in computed[deck]:
        assert pin.text() in text, f"{deck} should answer {pin.text()!r} (computed now)"
        covers.append(re.escape(pin.text()))
    for given in GIVEN.get(deck, []):
        assert _normalise(given) in text, f"{deck} no longer asks {given!r}: update GIVEN"
        covers.append(re.escape(_normalise(given)))
    covered = set()
    for pattern in covers + LABELS:
        for match in re.finditer(pattern, text):
            covered.update(range(*match.span()))
    loose = [f"{m.group()!r} in ...{text[max(0, m.start() - 40):m.end() + 40]}..."
             for m in NUMBER.finditer(text) if not set(range(*m.span())) <= covered]
    assert not loose, f"{deck}: numbers neither given nor computed:\n" + "\n".join(loose)
