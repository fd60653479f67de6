"""No grade lost when instructors work as instructors do: a roster class (Canvas, Moodle,
Gradescope and Colab names, a PDF, a duplicate, an extension, a late file, an outsider) graded
for real, then the habits that used to lose or misstate a grade without a word, each into a copy
of the class's report, with every other row compared byte for byte:

- the grader fails on one student (a planted resource failure: their sandbox cannot fork the
  kernel): "not graded" in scores.csv, totals.csv, both gradebooks and the run's summary, never 0;
  graded again, only their rows change;
- one file copied with ``cp`` (its time set to now) and regraded: it keeps its original total;
  the whole downloads folder copied and regraded: every total kept;
- a regrade without ``--policy-dir`` reuses the policy the class was graded with, saying so;
- a mistyped policy folder or a misnamed policy file is refused in one line before any work.

Exercise 5 is NumPy only: the class grades in well under a minute on two cores.
"""

import dataclasses
import hashlib
import json
import shutil

import nbformat
import pytest

from logged_cli import csv_lines, csv_rows, run_logged
from tfdist_instructor import REPO_ROOT, cli
from tfdist_instructor.grading import grade, launch, sandbox
from tfdist_instructor.grading.sandbox import Limits
from tfdist_instructor.sample_class.downloads import EXERCISE, FILES, make_class

POLICY = """\
deadline = 2026-03-02T23:59:00Z
late_penalty = 0.10
late_limit_days = 5
[extensions]
s1005 = 2
"""
FAILS = "s1007"  # the grader fails on this student's file (Colab, email in the name)
MARK = "grader-failure-planted-here"
MOODLE_FILE = f"Ana María López_501_assignsubmission_file_{EXERCISE}.ipynb"  # s1003: time from the file
LATE_FILE = f"smithbob_LATE_23456_67891_{EXERCISE}.ipynb"  # s1002: Canvas LATE, 1 day, 9 / 10
pytestmark = pytest.mark.skipif(sandbox.unavailable() is not None, reason=f"no sandbox: {sandbox.unavailable()}")


def _notebook(student):
    nb = nbformat.read(REPO_ROOT / "solutions" / EXERCISE / f"{EXERCISE}.ipynb", as_version=4)
    if student == FAILS:
        nb.cells.append(nbformat.v4.new_markdown_cell(MARK))
    return nb


@pytest.fixture(scope="module")
def term(tmp_path_factory):
    base = tmp_path_factory.mktemp("record")
    roster = make_class(base / "downloads", _notebook)
    (base / "policy").mkdir()
    (base / "policy" / f"{EXERCISE}.toml").write_text(POLICY)
    common = ["--roster", str(roster), "--timeout", "120", "--jobs", "2"]
    real, starved = launch.run, []

    def planted(job, env, options):  # the planted student's sandbox cannot fork the kernel: EAGAIN
        if MARK.encode() in job:
            starved.append(options)
            options = dataclasses.replace(options, limits=Limits(processes=1))
        return real(job, env, options)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(launch, "run", planted)
        mp.setattr(grade, "RETRY_WAIT_S", 0)
        code = run_logged(base / "grade.log", ["grade", str(base / "downloads"), "--out", str(base / "graded"), *common,
                                               "--policy-dir", str(base / "policy")])
    assert code == 3 and len(starved) == 2  # tried twice, then not graded; the exit code says so
    for route in ("regraded", "one-file", "copied-class", "no-policy-dir"):
        shutil.copytree(base / "graded", base / route)
    with_policy = [*common, "--policy-dir", str(base / "policy")]
    assert run_logged(base / "regraded.log", ["grade", str(base / "downloads"), "--out", str(base / "regraded"),
                                              *with_policy, "--only", FAILS, "--replay-seeds"]) == 0
    seeds = {r["student"]: r["seed"] for r in csv_rows(base / "graded" / "scores.csv")}
    (base / "regrade").mkdir()
    shutil.copy(base / "downloads" / MOODLE_FILE, base / "regrade" / MOODLE_FILE)  # cp: the file's time is now
    assert run_logged(base / "one-file.log", ["grade", str(base / "regrade"), "--out", str(base / "one-file"),
                                              *with_policy, "--seed", seeds["s1003"]]) == 0
    shutil.copytree(base / "downloads", base / "downloads-copy", copy_function=shutil.copy)  # cp -r
    assert run_logged(base / "copied-class.log", ["grade", str(base / "downloads-copy"), "--out",
                                                  str(base / "copied-class"), *with_policy, "--replay-seeds"]) == 0
    (base / "late").mkdir()
    shutil.copy2(base / "downloads" / LATE_FILE, base / "late" / LATE_FILE)
    # the README's recipe as it was
    assert run_logged(base / "no-policy-dir.log", ["grade", str(base / "late"), "--out", str(base / "no-policy-dir"),
                                                   *common, "--seed", seeds["s1002"]]) == 0
    for fmt in ("canvas", "moodle"):
        assert run_logged(base / f"{fmt}.log", ["gradebook", str(base / "graded"), "--roster", str(roster),
                                                "--format", fmt, "--out", str(base / f"{fmt}.csv")]) == 0
    return base


