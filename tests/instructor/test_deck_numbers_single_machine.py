"""Decks 1 and 2 state only numbers and claims that their own executed cells show.

Each deck is the notebook the session's slide build executed (``executed_decks``: once, in a
fresh kernel, fast mode, from conftest). Every test pins something a slide or its speaker notes
states to what a cell of the same deck printed, or to the lesson or package setting the deck
repeats; change one side without the other and a test fails.
"""

import re
import tomllib
from pathlib import Path

import nbformat
import pytest

from tfdist_edu import strategies

ROOT = Path(__file__).resolve().parents[2]
DECK_1 = ROOT / "slides" / "01_data_parallelism.ipynb"
DECK_2 = ROOT / "slides" / "02_single_machine.ipynb"
LESSON_2 = ROOT / "notebooks" / "02_mirrored_fit.ipynb"


@pytest.fixture(scope="module")
def deck1(executed_decks):
    return executed_decks[DECK_1.stem]


@pytest.fixture(scope="module")
def deck2(executed_decks):
    return executed_decks[DECK_2.stem]


def _cell(nb, marker):
    """The one cell whose source contains ``marker``."""
    hits = [cell for cell in nb.cells if marker in cell.source]
    assert len(hits) == 1, f"{len(hits)} cells contain {marker!r}"
    return hits[0]


def _stdout(cell):
    return "".join(o.get("text", "") for o in cell.get("outputs", [])
                   if o.get("output_type") == "stream" and o.get("name") == "stdout")


def _numbers(text):
    return [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?(?:e[+-]?\d+)?", text)]


def test_deck1_counts_as_many_strategies_as_the_package_builds():
    notes = _cell(nbformat.read(DECK_1, as_version=4), "how the seven strategies sort").source
    assert "seven strategies" in notes and len(strategies.NAMES) == 7


def test_deck1_mirrored_variable_ends_where_the_notes_say(deck1):
    notes = _cell(deck1, "add a different amount").source
    assert "(1 and 2)" in notes and "1 + 2 = 3 and end at 4" in notes
    printed = _stdout(_cell(deck1, "def nudge():"))
    assert printed.startswith("MirroredVariable") and _numbers(printed) == [4.0, 4.0], printed


def test_deck1_cpu_only_answer_is_the_default_strategy(deck1):
    assert "the CPU-only answer: the default strategy" in _cell(deck1, "Note the CPU-only").source
    printed = _stdout(_cell(deck1, "strategy_choice.choose(**setup)"))
    cpu_line = next(line for line in printed.splitlines() if line.startswith("accelerator=cpu "))
    assert cpu_line.rstrip().lower().endswith("default strategy"), cpu_line


def test_deck1_equivalence_claim_names_its_exceptions():
    slide = _cell(nbformat.read(DECK_1, as_version=4), "## One synchronous training step").source
    assert "BatchNormalization" in slide and "Dropout" in slide


def test_deck2_default_strategy_has_one_replica(deck2):
    assert "num_replicas_in_sync is 1" in _cell(deck2, "Library code (Keras itself").source
    assert "| replicas: 1 |" in _stdout(_cell(deck2, "default = tf.distribute.get_strategy()"))


def test_deck2_cross_device_table_matches_the_default_it_prints(deck2):
    table = _cell(deck2, "## Choosing how gradients are all-reduced").source
    assert "a ring on CPUs" in table and "DGX-1" in table
    printed = _stdout(_cell(deck2, "explicit = tf.distribute.MirroredStrategy("))
    assert "default here: CollectiveAllReduce RING" in printed, printed
    assert "1 + 2 = 3.0" in printed, printed


def test_deck2_fit_run_matches_its_notes(deck2):
    notes = _cell(deck2, "A deliberately tiny run").source
    fit = _cell(deck2, "model.fit(data.batches(course.train, GLOBAL_BATCH)")
    assert "512 Fashion-MNIST images" in notes and "num_train=512" in fit.source
    assert "epochs=3" in fit.source and "changed the rate after epoch 2" in notes
    rates = [float(rate) for rate in re.findall(r"learning rate ([0-9.e+-]+)", _stdout(fit))]
    assert len(rates) == 3 and rates[0] == rates[1] and rates[2] == pytest.approx(rates[1] / 10)
    assert len(re.findall(r"\.weights\.h5", _stdout(fit))) == 3, "one checkpoint per epoch"


def test_deck2_batch_norm_slide_matches_lesson_2(deck2):
    notes = _cell(deck2, "The plain layer is far off").source
    stated = re.search(r"asserts it to (\S+)\)", notes).group(1)
    lesson = nbformat.read(LESSON_2, as_version=4)
    assert f"TOLERANCE = {stated}" in _cell(lesson, "TOLERANCE = ").source
    gaps = {}
    for line in _stdout(_cell(deck2, "BatchNormalization(synchronized=synchronized)")).splitlines():
        flag, rest = re.match(r"synchronized=(\w+)\s*: (.*)", line).groups()
        gaps[flag] = _numbers(rest)
    assert max(gaps["True"]) < float(stated), gaps
    assert min(gaps["False"]) > 100 * float(stated), gaps


def test_deck2_saved_loaded_and_exported_models_agree(deck2):
    printed = _stdout(_cell(deck2, 'model.save(path)'))
    lines = dict(line.split(None, 1) if not line.startswith("inside")
                 else ("inside", line[len("inside scope"):]) for line in printed.splitlines())
    assert set(lines) == {"inside", "outside", "exported"}, printed
    assert "MirroredVariable" in lines["inside"] and "MirroredVariable" not in lines["outside"]
    assert all(_numbers(text)[-1] < 1e-4 for text in lines.values()), printed


def test_deck2_keras_requirement_is_the_installed_one():
    notes = _cell(nbformat.read(DECK_2, as_version=4), "Students will copy code").source
    stated = re.search(r"keras (\d+\.\d+) or newer", notes).group(1)
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert any(re.fullmatch(rf"keras>={re.escape(stated)}", d.split("#")[0].strip())
               for d in dependencies), dependencies
