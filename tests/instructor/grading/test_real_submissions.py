"""Tests for tfdist_instructor.grading: grading real submissions.

The slow tests grade notebooks for real, each in its own sandbox (about 20-90 s per notebook
on two cores). To keep the file's run time down they share two graded folders: the reference
solutions with the untouched exercises, and ten mixed submissions of exercise 1 built from
``fixtures/fixtures.json`` (the solution, which the reference tests read too, plus one of every
kind of bad one).
Hostile submissions are in test_hostile.py, the taught mistakes in test_mistakes.py.
"""

import argparse
import csv
import json
import shutil
from pathlib import Path

import nbformat
import numpy as np
import psutil
import pytest

from tfdist_instructor import REPO_ROOT, cli, grading
from tfdist_instructor.grading import catalog, codec, sandbox, verdict

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SPEC = json.loads((FIXTURES / "fixtures.json").read_text())
EXERCISES = ["01_global_batch", "02_custom_loop", "03_svhn_capstone", "04_multi_worker", "05_ring_allreduce"]


def reference(kind, exercise):
    """The ``"solution"`` or the handed-out (``"exercise"``) notebook of ``exercise``."""
    base = REPO_ROOT / "solutions" if kind == "solution" else grading.EXERCISES_DIR
    return base / exercise / f"{exercise}.ipynb"


def build_submission(folder, name, spec):
    """Write the submission ``spec`` describes into ``folder``; return its path."""
    if "file" in spec:
        return Path(shutil.copy(FIXTURES / spec["file"], folder / spec["file"]))
    nb = nbformat.read(reference("solution", SPEC["exercise"]), as_version=4)
    for edit in spec["edits"]:
        index = next(i for i, c in enumerate(nb.cells) if c.get("id") == edit["cell"])
        cell = nb.cells[index]
        if "replace" in edit:
            cell.source = edit["replace"]
        elif "sub" in edit:
            old, new = edit["sub"]
            assert old in cell.source, f"fixture {name}: {old!r} is not in cell {edit['cell']}"
            cell.source = cell.source.replace(old, new)
        elif "prepend" in edit:
            cell.source = edit["prepend"] + cell.source
        elif edit.get("delete"):
            del nb.cells[index]
        elif "move_after" in edit:
            del nb.cells[index]
            target = next(i for i, c in enumerate(nb.cells) if c.get("id") == edit["move_after"])
            nb.cells.insert(target + 1, cell)
        elif "insert_after" in edit:
            new_cell = nbformat.v4.new_code_cell(edit["insert_after"])
            new_cell["id"] = f"inserted-{index}"
            nb.cells.insert(index + 1, new_cell)
    path = folder / f"{name}.ipynb"
    nbformat.write(nb, path)
    return path


def assert_graded_as(result, spec, out_dir):
    assert (result.score, result.possible, result.status) == (spec["score"], 10, spec["status"]), result
    for fragment in spec["reason"]:
        assert fragment in result.reason, (fragment, result.reason)
    feedback = (out_dir / "feedback" / f"{result.student}.md").read_text()
    for fragment in spec.get("feedback", []):
        assert fragment in feedback, (fragment, feedback)


@pytest.fixture(scope="module")
def reference_folder(tmp_path_factory, mixed_folder):
    """Every solution and every untouched exercise, graded in one folder; exercise 1's solution is
    the mixed folder's result (the same notebook, graded once)."""
    folder, out = tmp_path_factory.mktemp("reference"), tmp_path_factory.mktemp("reference-report")
    for exercise in EXERCISES:
        if exercise != SPEC["exercise"]:
            shutil.copy(reference("solution", exercise), folder / f"solution_{exercise}.ipynb")
        shutil.copy(reference("exercise", exercise), folder / f"untouched_{exercise}.ipynb")
    results = grading.grade_folder(folder, out, grading.GradeOptions(timeout_s=600, jobs=2))
    return {r.student: r for r in results} | {f"solution_{SPEC['exercise']}": mixed_folder[0]["solution"]}, out


