"""A failure of the grader is never a grade: a run that broke before any of the student's code ran
(the sandbox, the runner or the kernel could not start) is run again once, and otherwise the
submission is "not graded", with the reason and no score, never a 0.

The planted failure is real: the sandbox's process limit is set to 1, so the runner cannot start
the notebook's kernel (BlockingIOError, EAGAIN on fork), as when another run used up the uid's
processes. Exercise 5 is NumPy only: seconds a notebook.
"""

import csv
import dataclasses
import json
import shutil

import nbformat
import pytest

from tfdist_instructor import cli, grading
from tfdist_instructor.grading import grade, launch, sandbox
from tfdist_instructor.grading.sandbox import Limits
from tfdist_instructor.sample_class.planting import solution

EXERCISE = "05_ring_allreduce"
STARVED = Limits(processes=1)  # the kernel cannot be forked: EAGAIN
sandboxed = pytest.mark.skipif(sandbox.unavailable() is not None, reason=f"no sandbox: {sandbox.unavailable()}")


def outcome(report=None, log=(), killed=False, returncode=0):
    return launch.Outcome(json.dumps(report).encode() if report is not None else b"", list(log), killed, returncode)


@pytest.mark.parametrize("run, failure", [
    (outcome({"error": "BlockingIOError: [Errno 11] Resource temporarily unavailable", "clock": {"cells": []}}),
     "the notebook's kernel could not start: BlockingIOError: [Errno 11] Resource temporarily unavailable"),
    (outcome({"error": "RuntimeError: Kernel didn't respond in 60 seconds", "clock": {}}),
     "the notebook's kernel could not start: RuntimeError: Kernel didn't respond in 60 seconds"),
    (outcome(log=["bwrap: Creating new namespace failed: Resource temporarily unavailable"], returncode=1),
     "the sandbox ended before the notebook started (exit 1): bwrap: Creating new namespace failed"),
    (outcome({"error": "DeadKernelError: Kernel died", "clock": {"cells": [{"probe": False, "start": 1}]}}), None),
    (outcome(log=["[grader] running cell 3"], returncode=-9), None),
    (launch.Outcome(b"", ["noise"] * 40, False, -9, True), None),  # a cell started, then 40 lines pushed it out
    (outcome({"error": "DeadKernelError", "clock": {"cells": []}}, killed=True), None),
    (outcome({"clock": {"cells": []}, "cells": [], "probes": {}}), None),
])
def test_only_a_run_that_broke_before_the_students_code_started_is_the_graders_failure(run, failure):
    found = grade.grader_failure(run)
    assert found == failure if failure is None else found.startswith(failure), found


@sandboxed
def test_a_kernel_that_cannot_start_twice_is_not_graded_with_the_reason_never_a_zero(tmp_path, monkeypatch):
    monkeypatch.setattr(grade, "RETRY_WAIT_S", 0)
    (tmp_path / "in").mkdir()
    nbformat.write(solution(EXERCISE), tmp_path / "in" / "amy.ipynb")
    result, = grading.grade_folder(tmp_path / "in", tmp_path / "out", grading.GradeOptions(timeout_s=60, limits=STARVED))
    assert result.status == "not graded" and not result.graded
    assert result.reason.startswith("the notebook's kernel could not start: BlockingIOError: [Errno 11]")
    assert "tried 2 times; a failure of the grader, not of the notebook" in result.reason
    with open(tmp_path / "out" / "scores.csv", newline="") as f:
        row, = csv.DictReader(f)
    assert (row["status"], row["score"], row["percent"], row["q1"]) == ("not graded", "", "", ""), row
    feedback = (tmp_path / "out" / "feedback" / "amy.md").read_text()
    assert "**not graded** (the grader failed, not your notebook" in feedback and "0 / 10" not in feedback


@sandboxed
def test_a_run_broken_once_by_the_machine_is_graded_on_its_second_run(tmp_path, monkeypatch):
    real, runs = launch.run, []

    def first_starved(job, env, options):
        runs.append(options)
        return real(job, env, dataclasses.replace(options, limits=STARVED) if len(runs) == 1 else options)

    monkeypatch.setattr(launch, "run", first_starved)
    monkeypatch.setattr(grade, "RETRY_WAIT_S", 0)
    result = grading.grade_submission(grading.EXERCISES_DIR.parent / "solutions" / EXERCISE / f"{EXERCISE}.ipynb",
                                      grading.GradeOptions(timeout_s=120, seed=7), student="amy")
    assert (result.status, result.score, result.reason, len(runs)) == ("graded", 10, "all tests passed", 2)
    assert result.retried.startswith("the notebook's kernel could not start: BlockingIOError")


def test_no_free_sandbox_slot_is_the_graders_failure_too(tmp_path, monkeypatch, capsys):
    def no_slot(job, env, options):
        raise sandbox.NoSlot("all 1000 sandbox slots of this machine are taken (/run/tfdist-sandbox)")

    monkeypatch.setattr(launch, "run", no_slot)
    monkeypatch.setattr(grade, "RETRY_WAIT_S", 0)
    monkeypatch.setattr(sandbox, "unavailable", lambda: None)
    (tmp_path / "in").mkdir()
    shutil.copy(grading.EXERCISES_DIR.parent / "solutions" / EXERCISE / f"{EXERCISE}.ipynb", tmp_path / "in" / "ben.ipynb")
    code = cli.main(["grade", str(tmp_path / "in"), "--out", str(tmp_path / "out"), "--timeout", "30"])
    said = capsys.readouterr().out
    assert code == 3  # a run that left a submission not graded says so in its exit code too
    assert "0 submissions graded" in said and "1 submission(s) NOT GRADED: the grader failed, not the notebook" in said
    assert "  ben: no sandbox could be had: all 1000 sandbox slots of this machine are taken" in said
    assert f"grade them again: tfdist-instructor grade {tmp_path / 'in'} --out {tmp_path / 'out'} --replay-seeds" in said


def test_the_kernels_log_leaves_out_tensorflows_no_driver_cuinit_line_only():
    import io
    from collections import deque

    captured = (
        "[grader] running the notebook\n"
        "E0000 00:00:1764134702.123456    4242 cuda_platform.cc:52] failed call to cuInit: INTERNAL: CUDA error: "
        "Failed call to cuInit: UNKNOWN ERROR (303)\n"
        "E0000 00:00:1764134702.223456    4242 cuda_platform.cc:52] failed call to cuInit: INTERNAL: CUDA error: "
        "Failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected (100)\n"
        "W0000 00:00:1764134702.323456    4242 cpu_feature_guard.cc:210] This TensorFlow binary is optimized\n"
        "[grader] running cell 3\n"
        "E0000 00:00:1795604735.703690   23710 ring_alg.cc:291] Aborting RingReduce with UNAVAILABLE\n")
    log, started = deque(maxlen=40), []
    launch._read_lines(io.BytesIO(captured.encode()), log, started)
    kept = [line for line in captured.splitlines() if "(303)" not in line]
    assert list(log) == kept and len(kept) == 5 and started == [True]
    reason = grade.grader_failure(outcome(log=list(log)[:3], returncode=1))
    assert "(303)" not in reason and "no CUDA-capable device" in reason
