"""A grading run's options are one frozen object: checked when built, built once by ``grade``
(its ``--exercise`` and the seeds it was given in it), and that same object reaches every launch
of a submission, for a folder and for a roster class alike; what the submissions settle (the
exercise they name, a new seed) is handed down beside it, never built into a second object.

The launches here are recorded instead of run (``launch.run`` is replaced), so these tests start
no notebook: what they check is which options object the command hands down.
"""

import dataclasses
import json
import re
import shutil

import pytest

from tfdist_instructor import cli, grading
from tfdist_instructor.grading import launch, options, sandbox
from tfdist_instructor.term import classgrade, slurm  # noqa: F401 - their default GradeOptions built now, not counted

EXERCISE = "01_global_batch"
HANDOUT = grading.EXERCISES_DIR / EXERCISE / f"{EXERCISE}.ipynb"
ROSTER = "id,name,email,canvas_id,moodle_id,gradescope_id\ns1001,Jane Doe,jane.doe@uni.example,12345,,\n"


@pytest.fixture
def recorded(monkeypatch):
    """Every GradeOptions built and every launch's options, with the launch itself not run."""
    built, launched = [], []
    check = options.GradeOptions.__post_init__

    def counting(self):
        check(self)
        built.append(self)

    def fake_run(job, env, run_options):
        launched.append(run_options)
        answer = b'{"clock": {"cells": []}, "cells": [], "probes": {}, "called": {}}'  # a notebook that answered nothing
        return launch.Outcome(result=answer, log=["[grader] not run: recorded by the test"], killed=False, returncode=0)

    monkeypatch.setattr(options.GradeOptions, "__post_init__", counting)
    monkeypatch.setattr(launch, "run", fake_run)
    return built, launched


def test_the_options_are_frozen_so_nothing_can_change_them_during_a_run():
    chosen = grading.GradeOptions(timeout_s=120, jobs=2, only=["s1001"])
    with pytest.raises(dataclasses.FrozenInstanceError):
        chosen.timeout_s = 1
    assert chosen.only == ("s1001",)  # a list given is kept as a tuple: frozen all the way down
    assert (chosen.cell_limit_s, chosen.probe_reserve_s, chosen.deadline_s) == (60, 30, 120 + options.GRACE_S)


@pytest.mark.parametrize("given, said", [
    ({"timeout_s": 0}, "timeout_s (--timeout) must be a number of seconds > 0, got 0"),
    ({"timeout_s": float("inf")}, "timeout_s (--timeout) must be a number of seconds > 0, got inf"),
    ({"jobs": 0}, "jobs (--jobs) must be a whole number >= 1, got 0"),
    ({"jobs": 1.5}, "jobs (--jobs) must be a whole number >= 1, got 1.5"),
    ({"seed": -3}, "seed (--seed) must be a whole number >= 0, got -3"),
    ({"seed": 4, "replay_seeds": True}, "seed (--seed) must be left out with replay_seeds (--replay-seeds)"),
    ({"only": "s1001"}, "only (--only) must be a list of student ids, got 's1001'"),
    ({"seeds": {"amy": -1}}, "seeds (--replay-seeds) must be a mapping of student ids to whole numbers >= 0"),
])
def test_a_bad_option_is_refused_naming_the_option_and_the_value(given, said):
    with pytest.raises(ValueError, match=f"^the grading option {re.escape(said)}"):
        grading.GradeOptions(**given)


@pytest.mark.parametrize("flag, value, said", [("--timeout", "0", "timeout_s (--timeout)"),
                                               ("--jobs", "0", "jobs (--jobs)")])
