"""No stored lesson output carries log noise, a temporary path or a widget's repr.

One test per lesson and pattern (``tfdist_instructor.outputs.noise.NOISE``, the list ``make outputs``
strips or refuses by), failing with the lesson, the cell and the line. It runs on the outputs
stored in notebooks/*.ipynb; until they are refreshed from a run made with the fixes it fails,
and says where.
"""
import pathlib

import nbformat
import pytest

from tfdist_instructor.outputs import noise

LESSONS = sorted(pathlib.Path(__file__).resolve().parents[2].glob("notebooks/[0-9][0-9]_*.ipynb"))


def _noise_in(lesson, pattern):
    nb = nbformat.read(lesson, as_version=4)
    return [f"cell {index}: {line.strip()[:160]!r}"
            for index, cell in enumerate(nb.cells) if cell.cell_type == "code"
            for output in cell.outputs
            for found, line in noise.found(noise.output_text(output)) if found is pattern]


@pytest.mark.parametrize("pattern", noise.NOISE, ids=lambda n: n.name)
@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_no_stored_output_of_a_lesson_shows_this_noise(lesson, pattern):
    hits = _noise_in(lesson, pattern)
    assert not hits, (f"{lesson.name}: {pattern.name} in {len(hits)} stored line(s), e.g. "
                      + "; ".join(hits[:3]))


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_no_lesson_text_quotes_a_temporary_path(lesson):
    """A recorded run quoted in a markdown cell (lesson 7's Slurm run) names its folders as the
    student would see them, not by a temporary folder of the machine that recorded it."""
    nb = nbformat.read(lesson, as_version=4)
    path = next(n for n in noise.NOISE if n.name == "temporary path")
    hits = [f"cell {index}: {line.strip()[:160]!r}" for index, cell in enumerate(nb.cells)
            if cell.cell_type == "markdown" for found, line in noise.found(cell.source)
            if found is path]
    assert not hits, f"{lesson.name}: " + "; ".join(hits[:3])


def test_the_check_finds_each_kind_of_noise_that_lessons_7_and_8_once_stored():
    stored = [
        "[worker 1] WARNING:absl:Variant folder /root/tensorflow_datasets/fashion_mnist/3.0.1 has no dataset_info.json",
        "INFO:tensorflow:Using MirroredStrategy with devices ('/job:localhost/replica:0/task:0/device:CPU:0',)",
        "[coordinator] WARNING:tensorflow:AutoGraph could not transform <function isfile at 0x7ff0> and will run it as-is.",
        "[worker 0] E0000 00:00:1795604735.703690   23710 ring_alg.cc:291] Aborting RingReduce with UNAVAILABLE",
        "[worker 0] :UNKNOWN:Error received from peer  {grpc_message:\"recvmsg:Connection reset by peer\", grpc_status:14}",
        "E0000 00:00:1764134.12 123 cuda_executor.cc:1309] failed call to cuInit: UNKNOWN ERROR (303)",
        "scripts go to /tmp/lesson8-1yf9q2vs",
        "VBox(children=(FloatLogSlider(value=25.6, description='parameters (M)', max=3.0,",
    ]
    names = {found.name for found, _ in noise.found("\n".join(stored))}
    assert names == {n.name for n in noise.NOISE}
    assert not noise.found("round 1: loss 0.4312, train accuracy 0.8512\nsaved to checkpoints/ckpt-1")


def test_storing_keeps_a_lessons_words_and_drops_what_tensorflow_printed_by_itself():
    text = ("NCCL sum = 3, 9.1 ms per all-reduce; WARNING:tensorflow:Enabled NCCL communication\n"
            "[coordinator] Cause: Unable to locate the source code of <function isdir at 0x7f>.\n"
            "[worker 0] E0000 00:00:1795604735.703690   23710 ring_alg.cc:291] Aborting RingReduce\n"
            "round 1: loss 0.4312\n")
    assert noise.strip(text) == "NCCL sum = 3, 9.1 ms per all-reduce;\nround 1: loss 0.4312\n"