def _unchanged_but(term, route, student):
    """Every row of every table but ``student``'s is byte for byte the class's."""
    for name in ("scores.csv", "totals.csv", "unmatched.csv"):
        before, after = csv_lines(term / "graded" / name), csv_lines(term / route / name)
        assert list(after) == list(before), name
        assert [s for s in before if s != student.encode() and after[s] != before[s]] == [], name


def test_a_planted_grader_failure_reads_not_graded_everywhere_and_never_0(term):
    row = {r["student"]: r for r in csv_rows(term / "graded" / "scores.csv")}[FAILS]
    assert (row["status"], row["score"], row["percent"], row["q1"]) == ("not graded", "", "", ""), row
    assert row["reason"].startswith("the notebook's kernel could not start: BlockingIOError: [Errno 11]")
    total = {r["id"]: r for r in csv_rows(term / "graded" / "totals.csv")}[FAILS]
    assert (total["auto"], total["total"], total["late_penalty"]) == ("", "", ""), total
    assert total["status"].startswith("not graded: the notebook's kernel could not start: BlockingIOError")
    canvas = {r["Student"]: r for r in csv_rows(term / "canvas.csv")}["Haddad, Omar"]
    moodle = {r["ID number"]: r for r in csv_rows(term / "moodle.csv")}[FAILS]
    assert canvas[EXERCISE] == moodle[EXERCISE] == ""
    for fmt in ("canvas", "moodle"):
        assert f"{FAILS} (not graded: the notebook's kernel could not start" in (term / f"{fmt}.log").read_text()
    said = (term / "grade.log").read_text()
    assert "6 submissions graded" in said and "1 submission(s) NOT GRADED: the grader failed, not the notebook" in said
    assert f"  {FAILS}: the notebook's kernel could not start: BlockingIOError" in said
    assert f"--only {FAILS} --replay-seeds" in said.split("grade them again: ")[1]
    feedback = (term / "graded" / "feedback" / f"{FAILS}.md").read_text()
    assert "**not graded** (the grader failed, not your notebook" in feedback and "0 / 10" not in feedback
    graded = {r["student"]: r["score"] for r in csv_rows(term / "graded" / "scores.csv")}
    assert graded == {"s1001": "10", "s1002": "10", "s1003": "10", "s1004": "10", "s1005": "10", "s1006": "10",
                      FAILS: ""}


def test_graded_again_the_failed_student_gets_their_score_and_no_other_row_changes(term):
    _unchanged_but(term, "regraded", FAILS)
    total = {r["id"]: r for r in csv_rows(term / "regraded" / "totals.csv")}[FAILS]
    assert (total["auto"], total["total"], total["status"]) == ("10", "10", "graded")


def test_a_copied_file_regraded_keeps_its_original_total_and_the_moved_time_is_reported(term):
    _unchanged_but(term, "one-file", "s1003")
    assert csv_lines(term / "one-file" / "totals.csv") == csv_lines(term / "graded" / "totals.csv")  # s1003's too
    said = (term / "one-file.log").read_text()
    assert "s1003: total 10 / 10 (10 automatic)" in said
    assert f"note: s1003: {MOODLE_FILE}: its time moved since it was first judged" in said
    assert "the recorded time is used, not the new one" in said
    times = {r["student"]: r for r in csv_rows(term / "graded" / "submission-times.csv")}
    digest = hashlib.sha256((term / "downloads" / MOODLE_FILE).read_bytes()).hexdigest()
    assert (times["s1003"]["sha256"], times["s1003"]["submitted_at"]) == (digest, "2026-03-02T20:00:00+00:00")
    assert times["s1003"]["time_source"].startswith("the file's modification time")
    feedback = (term / "one-file" / "feedback" / "s1003.md").read_text()
    assert "- Submitted: 2026-03-02T20:00:00+00:00 (from the file's modification time" in feedback


def test_a_copied_downloads_folder_regraded_keeps_every_total(term):
    before, after = csv_rows(term / "graded" / "totals.csv"), csv_rows(term / "copied-class" / "totals.csv")
    assert [(r["id"], r["total"], r["late_days"]) for r in after if r["id"] != FAILS] == \
        [(r["id"], r["total"], r["late_days"]) for r in before if r["id"] != FAILS]
    said = (term / "copied-class.log").read_text()
    moved = {ln[len("note: "):].split(":")[0] for ln in said.splitlines() if ln.startswith("note: ")}
    assert moved == {"s1003", "s1004", "s1006", FAILS}  # Moodle and Colab names: their times are the files' times


