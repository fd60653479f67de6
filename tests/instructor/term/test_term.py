"""A graded term end to end, for real: the release; a roster; Canvas-, Moodle-, Gradescope- and
Colab-named downloads with an unmatched, a duplicated and a late one, and a PDF beside a notebook;
grading; every documented regrade route (``--only ID --replay-seeds``, one file copied into a
folder of its own and graded with its recorded ``--seed``, with the roster and without it, the
whole class with ``--replay-seeds``), each into a copy of the class's report, none changing
another student's row; hand-graded points; both gradebooks and the Gradescope autograder; and
the same class graded on a real two-node Slurm (tests/slurm's fixture), a task killed and
requeued, with scores identical to the local run. `pytest -s` prints every report file."""

import contextlib
import importlib.util
import io
import os
import shutil
import sys
import threading
import time

import nbformat
import psutil
import pytest
from logged_cli import csv_lines, csv_rows, run_logged
from test_gradescope import check_results

from tfdist_instructor import REPO_ROOT, cli
from tfdist_instructor.grading import GradeOptions, scores
from tfdist_instructor.sample_class.downloads import EXERCISE, make_class
from tfdist_instructor.term import classgrade, release, slurm as term_slurm
from tfdist_instructor.term.roster import Roster

SLURM_TESTS = REPO_ROOT / "tests" / "slurm"
sys.path.insert(0, str(SLURM_TESTS))
_spec = importlib.util.spec_from_file_location("slurm_conftest", SLURM_TESTS / "conftest.py")
_slurm_conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_slurm_conftest)
slurm, job_env = _slurm_conftest.slurm, _slurm_conftest.job_env  # the Slurm tests' own fixtures

POLICY = """\
deadline = 2026-03-02T23:59:00Z
late_penalty = 0.10
late_limit_days = 5
[extensions]
s1005 = 2
"""
PLANTED = ("s1004", "q3-answer", "2 * (n - 1) / n * size_bytes / bandwidth", "size_bytes / bandwidth")  # -2.5 on q3


def _notebook(student):
    nb = nbformat.read(REPO_ROOT / "solutions" / EXERCISE / f"{EXERCISE}.ipynb", as_version=4)
    if student == PLANTED[0]:
        cell = next(c for c in nb.cells if c.get("id") == PLANTED[1])
        cell.source = cell.source.replace(PLANTED[2], PLANTED[3])
    return nb


def _timeless(row):
    """A scores.csv row without what differs between two gradings of the same file (when, how long)."""
    return {k: v for k, v in row.items() if k not in ("seconds", "graded_at")}


def _show(*paths):
    for path in paths:
        print(f"\n--- {path.name}\n{path.read_text()}")


ROUTES = ("regraded", "one-file", "one-file-no-roster", "replayed")
LATE_FILE = f"smithbob_LATE_23456_67891_{EXERCISE}.ipynb"


