"""Lessons carry the outputs of one normal-mode run, and say when those no longer match the code."""
import json
import pathlib

import nbformat
import pytest

from tfdist_instructor import outputs
from tfdist_instructor.outputs import lesson_time

LESSONS = sorted(pathlib.Path(__file__).resolve().parents[2].glob("notebooks/[0-9][0-9]_*.ipynb"))
MAX_PNG_BYTES = 200_000  # base64 characters of one stored figure


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_every_lesson_stores_the_outputs_of_its_current_code(lesson):
    reason = outputs.stale_reason(nbformat.read(lesson, as_version=4))
    assert reason is None, (f"{lesson.name}: stored outputs are stale: {reason}. Run `make test`, "
                            f"then `make outputs`, and commit the lessons")


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_stored_outputs_are_labelled_small_and_free_of_widget_state(lesson):
    nb = nbformat.read(lesson, as_version=4)
    stored = nb.metadata["tfdist_edu"]["stored_outputs"]
    assert outputs.LABEL_PREFIX in nb.cells[0].source and stored["machine"] in nb.cells[0].source
    assert "widgets" not in nb.metadata
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            assert outputs.WIDGET not in data, f"{lesson.name}: widget state stored"
            assert len(data.get("image/png", "")) < MAX_PNG_BYTES, f"{lesson.name}: a figure is too big"



@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_every_lesson_states_the_time_measured_for_it(lesson):
    nb = nbformat.read(lesson, as_version=4)
    stored = nb.metadata["tfdist_edu"]["stored_outputs"]
    expected = lesson_time.time_line(nb, stored["compute_seconds"], stored["machine"])
    assert expected in nb.cells[0].source, (f"{lesson.name}: its Time line differs from the "
                                            f"measurement ({expected!r}); run `make outputs`")


def _lesson(code):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Lesson"),
                                         nbformat.v4.new_code_cell(code)])
    nb.metadata["tfdist_edu"] = {"stored_outputs": {"code_sha256": outputs.code_hash(nb),
                                                    "date": "2026-11-25"}}
    return nb


def test_editing_a_code_cell_without_refreshing_makes_the_lesson_stale():
    nb = _lesson("print(6 * 7)")
    assert outputs.stale_reason(nb) is None
    nb.cells[1].source = "print(6 * 8)"
    assert "code changed" in outputs.stale_reason(nb)


def test_editing_prose_alone_keeps_the_stored_outputs_valid():
    nb = _lesson("print(6 * 7)")
    nb.cells[0].source += "\nA clearer sentence."
    assert outputs.stale_reason(nb) is None


def _stage(tmp_path, lesson_code, run_code, fast_mode=False, outputs_of_run=(), other_cores=0.05):
    """A lesson folder and an executed copy of it; returns the lessons folder."""
    lessons, executed = tmp_path / "notebooks", tmp_path / "executed" / "notebooks"
    lessons.mkdir()
    executed.mkdir(parents=True)
    nbformat.write(_lesson(lesson_code), lessons / "00_a.ipynb")
    run = _lesson(run_code)
    run.metadata["tfdist_edu"]["run"] = {"fast_mode": fast_mode, "other_cores": other_cores}
    run.cells[1].outputs = list(outputs_of_run)
    run.cells[1].metadata["tfdist_edu"] = {"seconds": 3.5}
    nbformat.write(run, executed / "00_a.ipynb")
    return lessons


def test_storing_refuses_an_executed_copy_of_other_code_before_writing_anything(tmp_path):
    lessons = _stage(tmp_path, "print(1)", "print(2)")
    before = (lessons / "00_a.ipynb").read_text()
    with pytest.raises(ValueError, match="ran different code"):
        outputs.store(tmp_path / "executed", lessons, claims=_claims(tmp_path))
    assert (lessons / "00_a.ipynb").read_text() == before


def test_storing_refuses_a_fast_mode_run(tmp_path):
    lessons = _stage(tmp_path, "print(1)", "print(1)", fast_mode=True)
    with pytest.raises(ValueError, match="fast mode"):
        outputs.store(tmp_path / "executed", lessons, claims=_claims(tmp_path))