def test_a_bad_option_on_the_command_line_is_one_line_before_any_work(tmp_path, capsys, recorded, flag, value, said):
    (tmp_path / "in").mkdir()
    shutil.copy(HANDOUT, tmp_path / "in" / "amy.ipynb")
    assert cli.main(["grade", str(tmp_path / "in"), "--out", str(tmp_path / "out"), flag, value]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith(f"tfdist-instructor grade: the grading option {said} must be")
    assert not (tmp_path / "out").exists() and recorded[1] == []


def test_the_command_builds_one_options_object_that_reaches_every_launch(tmp_path, capsys, recorded):
    built, launched = recorded
    (tmp_path / "in").mkdir()
    for student in ("amy", "ben", "cai"):
        shutil.copy(HANDOUT, tmp_path / "in" / f"{student}.ipynb")
    assert cli.main(["grade", str(tmp_path / "in"), "--out", str(tmp_path / "out"), "--timeout", "45", "--jobs", "2",
                     "--seed", "7", "--exercise", EXERCISE, "--trust-submissions"]) == 0
    assert len(built) == 1 and len(launched) == 3 and all(o is built[0] for o in launched)
    assert built[0] == grading.GradeOptions(timeout_s=45.0, jobs=2, exercise=EXERCISE, seed=7, sandboxed=False)
    assert "3 submissions graded" in capsys.readouterr().out


def test_a_roster_class_is_graded_with_the_same_one_options_object(tmp_path, capsys, recorded, monkeypatch):
    built, launched = recorded
    monkeypatch.setattr(sandbox, "unavailable", lambda: None)  # launches are recorded, not run: no sandbox needed
    (tmp_path / "roster.csv").write_text(ROSTER)
    (tmp_path / "in").mkdir()
    shutil.copy(HANDOUT, tmp_path / "in" / f"doejane_12345_67890_{EXERCISE}.ipynb")  # Canvas's name for s1001
    assert cli.main(["grade", str(tmp_path / "in"), "--out", str(tmp_path / "out"), "--roster",
                     str(tmp_path / "roster.csv"), "--only", "s1001", "--timeout", "30"]) == 0
    assert len(built) == 1 and launched == [built[0]] and launched[0] is built[0]
    assert (built[0].exercise, built[0].seeds) == (None, None)  # the class's exercise and new seed: beside it
    row = _rows(tmp_path / "out" / "scores.csv")[0]
    assert (row["student"], row["exercise"]) == ("s1001", EXERCISE) and row["seed"].isdigit()
    assert (built[0].only, built[0].timeout_s, built[0].sandboxed) == (("s1001",), 30.0, True)
    assert "totals of 1 students" in capsys.readouterr().out


def test_a_folder_without_exercise_is_graded_as_the_one_its_notebooks_name_with_the_one_object(tmp_path, recorded):
    built, launched = recorded
    (tmp_path / "in").mkdir()
    for student in ("amy", "ben"):
        shutil.copy(HANDOUT, tmp_path / "in" / f"{student}.ipynb")
    stripped = json.loads(HANDOUT.read_text())
    del stripped["metadata"]["otter"]  # names no exercise: graded as the one the others name
    (tmp_path / "in" / "cai.ipynb").write_text(json.dumps(stripped))
    assert cli.main(["grade", str(tmp_path / "in"), "--out", str(tmp_path / "out"), "--trust-submissions"]) == 0
    assert len(built) == 1 and built[0].exercise is None
    assert len(launched) == 3 and all(o is built[0] for o in launched)
    assert {r["student"]: r["exercise"] for r in _rows(tmp_path / "out" / "scores.csv")} == {
        "amy": EXERCISE, "ben": EXERCISE, "cai": EXERCISE}


def test_replay_seeds_are_read_into_the_options_once_and_reach_each_student(tmp_path, recorded):
    built, launched = recorded
    (tmp_path / "in").mkdir()
    for student in ("amy", "ben"):
        shutil.copy(HANDOUT, tmp_path / "in" / f"{student}.ipynb")
    grading.write_report([grading.GradeResult(student="amy", file="amy.ipynb", exercise=EXERCISE, seed=11)],
                         tmp_path / "out")
    assert cli.main(["grade", str(tmp_path / "in"), "--out", str(tmp_path / "out"), "--exercise", EXERCISE,
                     "--replay-seeds", "--trust-submissions"]) == 0
    assert len(built) == 1 and len(launched) == 2 and all(o is built[0] for o in launched)
    assert dict(built[0].seeds) == {"amy": 11} and built[0].seed_for("amy") == 11 and built[0].seed_for("ben") is None
    seeds = {r["student"]: r["seed"] for r in _rows(tmp_path / "out" / "scores.csv")}
    assert seeds["amy"] == "11" and seeds["ben"] not in ("", "11")


def test_the_seeds_are_read_in_one_place_and_kept_read_only_through_a_manifest():
    given = grading.GradeOptions(exercise=EXERCISE, seeds={"amy": 3})
    assert (given.seed_for("amy"), given.seed_for("ben")) == (3, None)  # ben: a new seed, drawn when graded
    assert grading.GradeOptions(seed=7, seeds={"amy": 3}).seed_for("amy") == 7  # --seed: the same for everyone
    with pytest.raises(TypeError):
        given.seeds["amy"] = 4  # read-only, as the rest of the options
    assert grading.GradeOptions.from_dict(json.loads(json.dumps(given.as_dict()))) == given


def _rows(path):
    import csv

    with open(path, newline="") as f:
        return list(csv.DictReader(f))