@pytest.fixture(scope="module")
def term(tmp_path_factory):
    """Everything the term's instructor does on one machine, in order; the folders it leaves."""
    base = tmp_path_factory.mktemp("term")
    release.release(base / "release", "acme-univ/dist-course", "spring-term")
    roster = make_class(base / "downloads", _notebook)
    (base / "policy").mkdir()
    (base / "policy" / f"{EXERCISE}.toml").write_text(POLICY)
    common = ["--roster", str(roster), "--policy-dir", str(base / "policy"), "--timeout", "300", "--jobs", "2"]
    graded = ["grade", str(base / "downloads"), "--out", str(base / "graded"), *common]
    assert run_logged(base / "grade.log", graded) == 0
    for route in ROUTES:  # each regrade route into a copy of the class's report
        shutil.copytree(base / "graded", base / route)
    assert cli.main(["grade", str(base / "downloads"), "--out", str(base / "regraded"), *common,
                     "--only", PLANTED[0], "--replay-seeds"]) == 0
    (base / "regrade").mkdir()  # exercises/README's recipe: one student's file in a folder of its own
    shutil.copy2(base / "downloads" / LATE_FILE, base / "regrade" / LATE_FILE)
    seed = {r["student"]: r["seed"] for r in csv_rows(base / "graded" / "scores.csv")}["s1002"]
    assert cli.main(["grade", str(base / "regrade"), "--out", str(base / "one-file"), *common, "--seed", seed]) == 0
    assert run_logged(base / "one-file-no-roster.log", ["grade", str(base / "regrade"), "--out",
                                                        str(base / "one-file-no-roster"), "--seed", seed]) == 2
    assert cli.main(["grade", str(base / "downloads"), "--out", str(base / "replayed"), *common,
                     "--replay-seeds"]) == 0
    capstone = base / "capstone"
    capstone.mkdir()
    nbformat.write(nbformat.read(REPO_ROOT / "solutions/03_svhn_capstone/03_svhn_capstone.ipynb", as_version=4),
                   capstone / "doejane_12345_70001_03_svhn_capstone.ipynb")
    (base / "hand.csv").write_text("id,exercise,points\ns1001,03_svhn_capstone,1.5\n")
    assert cli.main(["grade", str(capstone), "--out", str(base / "capstone-graded"), "--roster", str(roster),
                     "--hand", str(base / "hand.csv"), "--timeout", "800"]) == 0  # fit cells: minutes when busy
    for fmt in ("canvas", "moodle"):
        assert run_logged(base / f"{fmt}.log", [
            "gradebook", str(base / "graded"), str(base / "capstone-graded"), "--roster", str(roster), "--format", fmt,
            "--out", str(base / f"{fmt}.csv"), "--canvas-assignment", f"{EXERCISE}=4711"]) == 0
    _show(*[base / "graded" / n for n in ("scores.csv", "unmatched.csv", "totals.csv")],
          base / "capstone-graded" / "totals.csv", base / "canvas.csv", base / "moodle.csv")
    return base


def test_the_release_students_get_holds_no_solution_question_or_instructor_file(term):
    assert (term / "release" / "exercises" / EXERCISE / f"{EXERCISE}.ipynb").exists()
    assert not any((term / "release" / d).exists() for d in ("solutions", "grading", "instructor"))


def test_every_matched_student_is_graded_under_their_roster_id_and_the_rest_are_listed(term):
    scores = {r["student"]: r for r in csv_rows(term / "graded" / "scores.csv")}
    assert sorted(scores) == ["s1001", "s1002", "s1003", "s1004", "s1005", "s1006", "s1007"]
    seen = {s: (r["score"], r["status"], r["reason"]) for s, r in scores.items()}
    assert scores["s1004"]["score"] == "7.5", seen
    assert all(r["score"] == "10" for s, r in scores.items() if s != "s1004"), seen
    unmatched = {r["file"]: r["problem"].split(":")[0] for r in csv_rows(term / "graded" / "unmatched.csv")}
    assert sorted(unmatched.values()) == ["duplicated", "duplicated", "extra", "unmatched"], unmatched
    totals = {r["id"]: r for r in csv_rows(term / "graded" / "totals.csv")}
    assert totals["s1008"]["status"] == "not graded: see unmatched.csv" and totals["s1008"]["total"] == ""


def test_the_late_canvas_file_loses_a_days_penalty_and_the_extension_saves_the_late_gradescope_one(term):
    totals = {r["id"]: r for r in csv_rows(term / "graded" / "totals.csv")}
    late = totals["s1002"]
    assert (late["late_days"], late["late_penalty"], late["total"]) == ("1", "1", "9"), late
    assert late["lateness_from"].startswith("Canvas's LATE marker")
    assert (totals["s1005"]["late_days"], totals["s1005"]["total"]) == ("0", "10")  # 10 h late, 2 days' extension
    assert totals["s1003"]["lateness_from"].startswith("the file's modification time")


def test_a_notebook_with_a_pdf_beside_it_is_graded_and_the_pdf_listed(term):
    jane = {r["student"]: r for r in csv_rows(term / "graded" / "scores.csv")}["s1001"]
    assert (jane["score"], jane["file"]) == ("10", f"doejane_12345_67890_{EXERCISE}.ipynb")
    extra = {r["file"]: r for r in csv_rows(term / "graded" / "unmatched.csv")}[f"doejane_12345_67899_{EXERCISE}.pdf"]
    assert extra["problem"].startswith("extra: s1001 also sent") and extra["student"] == "s1001"