def test_storing_copies_text_and_figures_and_drops_stderr_and_widgets(tmp_path):
    lessons = _stage(tmp_path, "print(42)", "print(42)", outputs_of_run=[
        nbformat.v4.new_output("stream", name="stdout", text="Fashion-MNIST: real (IDX files)\n42\n"),
        nbformat.v4.new_output("stream", name="stderr", text="W0000 tensorflow chatter\n"),
        nbformat.v4.new_output("display_data", data={outputs.WIDGET: {"model_id": "x"},
                                                     "text/plain": "Slider"})])
    outputs.store(tmp_path / "executed", lessons, claims=_claims(tmp_path))
    stored = nbformat.read(lessons / "00_a.ipynb", as_version=4)
    kinds = [(out.output_type, out.get("name")) for out in stored.cells[1].outputs]
    assert kinds == [("stream", "stdout"), ("display_data", None)]
    assert outputs.WIDGET not in stored.cells[1].outputs[1].data
    meta = stored.metadata["tfdist_edu"]["stored_outputs"]
    assert meta["data"] == "Fashion-MNIST: real (IDX files)" and meta["compute_seconds"] == 4
    assert outputs.stale_reason(stored) is None
    assert "**Outputs shown**" in stored.cells[0].source
    assert "other processes used 0.05 of a core on average while it ran" in stored.cells[0].source


def _claims(tmp_path, claim="assert True"):
    """A claims folder of one test that reads the executed copy, as tests/claims/ does."""
    folder = tmp_path / "claims"
    folder.mkdir(exist_ok=True)
    (folder / "test_lesson00_a.py").write_text(
        "import os, nbformat\n"
        "def test_the_lesson_printed_what_its_prose_says():\n"
        "    nb = nbformat.read(os.path.join(os.environ['TFDIST_EDU_CLAIMS_DIR'], '00_a.ipynb'), 4)\n"
        "    text = ''.join(o.get('text', '') for o in nb.cells[1].outputs)\n"
        f"    {claim}\n")
    return folder


def test_storing_refuses_a_run_whose_claims_fail_before_writing_anything(tmp_path):
    lessons = _stage(tmp_path, "print(41)", "print(41)", outputs_of_run=[
        nbformat.v4.new_output("stream", name="stdout", text="41\n")])
    before = (lessons / "00_a.ipynb").read_text()
    with pytest.raises(ValueError, match="claims fail on this run:\nFAILED .*test_the_lesson_printed_what_its_prose_says"):
        outputs.store(tmp_path / "executed", lessons, claims=_claims(tmp_path, "assert '42' in text"))
    assert (lessons / "00_a.ipynb").read_text() == before


@pytest.mark.parametrize("cores, message", [(0.9, "00_a.ipynb: other processes used 0.90 cores"),
                                            (None, "00_a.ipynb: the run records no load")])
def test_storing_refuses_a_run_made_on_a_busy_machine_before_writing_anything(tmp_path, cores, message):
    lessons = _stage(tmp_path, "print(1)", "print(1)", other_cores=cores)
    before = (lessons / "00_a.ipynb").read_text()
    with pytest.raises(ValueError, match=f"busy machine .*{message}"):
        outputs.store(tmp_path / "executed", lessons, claims=_claims(tmp_path))
    assert (lessons / "00_a.ipynb").read_text() == before


def test_the_time_line_adds_reading_at_the_stated_pace_to_the_measured_compute():
    nb = _lesson("x = 1\ny = 2\n")
    nb.cells[0].source = "# Lesson\n\n" + " ".join(["word"] * 400) + "\n\nTime: about 99 minutes."
    lesson_time.rewrite_time_line(nb, compute_seconds=600, machine="2 CPU cores (AMD, Linux)")
    assert "Time: about 15 minutes: 3 to read" in nb.cells[0].source
    assert "10 of computing, measured in normal mode on 2 CPU cores." in nb.cells[0].source
    assert "99 minutes" not in nb.cells[0].source


def test_storing_drops_the_lines_tensorflow_printed_into_stdout_and_keeps_the_lessons(tmp_path):
    lessons = _stage(tmp_path, "print(42)", "print(42)", outputs_of_run=[
        nbformat.v4.new_output("stream", name="stdout", text=(
            "INFO:tensorflow:Using MirroredStrategy with devices ('/job:localhost/replica:0/task:0/device:CPU:0',)\n"
            "[worker 0] E0000 00:00:1795604735.703690   23710 ring_alg.cc:291] Aborting RingReduce\n"
            "42\n")),
        nbformat.v4.new_output("stream", name="stdout", text="WARNING:absl:Variant folder x has no dataset_info.json\n")])
    outputs.store(tmp_path / "executed", lessons, claims=_claims(tmp_path))
    stored = nbformat.read(lessons / "00_a.ipynb", as_version=4).cells[1].outputs
    assert [out.text for out in stored] == ["42\n"]


def test_storing_refuses_a_temporary_path_naming_lesson_and_cell_before_writing_anything(tmp_path):
    lessons = _stage(tmp_path, "print(1)", "print(1)", outputs_of_run=[
        nbformat.v4.new_output("stream", name="stdout", text="scripts go to /tmp/lesson8-1yf9q2vs\n")])
    before = (lessons / "00_a.ipynb").read_text()
    with pytest.raises(ValueError, match=r"00_a.ipynb cell 1: temporary path"):
        outputs.store(tmp_path / "executed", lessons, claims=_claims(tmp_path))
    assert (lessons / "00_a.ipynb").read_text() == before


