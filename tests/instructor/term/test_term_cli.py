"""The term's commands refuse bad input in one line, before any grading."""

import nbformat

from tfdist_instructor import cli
from tfdist_instructor.sample_class.downloads import ROSTER


def _run(argv, capsys):
    code = cli.main(argv)
    return code, capsys.readouterr().err.strip()


def test_term_options_without_a_roster_are_refused(tmp_path, capsys):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.ipynb").write_text("{}")
    code, err = _run(["grade", str(tmp_path / "in"), "--out", str(tmp_path / "out"), "--slurm", "--hand", "h.csv"],
                     capsys)
    assert (code, err) == (2, "tfdist-instructor grade: --hand, --slurm need(s) --roster")


def test_a_folder_where_nobody_is_in_the_roster_stops_before_grading(tmp_path, capsys):
    (tmp_path / "roster.csv").write_text(ROSTER)
    (tmp_path / "in").mkdir()
    nbformat.write(nbformat.v4.new_notebook(), tmp_path / "in" / "05_ring_allreduce.ipynb")
    code, err = _run(["grade", str(tmp_path / "in"), "--out", str(tmp_path / "out"), "--roster",
                      str(tmp_path / "roster.csv")], capsys)
    assert code == 2
    assert err.startswith(f"tfdist-instructor grade: no submission in {tmp_path / 'in'} matches the roster")
    assert not (tmp_path / "out" / "scores.csv").exists() and (tmp_path / "out" / "unmatched.csv").exists()


def test_a_gradebook_of_a_folder_graded_without_a_roster_is_refused(tmp_path, capsys):
    (tmp_path / "roster.csv").write_text(ROSTER)
    code, err = _run(["gradebook", str(tmp_path), "--roster", str(tmp_path / "roster.csv"), "--format", "moodle",
                      "--out", str(tmp_path / "m.csv")], capsys)
    assert (code, err) == (2, f"tfdist-instructor gradebook: no totals.csv in {tmp_path}: grade it with --roster first")


def _make(*args):
    """The tfdist-instructor command ``make -n`` would run for ``args``, as its words."""
    import subprocess

    from tfdist_instructor import REPO_ROOT

    done = subprocess.run(["make", "-n", "-C", str(REPO_ROOT), *args], capture_output=True, text=True, check=True)
    command = done.stdout.replace("\\\n", " ").splitlines()
    return next(ln for ln in command if "tfdist-instructor" in ln).replace('"', "").split()[1:]


def test_make_grade_passes_every_grading_option():
    words = _make("grade", "SUBMISSIONS=in", "GRADES=out", "ROSTER=r.csv", "POLICY_DIR=policy", "HAND=hand.csv",
                  "SLURM=1", "ONLY=s1004 s1007", "REPLAY_SEEDS=1", "TIMEOUT=300", "JOBS=2", "EXERCISE=05_ring_allreduce")
    assert words == ["grade", "in", "--out", "out", "--roster", "r.csv", "--policy-dir", "policy", "--hand", "hand.csv",
                     "--slurm", "--only", "s1004", "s1007", "--replay-seeds", "--timeout", "300", "--jobs", "2",
                     "--exercise", "05_ring_allreduce"]
    assert _make("grade", "SEED=42")[-2:] == ["--seed", "42"]


def test_make_gradebook_takes_several_reports_assignment_ids_and_zeros():
    words = _make("gradebook", "REPORTS=r01 r05", "FORMAT=canvas", "ROSTER=r.csv",
                  "CANVAS_ASSIGNMENT=05_ring_allreduce=4711 01_global_batch=12", "ZEROS=1")
    assert words == ["gradebook", "r01", "r05", "--roster", "r.csv", "--format", "canvas", "--out", "r01/canvas.csv",
                     "--canvas-assignment", "05_ring_allreduce=4711", "--canvas-assignment", "01_global_batch=12",
                     "--zeros-for-missing"]


def _one_submission(tmp_path):
    (tmp_path / "roster.csv").write_text(ROSTER)
    (tmp_path / "in").mkdir()
    nbformat.write(nbformat.v4.new_notebook(metadata={"otter": {"assignment_name": "05_ring_allreduce"}}),
                   tmp_path / "in" / "doejane_12345_67890_05_ring_allreduce.ipynb")
    return ["grade", str(tmp_path / "in"), "--out", str(tmp_path / "out"), "--roster", str(tmp_path / "roster.csv")]


def test_a_policy_mistake_stops_the_grading_before_any_submission_naming_the_file_and_key(tmp_path, capsys):
    (tmp_path / "policy").mkdir()
    (tmp_path / "policy" / "05_ring_allreduce.toml").write_text('late_limit_days = "5"\n')
    code, err = _run([*_one_submission(tmp_path), "--policy-dir", str(tmp_path / "policy"),
                      "--exercise", "05_ring_allreduce", "--trust-submissions"], capsys)
    assert code == 2 and err.startswith(f"tfdist-instructor grade: {tmp_path / 'policy' / '05_ring_allreduce.toml'}: "
                                        "late_limit_days must be a whole number")
    assert not (tmp_path / "out" / "scores.csv").exists() and not (tmp_path / "out" / "feedback").exists()


def test_grading_into_a_term_report_without_the_roster_is_refused_with_the_safe_command(tmp_path, capsys):
    argv = _one_submission(tmp_path)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "totals.csv").write_text("id,exercise,total\ns1001,05_ring_allreduce,9\n")
    (tmp_path / "out" / "scores.csv").write_text("student,score\ns1001,10\n")
    before = {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()}
    code, err = _run([*argv[:4], "--seed", "42", "--trust-submissions"], capsys)
    assert code == 2 and "was graded with --roster (it holds totals.csv)" in err
    assert err.endswith(f"tfdist-instructor grade {tmp_path / 'in'} --out {tmp_path / 'out'} --roster ROSTER.csv "
                        "--seed 42")
    assert {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()} == before


def test_grading_another_exercise_into_a_class_report_is_refused(tmp_path, capsys):
    argv = _one_submission(tmp_path)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "totals.csv").write_text("id,exercise,total\ns1001,01_global_batch,9\n")
    code, err = _run([*argv, "--exercise", "05_ring_allreduce", "--trust-submissions"], capsys)
    assert (code, err) == (2, f"tfdist-instructor grade: {tmp_path / 'out'} holds the totals of 01_global_batch, "
                              "not 05_ring_allreduce: give each exercise a report folder of its own")
