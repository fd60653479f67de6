"""Every number the markdown of decks 3, 4 and 6 states is pinned to where it comes from.

A deck's slides and speaker notes are markdown; a number typed there cannot drift from the
lessons if a test recomputes it. Each number in a markdown cell must be covered by one entry:

- ``computed``: a phrase whose ``{}`` slots are filled with values this test computes with the
  same functions the lessons and decks run (``tfdist_edu.loss_scaling``, ``dynamic_loss_scale``,
  ``data``) on two replicas; the filled-in phrase must appear in the deck. A computed phrase has
  no digits of its own: every number in it is a slot.
- ``QUOTED``: numbers quoted from a source, checked against the source's own figures.
- ``LABELS``: numbers that name things (a lesson, a Keras major version, a reason on a slide).

A number no entry covers fails the test, so a new number must be pinned before a deck states it;
an entry whose phrase is no longer in the deck fails too. Whitespace is normalised, and
ordered-list markers ("1. ") are not numbers.
"""

import dataclasses
import importlib.resources
import re

import nbformat
import numpy as np
import pytest
import tensorflow as tf

from tfdist_edu import data, dynamic_loss_scale, loss_scaling, models, strategies, synthetic

from tfdist_instructor import slides

NUMBER = re.compile(r"(?<![\w.])\d+(?:,\d{3})*(?:\.\d+)?(?!\d)")
LIST_MARKER = re.compile(r"^\s*\d+\.\s", re.M)

# Numbers that name things, in every deck: (pattern, why it is not a quantity).
LABELS = [
    (r"[Dd]eck \d+", "the deck's number"),
    (r"[Ll]essons? \d+(?: to \d+)?", "a lesson's number"),
    (r"Keras [23]\b", "Keras' major version: Keras 2 is tf.keras, Keras 3 the keras package"),
    (r"Fix \d", "the number of a fix on deck 4"),
    (r"\((?:\d|\d again)\)", "refers to a numbered reason on the same slide"),
    (r"Wrap 3-4 in", "refers to steps 3 and 4 of the same list"),
    (r"say, 5 steps", "the step count of the slide's code, `range(5)`"),
    (r"a trailing axis of size 1", "a shape"),
]

# HPC lesson (the course's reference material 002) printed, for 10 epochs of Fashion-MNIST:
HPC_LESSON_MS = {"one GPU, `Model.fit`": 13603.21, "`MirroredStrategy`, `Model.fit`": 25876.68,
                 "`MirroredStrategy`, custom loop": 39034.53}
QUOTED = {
    "04_performance": [
        "| run (10 epochs of Fashion-MNIST) |",
        *(f"| {run} | {ms / 1000:.1f} s |" for run, ms in HPC_LESSON_MS.items()),
    ],
}


@dataclasses.dataclass
class Computed:
    deck: str
    phrase: str
    values: tuple

    def text(self):
        return _normalise(self.phrase.format(*self.values))


def _normalise(text):
    return " ".join(text.split())


def _markdown(deck):
    """The deck's markdown cells, less its check-your-understanding slides and their notes:
    ``test_deck_questions.py`` pins the numbers there (a question's givens and its answers)."""
    path = next(p for p in slides.deck_paths() if p.stem == deck)
    cells, asking = [], False
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.metadata.get("slideshow", {}).get("slide_type") in ("slide", "subslide"):
            asking = cell.source.startswith("## Check your understanding")
        if cell.cell_type == "markdown" and not asking:
            cells.append(_normalise(LIST_MARKER.sub(" ", cell.source)))
    return cells


@pytest.fixture(scope="module")
def strategy():
    strategy = strategies.make("mirrored")
    assert strategy.num_replicas_in_sync == 2, "tests/conftest.py provides 2 logical CPUs"
    return strategy