def test_the_late_students_feedback_and_the_console_show_the_penalty_and_the_total(term):
    feedback = (term / "graded" / "feedback" / "s1002.md").read_text()
    assert "- Automatic score: **10 / 10** (graded)" in feedback
    assert "- Total: **9 / 10** (10 automatic, -1 for 1 day late (Canvas's LATE marker" in feedback
    said = (term / "grade.log").read_text()
    assert "s1002: total 9 / 10 (10 automatic, -1 for 1 day late (Canvas's LATE marker" in said
    late = {r["id"]: r for r in csv_rows(term / "graded" / "totals.csv")}["s1002"]
    assert "the late limit (5 days) cannot be applied" in late["lateness_note"] and late["lateness_note"] in said


@pytest.mark.parametrize("route, student", [("regraded", PLANTED[0]), ("one-file", "s1002"), ("replayed", None)])
def test_every_documented_regrade_route_leaves_every_other_students_rows_byte_identical(term, route, student):
    """--only ID --replay-seeds; one file in a folder of its own with its --seed and the roster; the whole
    class with --replay-seeds: each into a copy of the class's report."""
    before, after = csv_lines(term / "graded" / "totals.csv"), csv_lines(term / route / "totals.csv")
    assert list(after) == list(before)  # the same students, in the same order: nobody added, nobody zeroed
    others = [sid for sid in before if sid not in (b"id", (student or "").encode())]
    assert [sid for sid in others if after[sid] != before[sid]] == []
    assert after == before  # the regraded student too: the recorded seed replays the same total
    assert (term / route / "unmatched.csv").read_bytes() == (term / "graded" / "unmatched.csv").read_bytes()
    scores_before, scores_after = (csv_rows(term / folder / "scores.csv") for folder in ("graded", route))
    assert [_timeless(r) for r in scores_after] == [_timeless(r) for r in scores_before]
    changed = {r["student"] for r, o in zip(scores_after, scores_before, strict=True) if r != o}
    assert changed == ({student} if student else {r["student"] for r in scores_before})


def test_the_one_file_regrade_without_the_roster_is_refused_and_changes_nothing(term):
    said = (term / "one-file-no-roster.log").read_text()
    assert "was graded with --roster (it holds totals.csv)" in said and "--roster ROSTER.csv --seed" in said
    for name in ("scores.csv", "totals.csv", "unmatched.csv"):
        assert (term / "one-file-no-roster" / name).read_bytes() == (term / "graded" / name).read_bytes()


def test_the_gradebooks_leave_a_held_back_student_blank_and_say_who(term):
    canvas = {r["ID"]: r for r in csv_rows(term / "canvas.csv")}
    assert canvas["34567"][f"{EXERCISE} (4711)"] == ""  # s1008: both files held back (duplicated)
    moodle = {r["ID number"]: r for r in csv_rows(term / "moodle.csv")}
    assert moodle["s1008"][EXERCISE] == ""
    for fmt in ("canvas", "moodle"):
        said = (term / f"{fmt}.log").read_text()
        assert f"{EXERCISE}: 1 student(s) with no graded submission, left blank, not 0" in said
        assert "s1008 (not graded: see unmatched.csv)" in said


def test_a_regrade_with_the_recorded_seed_gives_the_same_score_and_leaves_the_others_untouched(term):
    before = {r["student"]: r for r in csv_rows(term / "graded" / "scores.csv")}
    after = {r["student"]: r for r in csv_rows(term / "regraded" / "scores.csv")}
    assert _timeless(after.pop("s1004")) == _timeless(before.pop("s1004"))
    assert after == before  # every other row exactly as it was
    assert csv_rows(term / "regraded" / "totals.csv") == csv_rows(term / "graded" / "totals.csv")