@pytest.fixture(scope="module")
def mixed_folder(tmp_path_factory):
    """Ten submissions of exercise 1: the solution and one of every kind of bad submission."""
    folder, out = tmp_path_factory.mktemp("mixed"), tmp_path_factory.mktemp("mixed-report")
    files = {"solution": "solution.ipynb"}
    shutil.copy(reference("solution", SPEC["exercise"]), folder / files["solution"])
    for name, spec in SPEC["submissions"].items():
        files[name] = build_submission(folder, name, spec).name
    options = grading.GradeOptions(timeout_s=SPEC["timeout_s"], jobs=2)
    results = {r.file: r for r in grading.grade_folder(folder, out, options)}
    return {name: results[file] for name, file in files.items()}, out


# --------------------------------------------------------------------------------------------
# Masters, exercises and solutions


def test_exercises_are_the_graded_notebooks_worth_ten_points_each():
    assert grading.exercises() == EXERCISES
    for exercise in EXERCISES:
        assert sum(grading.questions(exercise).values()) == 10


def test_student_versions_hold_public_checks_only_and_no_solution():
    for exercise in EXERCISES:
        public = [f.read_text() for f in (grading.EXERCISES_DIR / exercise / "tests").glob("*.py")]
        assert public and not any("hidden=True" in text for text in public)
        assert "BEGIN SOLUTION" not in reference("exercise", exercise).read_text()
        assert not list((grading.EXERCISES_DIR / exercise).rglob("reference.py"))


def test_every_question_has_a_public_case_and_a_probe():
    for exercise in EXERCISES:
        for question in catalog.load(exercise):
            assert any(c.public for c in question.cases), (exercise, question.name)
            assert question.probe_source.startswith("def probe(inputs):")


# --------------------------------------------------------------------------------------------
# Quick checks that run no notebook


def test_cli_registers_grade_with_out_timeout_and_trust():
    parser = argparse.ArgumentParser()
    grading.add_cli(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["grade", "subs", "--out", "report", "--timeout", "90"])
    assert (args.submissions, args.out, args.timeout) == ("subs", "report", 90.0) and callable(args.func)
    assert args.trust_submissions is False