def _svhn_download_gb():
    """Sizes of the files TFDS downloads for svhn_cropped, from its own checksums file."""
    checksums = importlib.resources.files("tensorflow_datasets").joinpath(
        "datasets", "svhn_cropped", "checksums.tsv").read_text()
    sizes = {line.split("\t")[-1]: int(line.split("\t")[1])
             for line in checksums.splitlines() if line.strip()}
    return sum(sizes.values()) / 1e9, sizes["extra_32x32.mat"] / 1e9


@pytest.fixture(scope="module")
def computed(strategy):
    replicas = strategy.num_replicas_in_sync
    pins = []

    # deck 3: distributed datasets and strategy.reduce, on the deck's own inputs
    global_batch = 8
    dist = strategy.experimental_distribute_dataset(tf.data.Dataset.range(16).batch(global_batch))
    first = next(iter(dist))
    slices = strategy.experimental_local_results(first)
    pins.append(Computed("03_custom_loops", "A global batch of {} numbers becomes {} per-replica "
                         "slices of {}.", (global_batch, len(slices), len(slices[0]))))
    total = strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(tf.reduce_sum, args=(first,)),
                            axis=None)
    numbers = np.concatenate([s.numpy() for s in slices])
    pins.append(Computed("03_custom_loops", "SUM gives the sum over the whole global batch, "
                         "{} + {} + ... + {} = {}", (numbers[0], numbers[1], numbers[-1],
                                                     int(total))))

    # deck 3: the rule, on one replica's losses
    one_replica = (2.0, 3.0)
    scaled = float(loss_scaling.compute_average_loss(tf.constant(one_replica), None, 4))
    pins.append(Computed("03_custom_loops", "Example: per-example losses {:g} and {:g} on one "
                         "replica, global batch {}: {:g} / {} = {:g}.",
                         (*one_replica, 4, sum(one_replica), 4, scaled)))

    # deck 3: loss scaling and regularisation on the course CNN (the deck's figure and table)
    images, labels = synthetic.fashion_mnist(16)
    with strategy.scope():
        cnn = models.fashion_cnn()
        penalised = models.fashion_cnn(l2=1e-2)
    scaling = loss_scaling.loss_scaling_demo(strategy, cnn, images / 255, labels)
    pins.append(Computed("03_custom_loops", "gradients as many times too large as there are "
                         "replicas, here {:.0f}.", (scaling.ratio("reduce_mean"),)))
    reg = loss_scaling.regularization_demo(strategy, penalised, images / 255, labels)
    pins.append(Computed("03_custom_loops", "relative to the single-device reference: {:.1f} is "
                         "right.", (reg.ratio("scale_regularization_loss"),)))

    # deck 3: Keras 3's default reduction under a strategy
    default = loss_scaling.keras_default_reduction(strategy, cnn, images / 255, labels)
    pins.append(Computed("03_custom_loops", "summed over the replicas, its default gives {:.2f}x "
                         "the one-device loss", (default.summed_ratio,)))
    pins.append(Computed("03_custom_loops", "outside strategy.run gives {:.2f}x: the loss divided "
                         "by the {} replicas.", (default.in_scope_ratio, default.replicas)))

    # deck 3: short last batches, lesson 3's seven losses
    short = loss_scaling.short_batch_demo(strategy)
    last, full = short[-1], short[0]
    pins.append(Computed("03_custom_loops", "seven losses in global batches of {} on {} "
                         "replicas: the last batch has {}, split {} + {}.",
                         (len(full.examples), replicas, len(last.examples), *last.split)))
    pins.append(Computed("03_custom_loops", "`global_batch_size={}`: a fixed denominator",
                         (len(full.examples),)))
    pins.append(Computed("03_custom_loops", "the fixed denominator gives {:g} against a true mean "
                         "of {:g}", (last.losses["fixed"], last.true_mean)))
    pins.append(Computed("03_custom_loops", "Leaving global_batch_size out gives {:g}: each replica "
                         "divides its own sum by its own examples times the {} replicas",
                         (last.losses["default"], replicas)))
    pins.append(Computed("03_custom_loops", "Only the all-reduced count gives {:g}, the true mean.",
                         (last.losses["actual"],)))

    # deck 3: the metric pitfall
    pitfall = loss_scaling.metric_pitfall(strategy=strategy)
    (a, b), (c, d) = pitfall.replica_losses
    n = pitfall.global_batch
    pins.append(Computed(
        "03_custom_loops",
        "Replica losses {:g}, {:g} and {:g}, {:g} with a global batch of {}. Each replica's scaled "
        "loss is {:g}/{} = {:g} and {:g}/{} = {:g}; their sum {:g} is the true mean loss of the "
        "batch. A Mean metric fed those scaled values averages them and reports {:g}",
        (a, b, c, d, n, a + b, n, pitfall.scaled[0], c + d, n, pitfall.scaled[1], pitfall.summed,
         pitfall.metric_of_scaled)))

    # deck 4: the course's Fashion-MNIST images, and the dynamic loss scale figure
    fashion = data.load("fashion_mnist", source="synthetic", num_train=8, num_test=8)
    pins.append(Computed("04_performance", "a small CNN on {}x{} images",
                         fashion.image_shape[:2]))
    trace = dynamic_loss_scale.loss_scale_trace(steps=40)
    pins.append(Computed("04_performance", "the scale doubles after {} finite steps in a row",
                         (trace.growth_steps,)))

    # deck 7: SVHN's shapes, splits and download
    svhn = data.load("svhn", source="synthetic", num_train=512, num_test=256)
    height, width, _ = svhn.image_shape
    pins.append(Computed("07_svhn_capstone", "{} × {} colour crops of house-number digits from "
                         "Street View images; {} classes.", (height, width, svhn.num_classes)))
    train_size, test_size = data._spec("svhn").split_sizes  # the official split sizes
    pins.append(Computed("07_svhn_capstone", "{:,} training and {:,} test images.",
                         (train_size, test_size)))
    pins.append(Computed("07_svhn_capstone", 'fetches about {:.1f} GB, {:.1f} GB of it the "extra" '
                         "split", _svhn_download_gb()))
    pins.append(Computed("07_svhn_capstone", "One quick epoch on {} synthetic images",
                         (svhn.num_train,)))
    return pins


