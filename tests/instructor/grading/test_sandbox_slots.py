"""Sandbox slots: a uid of its own per sandbox, unique on the machine, so two grading runs at once
(one instructor's two terminals, or two instructors) never share a uid or its process limit.

The slow test grades exercise 5 (NumPy only, seconds a notebook) in two grading processes at
once: one a notebook that forks about 500 sleepers and waits, the other a roster class.
"""

import csv
import os
import random
import subprocess
import sys
import time

import nbformat
import psutil
import pytest

from tfdist_instructor.grading import sandbox
from tfdist_instructor.sample_class.downloads import EXERCISE, make_class
from tfdist_instructor.sample_class.planting import fork_bomb, solution

ROOT = os.geteuid() == 0
as_root = pytest.mark.skipif(not ROOT, reason="slots (uids of their own) are what a root grader uses")


def _holder(folder):
    """A process that holds a slot of ``folder`` and prints its uid, until its stdin closes."""
    code = ("import sys; from tfdist_instructor.grading import sandbox\n"
            f"with sandbox.slot({str(folder)!r}) as uid:\n"
            "    print(uid, flush=True); sys.stdin.read()\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    return proc, int(proc.stdout.readline())


@as_root
def test_slots_held_at_once_have_uids_of_their_own_and_a_slot_is_free_again_when_its_holder_ends(tmp_path):
    first, uid_a = _holder(tmp_path)
    try:
        with sandbox.slot(tmp_path) as uid_b, sandbox.slot(tmp_path) as uid_c:
            assert len({uid_a, uid_b, uid_c}) == 3 and all(u >= sandbox.FIRST_UID for u in (uid_a, uid_b, uid_c))
    finally:
        first.kill()  # killed, not ended cleanly: the kernel drops its lock all the same
        first.wait()
    with sandbox.slot(tmp_path) as uid:
        assert uid == uid_a


@as_root
def test_a_process_of_a_slot_nobody_holds_is_a_stray_and_one_of_a_held_slot_is_not(tmp_path):
    with sandbox.slot(tmp_path) as uid:
        running = subprocess.Popen(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "sleep", "60"])
        try:
            deadline = time.monotonic() + 10
            while not sandbox._running_as(uid):
                assert time.monotonic() < deadline
                time.sleep(0.05)
            assert [p.pid for p in sandbox.strays(tmp_path)] == []  # its slot is held: a sandbox still running
        finally:
            running.kill()
            running.wait()
    stray = subprocess.Popen(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "sleep", "60"])
    try:
        deadline = time.monotonic() + 10
        while stray.pid not in [p.pid for p in sandbox.strays(tmp_path)]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        stray.kill()
        stray.wait()


@as_root
def test_a_slot_whose_uid_still_runs_a_process_is_passed_over(tmp_path):
    with sandbox.slot(tmp_path) as free:
        pass
    stray = subprocess.Popen(["setpriv", f"--reuid={free}", f"--regid={free}", "--clear-groups", "sleep", "60"])
    try:
        deadline = time.monotonic() + 10
        while not any(p.info["uids"] and p.info["uids"].real == free for p in psutil.process_iter(["uids"])):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        with sandbox.slot(tmp_path) as uid:
            assert uid != free
    finally:
        stray.kill()
        stray.wait()


@as_root
def test_where_run_cannot_be_written_every_grader_takes_its_slots_from_the_same_fallback(tmp_path, monkeypatch):
    (tmp_path / "run").write_text("a file, not a folder: mkdir fails as on a read-only /run")
    monkeypatch.setattr(sandbox, "SLOTS_DIR", tmp_path / "run" / "tfdist-sandbox")
    monkeypatch.setattr(sandbox, "SLOTS_FALLBACK", tmp_path / "slots")
    with sandbox.slot() as first, sandbox.slot() as second:
        held = {p.name for p in (tmp_path / "slots").iterdir()}
        assert first != second and {f"slot-{u - sandbox.FIRST_UID}.lock" for u in (first, second)} <= held


def test_a_root_sandbox_is_never_built_without_a_slot(monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    with pytest.raises(ValueError, match="inside sandbox.slot"):
        sandbox.wrap(["true"], sandbox.Limits(), {})


def _grade(folder, out, timeout, *more):
    return subprocess.Popen([sys.executable, "-m", "tfdist_instructor.cli", "grade", str(folder), "--out", str(out),
                             "--timeout", str(timeout), *more], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)


def _csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


@pytest.mark.slow
@as_root
@pytest.mark.skipif(sandbox.unavailable() is not None, reason=f"no sandbox: {sandbox.unavailable()}")
def test_a_fork_bomb_graded_in_one_run_costs_a_class_graded_at_once_in_another_no_point(tmp_path):
    """Run A grades a notebook that forks about 500 sleepers (its uid's process limit) and waits;
    while they live, run B grades a roster class of correct notebooks. B's rows are those of the
    same class graded alone with the same seed, byte for byte but for when and how long."""
    token = f"{4000 + random.randrange(1000)}.{random.randrange(10**6)}"  # the sleepers' argv: `sleep <token>`
    bomb = tmp_path / "bomb"
    bomb.mkdir()
    nbformat.write(fork_bomb(EXERCISE, token, wait_s=600), bomb / "forker.ipynb")
    roster = make_class(tmp_path / "downloads", lambda student: solution(EXERCISE))
    class_args = ["--roster", str(roster), "--seed", "7", "--jobs", "2"]
    alone = _grade(tmp_path / "downloads", tmp_path / "alone", 120, *class_args)
    said_alone = alone.communicate(timeout=600)[0]
    assert alone.returncode == 0, said_alone

    def sleepers():
        return [p for p in psutil.process_iter(["cmdline", "uids"]) if (p.info["cmdline"] or [])[-1:] == [token]]

    run_a = _grade(bomb, tmp_path / "report-a", 400)
    try:
        deadline = time.monotonic() + 120
        while len(sleepers()) < 400:  # the fork bomb has spent its uid's processes
            assert run_a.poll() is None and time.monotonic() < deadline, run_a.stdout.read()
            time.sleep(0.2)
        run_b = _grade(tmp_path / "downloads", tmp_path / "beside", 120, *class_args)
        said_b = run_b.communicate(timeout=600)[0]
        alive = sleepers()
        assert len(alive) >= 400, "run A's sleepers ended before run B finished: the runs did not overlap"
    finally:
        run_a.kill()  # the grader gone, bubblewrap (--die-with-parent) ends its sandbox and every sleeper
        run_a.communicate()
    print(said_b)
    assert run_b.returncode == 0, said_b
    assert {p.info["uids"].real for p in alive} <= set(range(sandbox.FIRST_UID, sandbox.FIRST_UID + sandbox.SLOTS))
    scores = _csv(tmp_path / "beside" / "scores.csv")
    assert [(r["student"], r["score"], r["status"]) for r in scores] == \
        [(f"s100{i}", "10", "graded") for i in range(1, 8)], said_b
    timeless = [{k: v for k, v in r.items() if k not in ("seconds", "graded_at")} for r in scores]
    assert timeless == [{k: v for k, v in r.items() if k not in ("seconds", "graded_at")}
                        for r in _csv(tmp_path / "alone" / "scores.csv")]
    for name in ("totals.csv", "unmatched.csv"):
        ours = (tmp_path / "beside" / name).read_bytes()
        assert ours == (tmp_path / "alone" / name).read_bytes().replace(b"/alone", b"/beside"), name
    deadline = time.monotonic() + 30
    while sleepers():  # the fork bomb's sandbox ended with its run
        assert time.monotonic() < deadline, len(sleepers())
        time.sleep(0.2)