def test_a_regrade_without_the_policy_dir_reuses_the_recorded_policy_and_says_so(term):
    _unchanged_but(term, "no-policy-dir", "s1002")
    late = {r["id"]: r for r in csv_rows(term / "no-policy-dir" / "totals.csv")}["s1002"]
    assert (late["late_days"], late["late_penalty"], late["total"]) == ("1", "1", "9"), late
    said = (term / "no-policy-dir.log").read_text()
    recorded = json.loads((term / "graded" / "policy.json").read_text())
    digest = hashlib.sha256(POLICY.encode()).hexdigest()
    assert (recorded["file"], recorded["sha256"], recorded["text"]) == (f"{EXERCISE}.toml", digest, POLICY)
    assert f"policy of {EXERCISE}: {EXERCISE}.toml sha256:{digest[:12]}, as recorded in" in said
    assert "the default policy" in said and "differs; it is not used: give --policy-dir" in said
    assert {r["policy"] for r in csv_rows(term / "graded" / "totals.csv")} == {f"{EXERCISE}.toml sha256:{digest[:12]}"}


def test_canvas_rows_without_an_id_are_listed_loudly_with_the_fix(term):
    said = (term / "canvas.log").read_text()
    assert "WARNING: 5 of 8 student(s) have no Canvas ID in the roster" in said
    assert "s1003 (Ana María López), s1004 (Wei Chen), s1005 (Kofi Mensah), s1006 (Lena Fischer), s1007 (Omar Haddad)" \
        in said
    assert "fix: fill the roster's canvas_id column" in said and "WARNING" not in (term / "moodle.log").read_text()


def test_ungraded_students_have_a_blank_total_with_the_reason(term):
    held = {r["id"]: r for r in csv_rows(term / "graded" / "totals.csv")}["s1008"]
    assert (held["auto"], held["total"], held["status"]) == ("", "", "not graded: see unmatched.csv"), held


def test_an_extension_shows_in_the_totals_and_the_feedback(term):
    kofi = {r["id"]: r for r in csv_rows(term / "graded" / "totals.csv")}["s1005"]
    assert kofi["extension"] == "2 days, until 2026-03-04T23:59:00+00:00" and kofi["late_days"] == "0"
    assert "- Extension: 2 days, until 2026-03-04T23:59:00+00:00" in (term / "graded" / "feedback" / "s1005.md").read_text()


@pytest.mark.parametrize("make, says", [
    (lambda base: base / "polcy", "--policy-dir {base}/polcy: no such folder"),
    (lambda base: _policy_dir(base, "05_ring_allreduse.toml"), "{base}/misnamed/05_ring_allreduse.toml: a policy file "
                                                               "is named <exercise>.toml and this name matches no exercise"),
])
def test_a_missing_or_misnamed_policy_is_refused_in_one_line_before_any_work(tmp_path, capsys, make, says):
    roster = make_class(tmp_path / "downloads", _notebook)
    folder = make(tmp_path)
    code = cli.main(["grade", str(tmp_path / "downloads"), "--out", str(tmp_path / "out"), "--roster", str(roster),
                     "--policy-dir", str(folder)])
    err = capsys.readouterr().err.strip()
    assert code == 2 and err.count("\n") == 0 and says.format(base=tmp_path) in err, err
    assert not (tmp_path / "out").exists()


def _policy_dir(base, name):
    (base / "misnamed").mkdir()
    (base / "misnamed" / name).write_text(POLICY)
    return base / "misnamed"


def test_the_class_is_as_the_downloads_say():
    assert FILES[MOODLE_FILE][0] == "s1003" and FILES[LATE_FILE][0] == "s1002"
    assert FILES[f"Copy of {EXERCISE} (omar.haddad@uni.example).ipynb"][0] == FAILS


def _held_back(log):
    """The count of files held back that a grading run's summary line printed."""
    import re

    counts = re.findall(r"^\d+ submissions graded, (\d+) file\(s\) of this run held back \(see unmatched\.csv\)",
                        log.read_text(), re.M)
    assert len(counts) == 1, log.read_text()
    return int(counts[0])


def test_the_summary_counts_the_files_held_back_as_unmatched_csv_lists_them(term):
    held = csv_rows(term / "graded" / "unmatched.csv")
    assert _held_back(term / "grade.log") == len(held) == 4, held
    # an --only regrade holds back none of its student's files; unmatched.csv keeps the class's rows
    assert [r for r in csv_rows(term / "regraded" / "unmatched.csv") if r["student"] == FAILS] == []
    assert _held_back(term / "regraded.log") == 0
    assert (term / "regraded" / "unmatched.csv").read_bytes() == (term / "graded" / "unmatched.csv").read_bytes()