def test_hand_graded_points_reach_the_totals_and_both_gradebooks(term):
    jane = {r["id"]: r for r in csv_rows(term / "capstone-graded" / "totals.csv")}["s1001"]
    assert (jane["auto"], jane["hand"], jane["total"], jane["possible"]) == ("10", "1.5", "11.5", "12")
    canvas = {r["Student"]: r for r in csv_rows(term / "canvas.csv")}
    assert canvas["Doe, Jane"][f"{EXERCISE} (4711)"] == "10" and canvas["Doe, Jane"]["03_svhn_capstone"] == "11.5"
    assert canvas["Smith, Bob"]["ID"] == "23456" and canvas["Smith, Bob"][f"{EXERCISE} (4711)"] == "9"
    assert canvas["Smith, Bob"]["SIS User ID"] == canvas["Smith, Bob"]["SIS Login ID"] == ""  # the roster has none
    moodle = {r["Email address"]: r for r in csv_rows(term / "moodle.csv")}
    assert moodle["jane.doe@uni.example"]["03_svhn_capstone"] == "11.5"
    assert moodle["wei.chen@uni.example"][EXERCISE] == "7.5"


def test_the_gradescope_autograder_gives_a_solution_full_marks(gradescope_solution):
    answer = gradescope_solution
    check_results(answer)
    assert answer["score"] == 10 and all(t["status"] == "passed" for t in answer["tests"])


def _kill_task_once(work, job_done, killed):
    """SIGKILL array task 0 once its first result is written (the task dies mid-share)."""
    while not job_done.is_set():
        if (work / "results").is_dir() and any((work / "results").glob("*.json")):
            for proc in psutil.process_iter(["cmdline"]):
                argv = proc.info["cmdline"] or []
                if "tfdist_instructor.term.slurm" in argv and argv[-1] == "0":
                    proc.kill()
                    killed.append(proc.pid)
                    return
        time.sleep(0.2)


def test_the_slurm_options_reach_sbatch_and_the_grade_options_the_manifest(tmp_path):
    import json
    import subprocess

    calls = []

    def client(argv):
        calls.append(argv)
        out = {"sbatch": "42\n", "scontrol": "JobId=42 ArrayTaskId=0 JobState=COMPLETED\n"}.get(argv[0], "")
        return subprocess.CompletedProcess(argv, 0, stdout=out, stderr="")

    grader = term_slurm.SlurmGrader(sbatch_args=["--partition=grading"], poll_s=0, client=client)
    options = GradeOptions(timeout_s=30, exercise=EXERCISE, seeds={"s1": 7})
    with contextlib.redirect_stdout(io.StringIO()):
        grader.grade({tmp_path / "a.ipynb": "s1"}, tmp_path / "out", options)
    sbatch = next(argv for argv in calls if argv[0] == "sbatch")
    assert "--partition=grading" in sbatch and sbatch[-1].endswith("job.sh")
    manifest = json.loads((tmp_path / "out" / "slurm" / "manifest.json").read_text())
    assert GradeOptions.from_dict(manifest["options"]) == options
    assert [(s["student"], s["seed"]) for s in manifest["submissions"]] == [("s1", 7)]


@pytest.mark.slurm
def test_the_class_graded_on_slurm_with_a_task_killed_matches_the_local_run(term, slurm, job_env):
    env = {**job_env, "PYTHONPATH": os.pathsep.join([str(REPO_ROOT), str(REPO_ROOT / "instructor")])}
    out = slurm.shared / "graded"
    grader = term_slurm.SlurmGrader(tasks=2, poll_s=1, client=lambda argv: slurm.client(argv, env=env))
    done, killed = threading.Event(), []
    watcher = threading.Thread(target=_kill_task_once, args=(out / "slurm", done, killed), daemon=True)
    watcher.start()
    try:
        classgrade.grade_class(term / "downloads", out, Roster.load(term / "roster.csv"),
                               GradeOptions(timeout_s=300, seeds=scores.recorded_seeds(term / "graded")),
                               policy_dir=term / "policy", slurm=grader)
    finally:
        done.set()
    _show(out / "scores.csv", *sorted((out / "slurm").glob("task-*.log")))
    assert killed, "task 0 was never seen running"
    task0 = next(r for r in grader.records if r["ArrayTaskId"] == "0")
    assert int(task0["Restarts"]) >= 1 and task0["JobState"] == "COMPLETED", task0
    assert len(list((out / "slurm" / "results").glob("*.json"))) == 7

    def rows(path):
        return sorted((_timeless(r) for r in csv_rows(path)), key=lambda r: r["student"])

    assert rows(out / "scores.csv") == rows(term / "graded" / "scores.csv")
    assert csv_rows(out / "totals.csv") == csv_rows(term / "graded" / "totals.csv")
