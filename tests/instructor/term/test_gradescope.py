"""The Gradescope autograder: a zip with setup.sh and run_autograder at its root, built from the
question files, whose run_autograder (run by conftest with /autograder moved to a temporary folder)
grades a solution for real and writes a results.json of Gradescope's format with full marks."""

import shutil
import zipfile

import pytest

from tfdist_instructor import REPO_ROOT
from tfdist_instructor.grading import catalog
from tfdist_instructor.term import gradescope

EXERCISE = "05_ring_allreduce"
# The keys of results.json and of each test, with their types, from Gradescope's specification
# (https://gradescope-autograders.readthedocs.io/en/latest/specs/).
TOP = {"score": (int, float), "execution_time": (int, float), "output": str, "output_format": str,
       "visibility": str, "stdout_visibility": str, "tests": list, "extra_data": dict}
TEST = {"score": (int, float), "max_score": (int, float), "status": str, "name": str, "number": str,
        "output": str, "output_format": str, "visibility": str, "tags": list, "extra_data": dict}
VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}


def check_results(answer):
    """Fail unless ``answer`` is a results.json Gradescope accepts."""
    assert set(answer) <= set(TOP), set(answer) - set(TOP)
    for key, value in answer.items():
        assert isinstance(value, TOP[key]), (key, value)
    assert answer["visibility"] in VISIBILITY and answer["stdout_visibility"] in VISIBILITY
    assert answer["output_format"] == "md"  # the feedback is Markdown
    for test in answer["tests"]:
        assert set(test) <= set(TEST) and {"score", "max_score", "name"} <= set(test), test
        assert all(isinstance(v, TEST[k]) for k, v in test.items()), test
        assert test["status"] in ("passed", "failed") and test["visibility"] in VISIBILITY
        assert test["output_format"] == "md"


def test_the_zip_has_setup_and_run_autograder_at_its_root_and_the_hidden_cases(gradescope_zip):
    with zipfile.ZipFile(gradescope_zip) as z:
        names = z.namelist()
        modes = {i.filename: i.external_attr >> 16 for i in z.infolist()}
    assert {"setup.sh", "run_autograder"} <= set(names)
    assert modes["run_autograder"] & 0o111 and modes["setup.sh"] & 0o111
    assert f"grading/questions/{EXERCISE}/q2.py" in names and f"exercises/{EXERCISE}/{EXERCISE}.ipynb" in names
    assert not any(n.startswith(("solutions/", "grading/masters/")) or "/questions/0" in n and EXERCISE not in n
                   for n in names)


def test_run_autograder_gives_a_solution_full_marks_in_a_valid_results_json(gradescope_solution):
    answer = gradescope_solution
    check_results(answer)
    possible = sum(catalog.questions(EXERCISE).values())
    assert answer["score"] == possible == sum(t["max_score"] for t in answer["tests"]), answer["output"][-1500:]
    assert [t["name"] for t in answer["tests"]] == list(catalog.questions(EXERCISE))
    assert all(t["status"] == "passed" for t in answer["tests"])


def test_an_unknown_exercise_is_refused_naming_the_exercises(tmp_path):
    with pytest.raises(ValueError, match="unknown exercise 'nope'; the exercises are: 01_global_batch"):
        gradescope.build("nope", tmp_path / "a.zip")


def test_setup_updates_apts_lists_before_installing(gradescope_zip):
    with zipfile.ZipFile(gradescope_zip) as z:
        setup = z.read("setup.sh").decode()
    assert setup.index("apt-get update") < setup.index("apt-get install")


def test_a_submission_graded_without_the_sandbox_says_so_first_and_loudly():
    from tfdist_instructor.grading import GradeResult

    result = GradeResult(student="submission", file="a.ipynb", exercise=EXERCISE, possible_by_question={"q1": 2.0})
    answer = gradescope.results(result, 3.0, unsandboxed="no user namespaces (kernel.unprivileged_userns_clone=0)")
    check_results(answer)
    assert answer["output"].startswith("**Warning: this submission was graded WITHOUT the sandbox (no user "
                                       "namespaces (kernel.unprivileged_userns_clone=0)).**")
    assert "WITHOUT the sandbox" not in gradescope.results(result, 3.0)["output"]


def test_a_submission_the_grader_failed_on_gets_no_score_and_a_failed_autograder_run(tmp_path, monkeypatch):
    from tfdist_instructor import grading

    def failed(path, options, **_):
        return grading.GradeResult(student="submission", file=path.name, exercise=EXERCISE, status="not graded",
                                   problems=["the notebook's kernel could not start: BlockingIOError: [Errno 11]"])

    monkeypatch.setattr(grading, "grade_submission", failed)
    (tmp_path / "submission").mkdir()
    shutil.copy2(REPO_ROOT / "solutions" / EXERCISE / f"{EXERCISE}.ipynb", tmp_path / "submission")
    with pytest.raises(SystemExit, match="^not graded: the notebook's kernel could not start"):
        gradescope.run(tmp_path, EXERCISE, 60)
    assert not (tmp_path / "results" / "results.json").exists()


def test_the_autograder_installs_the_tensorflow_keras_and_numpy_the_course_grades_with(gradescope_zip):
    from importlib import metadata

    with zipfile.ZipFile(gradescope_zip) as z:
        wanted = z.read("requirements.txt").decode().split()
    for name in ("tensorflow", "keras", "numpy"):
        assert f"{name}=={metadata.version(name)}" in wanted, wanted


def test_the_autograders_time_limit_is_the_graders_default(tmp_path):
    import argparse

    from tfdist_instructor.grading import DEFAULT_TIMEOUT_S

    parser = argparse.ArgumentParser()
    gradescope.add_cli(parser.add_subparsers())
    assert parser.parse_args(["gradescope", EXERCISE, "--out", "a.zip"]).timeout == DEFAULT_TIMEOUT_S
    assert gradescope.autograder_cli().parse_args(["--exercise", EXERCISE]).timeout == DEFAULT_TIMEOUT_S
    with zipfile.ZipFile(gradescope.build(EXERCISE, tmp_path / "autograder.zip")) as z:
        assert f"--timeout {DEFAULT_TIMEOUT_S}\n" in z.read("run_autograder").decode()
