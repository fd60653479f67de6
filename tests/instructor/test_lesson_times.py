"""scripts/lesson_times.py and tfdist_instructor.outputs.term_plan: the term plan is computed from the
stored runs, never typed, and the guide's copy of it cannot go stale."""

import importlib.util
import json

import nbformat
import pytest

from tfdist_instructor import REPO_ROOT
from tfdist_instructor.outputs import term_plan

GUIDE = REPO_ROOT / "docs" / "instructor-guide.md"
SPEC = importlib.util.spec_from_file_location("lesson_times", REPO_ROOT / "scripts" / "lesson_times.py")
lesson_times = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(lesson_times)
SESSIONS = (("First", ["00_a", "01_b"], ["01_deck"], ["01_ex"]), ("Second", ["02_c"], ["02_deck"], []))


def _notebook(path, words, stored_seconds=None):
    """A notebook of ``words`` words of prose and no code; with a stored run when seconds are given."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(" ".join(["word"] * words))])
    if stored_seconds is not None:
        nb.metadata["tfdist_edu"] = {"stored_outputs": {
            "compute_seconds": stored_seconds, "machine": "2 CPU cores (Test)", "date": "2026-11-25"}}
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)


@pytest.fixture
def course(tmp_path):
    """Lessons 00_a (400 words, 600 s stored) and 01_b (200 words, 30 s), exercise 01_ex (600
    words, its solution 125 s); 02_c has no stored run."""
    _notebook(tmp_path / "notebooks" / "00_a.ipynb", 400, 600)
    _notebook(tmp_path / "notebooks" / "01_b.ipynb", 200, 30)
    _notebook(tmp_path / "notebooks" / "02_c.ipynb", 200)
    _notebook(tmp_path / "exercises" / "01_ex" / "01_ex.ipynb", 600)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "measured-times.json").write_text(json.dumps({
        "machine": "2 CPU cores (Test)", "date": "2026-11-25", "mode": "normal",
        "compute_seconds": {"00_a": 600, "01_b": 30, "01_ex": 125}}))
    return tmp_path


def _row(table, first_cell):
    """The cells of the table row that starts with ``first_cell``."""
    line = next(line for line in table.splitlines() if line.startswith(f"| {first_cell} "))
    return [cell.strip() for cell in line.strip("|").split("|")]


def test_the_term_plan_adds_up_the_stored_lesson_runs_and_the_measured_solution_runs(course):
    table = term_plan.tables(course, SESSIONS)
    # 00_a: 2 min reading + 10 compute -> 15; 01_b: 1 + 1 -> 5; 01_ex: 3 reading + 3 compute.
    assert _row(table, "00_a")[1:4] == ["2", "10", "15"]
    assert _row(table, "01_b")[1:4] == ["1", "1", "5"]
    assert _row(table, "01_ex")[1:3] == ["3", "3"]
    assert _row(table, "1. First")[4:6] == ["20", "6"]
    assert "2 CPU cores (Test), 2026-11-25" in " ".join(_row(table, "00_a"))


def test_a_lesson_or_exercise_without_a_stored_run_says_so_instead_of_a_number(course):
    (course / "docs" / "measured-times.json").unlink()
    table = term_plan.tables(course, SESSIONS)
    assert _row(table, "02_c")[1:4] == ["-", "-", "-"] and term_plan.NOT_STORED in _row(table, "02_c")[4]
    assert _row(table, "01_ex")[1:3] == ["-", "-"]
    assert _row(table, "1. First")[5] == term_plan.NOT_STORED  # the exercise, measured nowhere
    assert _row(table, "2. Second")[4] == term_plan.NOT_STORED


def test_writing_replaces_the_block_between_the_markers_and_nothing_else(tmp_path, capsys):
    before = "# Guide\n\nIntro.\n\n<!-- term-plan: start (generated) -->\nold table\n"
    after = "<!-- term-plan: end -->\n\n## Next\n\nKept.\n"
    guide = tmp_path / "guide.md"
    guide.write_text(before + after)
    assert lesson_times.main(["--write", str(guide)]) == 0
    printed = capsys.readouterr().out
    assert guide.read_text() == before.replace("old table\n", "\n" + term_plan.tables(REPO_ROOT) + "\n") + after
    assert printed.startswith(term_plan.tables(REPO_ROOT))


def test_writing_into_a_guide_without_markers_fails_in_one_line_and_leaves_it_alone(tmp_path, capsys):
    guide = tmp_path / "guide.md"
    guide.write_text("# Guide without a term plan\n")
    with pytest.raises(SystemExit) as stopped:
        lesson_times.main(["--write", str(guide)])
    assert stopped.value.code == 2
    message = capsys.readouterr().err
    assert "term-plan: start" in message and message.count("\n") == 1
    assert guide.read_text() == "# Guide without a term plan\n"


def test_the_committed_guide_shows_what_the_script_computes_from_the_committed_data():
    text = GUIDE.read_text()
    assert term_plan.replace_block(text, term_plan.tables(REPO_ROOT)) == text, (
        "docs/instructor-guide.md's term plan is stale: run "
        "`python scripts/lesson_times.py --write docs/instructor-guide.md`")


def test_every_lesson_deck_and_exercise_has_a_session_and_lessons_keep_their_order():
    lessons = [name for session in term_plan.SESSIONS for name in session[1]]
    decks = {name for session in term_plan.SESSIONS for name in session[2]}
    exercises = [name for session in term_plan.SESSIONS for name in session[3]]
    assert lessons == sorted(p.stem for p in (REPO_ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert decks == {p.stem for p in (REPO_ROOT / "slides").glob("[0-9][0-9]_*.ipynb")}
    assert sorted(exercises) == sorted(p.name for p in (REPO_ROOT / "exercises").glob("[0-9][0-9]_*")
                                       if p.is_dir())