def test_storing_drops_the_repr_a_widget_leaves_when_its_state_is_dropped(tmp_path):
    lessons = _stage(tmp_path, "w", "w", outputs_of_run=[nbformat.v4.new_output(
        "execute_result", execution_count=1, data={
            outputs.WIDGET: {"model_id": "x"},
            "text/plain": "VBox(children=(FloatLogSlider(value=25.6, description='parameters (M)'"})])
    outputs.store(tmp_path / "executed", lessons, claims=_claims(tmp_path))
    assert nbformat.read(lessons / "00_a.ipynb", as_version=4).cells[1].outputs == []


def test_a_stored_figures_html_holds_the_same_recompressed_png_and_its_alt(tmp_path):
    import base64
    import io

    import matplotlib.pyplot as plt

    from tfdist_edu.figure_html import figure_html, parse_figure_html

    fig, ax = plt.subplots(figsize=(6, 4))
    ax.imshow([[i * j % 7 for i in range(200)] for j in range(200)])
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    plt.close(fig)
    png = base64.b64encode(buffer.getvalue()).decode()
    lessons = _stage(tmp_path, "fig", "fig", outputs_of_run=[nbformat.v4.new_output(
        "execute_result", execution_count=1, metadata={"image/png": {"alt": 'a "striped" image'}},
        data={"image/png": png, "text/html": figure_html(png, 'a "striped" image'),
              "text/plain": 'a "striped" image'})])
    outputs.store(tmp_path / "executed", lessons, claims=_claims(tmp_path))
    data = nbformat.read(lessons / "00_a.ipynb", as_version=4).cells[1].outputs[0].data
    assert len(data["image/png"]) < len(png), "the PNG was re-compressed"
    assert parse_figure_html(data["text/html"]) == ('a "striped" image', data["image/png"])


def test_storing_keeps_the_text_answer_a_course_widget_gives_beside_its_state(tmp_path):
    lessons = _stage(tmp_path, "explorer", "explorer", outputs_of_run=[nbformat.v4.new_output(
        "execute_result", execution_count=1, data={
            outputs.WIDGET: {"model_id": "x"}, "text/plain": "speed-up 3.68x, efficiency 92%"})])
    outputs.store(tmp_path / "executed", lessons, claims=_claims(tmp_path))
    stored = nbformat.read(lessons / "00_a.ipynb", as_version=4).cells[1].outputs
    assert [out.data for out in stored] == [{"text/plain": "speed-up 3.68x, efficiency 92%"}]


def test_storing_only_one_lesson_leaves_the_others_their_executed_copies_unread_and_their_recorded_times(tmp_path):
    lessons = _stage(tmp_path, "print(42)", "print(42)", outputs_of_run=[
        nbformat.v4.new_output("stream", name="stdout", text="42\n")])
    other = _lesson("print(7)")  # `only` leaves it as it is, and its executed copy too
    nbformat.write(other, lessons / "01_b.ipynb")
    before = (lessons / "01_b.ipynb").read_text()
    left_from_an_earlier_run = _lesson("print(7)")  # not what 01_b stores: its time is not recorded
    left_from_an_earlier_run.cells[1].metadata["tfdist_edu"] = {"seconds": 40.0}
    nbformat.write(left_from_an_earlier_run, tmp_path / "executed" / "notebooks" / "01_b.ipynb")
    times = tmp_path / "docs" / outputs.TIMES_FILE
    times.parent.mkdir()
    times.write_text('{"compute_seconds": {"01_b": 99}}')
    # The one test that stores with the default claims, the course's tests/claims/: none of
    # them reads a lesson named 00_a, so they pass and the lesson is stored.
    written = outputs.store(tmp_path / "executed", lessons, only=["00_a"])
    assert list(written) == ["00_a.ipynb"] and (lessons / "01_b.ipynb").read_text() == before
    assert nbformat.read(lessons / "00_a.ipynb", as_version=4).cells[1].outputs[0].text == "42\n"
    assert json.loads(times.read_text())["compute_seconds"] == {"01_b": 99, "00_a": 4}


def test_storing_only_an_unknown_lesson_is_refused_in_one_line_naming_the_lessons(tmp_path):
    lessons = _stage(tmp_path, "print(1)", "print(1)")
    with pytest.raises(ValueError, match="no lesson named 04_perf; the lessons are 00_a"):
        outputs.store(tmp_path / "executed", lessons, only=["04_perf"])