DECKS = ["03_custom_loops", "04_performance", "07_svhn_capstone"]


def test_computed_phrases_have_no_numbers_of_their_own(computed):
    for pin in computed:
        assert not NUMBER.search(pin.phrase.replace("{", " {")), (
            f"make every number in {pin.phrase!r} a slot filled by a computed value")


@pytest.mark.parametrize("deck", DECKS)
def test_every_number_in_the_deck_is_pinned(deck, computed):
    cells = _markdown(deck)
    everything = " ".join(cells)
    covers = []
    for pin in (p for p in computed if p.deck == deck):
        text = pin.text()
        assert text in everything, (
            f"{deck} should state {text!r} (computed now); check the deck's text and the "
            f"computation")
        covers.append(re.escape(text))
    for quote in QUOTED.get(deck, []):
        assert _normalise(quote) in everything, f"{deck} no longer quotes {quote!r}: update QUOTED"
        covers.append(re.escape(_normalise(quote)))
    covers += [pattern for pattern, _ in LABELS]

    unpinned = []
    for cell in cells:
        covered = set()
        for pattern in covers:
            for match in re.finditer(pattern, cell):
                covered.update(range(*match.span()))
        for number in NUMBER.finditer(cell):
            if not set(range(*number.span())) <= covered:
                start = max(0, number.start() - 40)
                unpinned.append(f"{number.group()!r} in ...{cell[start:number.end() + 40]}...")
    assert not unpinned, (f"{deck} states numbers no test pins (compute them in "
                          f"test_deck_numbers.py, or quote a source):\n" + "\n".join(unpinned))


def test_the_quoted_figures_match_their_source():
    # The table rounds the HPC lesson's printed milliseconds to tenths of a second.
    assert [f"{ms / 1000:.1f}" for ms in HPC_LESSON_MS.values()] == ["13.6", "25.9", "39.0"]