def test_a_missing_submissions_folder_is_one_line_and_exit_2(tmp_path, capsys):
    assert cli.main(["grade", str(tmp_path / "nowhere"), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "no submissions folder at" in err
    assert not (tmp_path / "out").exists()


def test_an_unwritable_report_folder_is_refused_before_any_work(tmp_path, capsys):
    shutil.copy(reference("exercise", "01_global_batch"), tmp_path / "amy.ipynb")
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert cli.main(["grade", str(tmp_path), "--out", str(blocker / "out")]) == 2
    assert "cannot write the report into" in capsys.readouterr().err


def test_without_bubblewrap_grading_stops_and_offers_docker_or_trust(tmp_path, capsys, monkeypatch):
    shutil.copy(reference("exercise", "01_global_batch"), tmp_path / "amy.ipynb")
    monkeypatch.setattr(sandbox, "unavailable", lambda: "bwrap not found")
    assert cli.main(["grade", str(tmp_path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "cannot sandbox submissions here: bwrap not found" in err
    assert "Docker mode" in err and "--trust-submissions" in err
    assert not list((tmp_path / "out").glob("*.csv"))


def test_codec_round_trips_plain_data_and_refuses_pickled_arrays():
    value = {"a": [1, 2.5, None, True], "t": (3, "x"), "arr": np.arange(6).reshape(2, 3)}
    back = codec.decode(codec.encode(value))
    assert back["a"] == [1, 2.5, None, True] and back["t"] == (3, "x")
    assert np.array_equal(back["arr"], value["arr"])
    assert codec.decode(codec.encode(object())) == "object"
    with pytest.raises(ValueError):
        codec.decode(codec.encode(np.array([object()], dtype=object)))


def test_forged_or_broken_answers_fail_every_case_without_raising():
    question = catalog.load("01_global_batch")[3]
    inputs = question.inputs(np.random.default_rng(0))
    for raw in (None, "{", '{"passed": true}', '{"__probe_error__": "NameError: x"}', "[1, 2]"):
        results = verdict.judge(question, inputs, raw)
        assert [r["passed"] for r in results] == [False, False] and verdict.score(results) == 0, raw


def test_a_notebook_of_another_exercise_is_rejected_without_running(tmp_path):
    path = shutil.copy(reference("solution", "02_custom_loop"), tmp_path / "bob.ipynb")
    result = grading.grade_submission(path, grading.GradeOptions(exercise="01_global_batch"))
    assert (result.status, result.score, result.possible) == ("rejected", 0, 10)
    assert "exercise 02_custom_loop, not of 01_global_batch" in result.reason


def test_a_notebook_without_its_exercise_name_asks_for_one(tmp_path):
    nb = nbformat.read(reference("exercise", "01_global_batch"), as_version=4)
    del nb.metadata["otter"]
    nbformat.write(nb, tmp_path / "carol.ipynb")
    result = grading.grade_submission(tmp_path / "carol.ipynb")
    assert result.status == "rejected" and "--exercise" in result.reason


def test_feedback_shows_hints_of_hidden_tests_but_never_their_code():
    result = grading.GradeResult(
        student="dave", file="dave.ipynb", exercise="01_global_batch", possible_by_question={"q1": 3.0},
        tests=[{"question": "q1", "hidden": False, "passed": True, "points": 1, "message": "", "hint": ""},
               {"question": "q1", "hidden": True, "passed": False, "points": 2,
                "message": "assert secret_reference(x) == 4", "hint": "think about the replicas"}])
    text = grading.feedback(result)
    assert "1 / 3" in text and "think about the replicas" in text and "secret_reference" not in text


# --------------------------------------------------------------------------------------------
# Grading real submissions


@pytest.mark.slow
@pytest.mark.parametrize("exercise", EXERCISES)
def test_solutions_score_full_marks(reference_folder, exercise):
    results, _ = reference_folder
    result = results[f"solution_{exercise}"]
    assert (result.score, result.possible, result.status) == (10, 10, "graded")
    assert result.reason == "all tests passed"


@pytest.mark.slow
@pytest.mark.parametrize("exercise", EXERCISES)
def test_untouched_exercises_score_zero_with_a_helpful_message(reference_folder, exercise):
    results, out = reference_folder
    result = results[f"untouched_{exercise}"]
    assert (result.score, result.possible, result.status) == (0, 10, "graded")
    assert "answer cells left as handed out: " + ", ".join(grading.questions(exercise)) in result.reason
    feedback = (out / "feedback" / f"untouched_{exercise}.md").read_text()
    assert "public test (1 pt) failed: " in feedback or "public test (0.5 pt) failed: " in feedback
    assert "hidden test" in feedback


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SPEC["submissions"]))
def test_each_bad_submission_gets_its_expected_score_and_reason(mixed_folder, name):
    results, out = mixed_folder
    assert_graded_as(results[name], SPEC["submissions"][name], out)


@pytest.mark.slow
def test_a_folder_of_ten_mixed_submissions_gives_ten_rows_and_ten_feedback_files(mixed_folder):
    results, out = mixed_folder
    with open(out / "scores.csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(results) == 10
    assert {r["student"] for r in rows} == {r.student for r in results.values()}
    assert rows[0].keys() >= {"student", "exercise", "score", "possible", "status", "reason", "q1", "q4"}
    assert {r["student"]: float(r["score"]) for r in rows}["solution"] == 10
    assert len(list((out / "feedback").glob("*.md"))) == 10


@pytest.mark.slow
def test_a_loop_that_ignores_interrupts_is_killed_with_its_processes(tmp_path):
    spec = SPEC["alone"]["ignores_interrupts"]
    path = build_submission(tmp_path, "eve", spec)
    result = grading.grade_submission(path, grading.GradeOptions(timeout_s=spec["timeout_s"]))
    grading.write_report([result], tmp_path / "report")
    assert_graded_as(result, spec, tmp_path / "report")
    assert result.seconds < spec["timeout_s"] + 30
    leftovers = [p for p in psutil.process_iter(["cmdline"]) if p.info["cmdline"] == ["sleep", "4242"]]
    assert leftovers == []


@pytest.mark.slow
def test_the_capstone_written_answer_goes_to_the_instructor_with_its_rubric(reference_folder):
    results, out = reference_folder
    answer, rubric = results["solution_03_svhn_capstone"].written["q3"]
    # The solution builds the text with an f-string: the report quotes it with the numbers filled in.
    assert answer.strip().startswith("On this machine the fastest run was '") and "{fastest}" not in answer
    written = (out / "written.md").read_text()
    assert "## solution_03_svhn_capstone: 03_svhn_capstone q3" in written and rubric.strip() in written
    assert "grades it by hand" in (out / "feedback" / "solution_03_svhn_capstone.md").read_text()
