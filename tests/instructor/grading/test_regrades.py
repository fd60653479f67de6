"""Regrades: a recorded seed replays a submission's inputs exactly, and grading a few
submissions into a class's report folder changes only their rows (the old ones kept in
scores-history.csv).

The quick tests build results by hand; the slow ones grade exercise 5 (NumPy only, a few
seconds a notebook) for real, sandboxed.
"""

import argparse
import csv
import shutil

import nbformat
import pytest

from tfdist_instructor import cli, grading
from tfdist_instructor.grading import catalog, sandbox, scores, seeds
from tfdist_instructor.sample_class.planting import planted, solution

EXERCISE = "05_ring_allreduce"
OFF_BY_ONE = ("q1-answer", "size * (k + 1) // n)", "size * (k + 1) // n + 1)")


def result(student, score_q1, seed, graded_at, exercise=EXERCISE):
    tests = [{"question": "q1", "case": "c", "hidden": True, "passed": score_q1 > 0, "points": 2.0,
              "message": "", "hint": "", "diagnosis": None}]
    return grading.GradeResult(student=student, file=f"{student}.ipynb", exercise=exercise, tests=tests,
                               possible_by_question={"q1": 2.0}, seed=seed, graded_at=graded_at)


def rows(out):
    with open(out / "scores.csv", newline="") as f:
        return {r["student"]: r for r in csv.DictReader(f)}


def test_the_same_seed_draws_the_same_inputs_and_another_seed_other_inputs():
    for exercise in grading.exercises():
        asked = catalog.load(exercise)
        assert repr(seeds.draw_inputs(asked, 1234)) == repr(seeds.draw_inputs(asked, 1234)), exercise
    asked = catalog.load(EXERCISE)
    assert repr(seeds.draw_inputs(asked, 1234)) != repr(seeds.draw_inputs(asked, 1235))


def test_new_seeds_differ_and_fit_a_spreadsheet_cell():
    drawn = {seeds.new_seed() for _ in range(50)}
    assert len(drawn) > 45 and all(0 <= s < 2**32 for s in drawn)


def test_a_bad_seed_is_one_clear_line(capsys):
    with pytest.raises(ValueError, match="a seed is a whole number >= 0, got '1.2e9'"):
        seeds.check("1.2e9")
    parser = argparse.ArgumentParser()
    grading.add_cli(parser.add_subparsers(dest="command"))
    assert parser.parse_args(["grade", "s", "--out", "r", "--seed", "42"]).seed == 42
    with pytest.raises(SystemExit):
        parser.parse_args(["grade", "s", "--out", "r", "--seed", "-3"])
    assert "invalid _seed value: '-3'" in capsys.readouterr().err


def test_a_regrade_replaces_only_its_row_and_keeps_the_old_one_in_the_history(tmp_path):
    grading.write_report([result("amy", 2, 11, "t1"), result("bob", 0, 22, "t1"), result("cy", 2, 33, "t1")], tmp_path)
    before = rows(tmp_path)
    grading.write_report([result("bob", 2, 22, "t2")], tmp_path)
    after = rows(tmp_path)
    assert list(after) == ["amy", "bob", "cy"]
    assert after["amy"] == before["amy"] and after["cy"] == before["cy"]
    assert (after["bob"]["score"], after["bob"]["seed"], after["bob"]["graded_at"]) == ("2", "22", "t2")
    _, history = scores.read(tmp_path / scores.HISTORY)
    assert [(h["student"], h["score"], h["seed"], h["replaced_at"]) for h in history] == [("bob", "0", "22", "t2")]
    assert (tmp_path / "feedback" / "amy.md").exists() and "seed 22" in (tmp_path / "feedback" / "bob.md").read_text()
    assert not list(tmp_path.glob(".*.tmp")), "the temporary file was moved into place"


def test_rewriting_a_row_of_the_same_grading_adds_no_history(tmp_path):
    grading.write_report([result("amy", 2, 11, "t1")], tmp_path)
    grading.write_report([result("amy", 2, 11, "t1"), result("bob", 2, 5, "t1")], tmp_path)
    assert not (tmp_path / scores.HISTORY).exists() and list(rows(tmp_path)) == ["amy", "bob"]


def test_columns_of_others_are_kept_when_a_regrade_adds_questions(tmp_path):
    grading.write_report([result("amy", 2, 11, "t1")], tmp_path)
    with open(tmp_path / "scores.csv") as f:
        text = f.read()
    (tmp_path / "scores.csv").write_text(text.replace("student,", "student,late_days,", 1).replace("amy,", "amy,3,", 1))
    wider = result("bob", 2, 5, "t2")
    wider.possible_by_question["q2"] = 1.0
    grading.write_report([wider], tmp_path)
    got = rows(tmp_path)
    assert got["amy"]["late_days"] == "3" and got["amy"]["q2"] == "" and got["bob"]["q2"] == "0"


def test_replay_seeds_reads_the_seeds_the_report_recorded(tmp_path):
    grading.write_report([result("amy", 2, 11, "t1"), result("bob", 0, 22, "t1")], tmp_path)
    assert scores.recorded_seeds(tmp_path) == {"amy": 11, "bob": 22}
    recorded = grading.GradeOptions(seeds=scores.recorded_seeds(tmp_path))
    assert recorded.seed_for("amy") == 11 and recorded.seed_for("zed") is None
    assert grading.GradeOptions(seed=7).seed_for("zed") == 7 and grading.GradeOptions().seed_for("zed") is None


# --------------------------------------------------------------------------------------------
# Graded for real

needs_sandbox = pytest.mark.skipif(sandbox.unavailable() is not None, reason=f"no sandbox: {sandbox.unavailable()}")


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory):
    """A class of three graded into one report: two solutions and one off-by-one mistake."""
    folder, out = tmp_path_factory.mktemp("class"), tmp_path_factory.mktemp("class-report")
    for name in ("amy", "cy"):
        nbformat.write(solution(EXERCISE), folder / f"{name}.ipynb")
    nbformat.write(planted(EXERCISE, *OFF_BY_ONE), folder / "bob.ipynb")
    results = {r.student: r for r in grading.grade_folder(folder, out, grading.GradeOptions(timeout_s=120, jobs=2))}
    return folder, out, results


@pytest.mark.slow
@needs_sandbox
def test_regrading_one_student_with_the_recorded_seed_gives_the_identical_grade_and_keeps_the_class(
        graded_class, tmp_path):
    folder, out, results = graded_class
    before, seed = rows(out), results["bob"].seed
    assert f"seed {seed}" in (out / "feedback" / "bob.md").read_text() and before["bob"]["seed"] == str(seed)
    alone = tmp_path / "regrade"
    alone.mkdir()
    shutil.copy(folder / "bob.ipynb", alone / "bob.ipynb")
    assert cli.main(["grade", str(alone), "--out", str(out), "--seed", str(seed), "--timeout", "120"]) == 0
    after = rows(out)
    assert set(after) == {"amy", "bob", "cy"} and after["amy"] == before["amy"] and after["cy"] == before["cy"]
    same = ("score", "q1", "q2", "q3", "reason", "diagnosis", "seed", "status")
    assert {k: after["bob"][k] for k in same} == {k: before["bob"][k] for k in same}
    assert float(after["bob"]["score"]) == 3 and after["bob"]["graded_at"] != before["bob"]["graded_at"]
    _, history = scores.read(out / scores.HISTORY)
    assert [h["student"] for h in history] == ["bob"] and history[0]["graded_at"] == before["bob"]["graded_at"]


@pytest.mark.slow
@needs_sandbox
def test_the_same_seed_gives_every_case_the_same_message_and_a_new_seed_new_inputs(graded_class):
    folder, _, results = graded_class
    again = grading.grade_submission(folder / "bob.ipynb",
                                     grading.GradeOptions(timeout_s=120, seed=results["bob"].seed))
    assert again.tests == results["bob"].tests
    other = grading.grade_submission(folder / "bob.ipynb",
                                     grading.GradeOptions(timeout_s=120, seed=results["bob"].seed + 1))
    failed = [t["message"] for t in other.tests if not t["passed"]]
    assert other.score == again.score and failed != [t["message"] for t in again.tests if not t["passed"]]
