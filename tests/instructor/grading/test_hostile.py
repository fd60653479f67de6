"""Hostile submissions: each exercise handed in untouched behind a first cell that attacks the grader.

One folder is graded once, sandboxed (about 2-3 minutes on two cores): the five hostile
notebooks, an honest solution whose feedback they try to overwrite (the victim), and a
solution whose last answer is a table of the inputs the public and old hidden tests used.
Every attack is proven on its own, from the outside: the score, the files on the host, a
listener nobody reached, no process left over, the victim's report intact.
"""

import random
import shutil
import socket
from pathlib import Path

import nbformat
import psutil
import pytest

from tfdist_instructor import REPO_ROOT, grading
from tfdist_instructor.grading import sandbox

FIXTURES = Path(__file__).resolve().parent / "fixtures"
EXERCISES = ["01_global_batch", "02_custom_loop", "03_svhn_capstone", "04_multi_worker", "05_ring_allreduce"]
HARD_CODED = """\
def replica_batch_sizes(batch, num_replicas):
    return {(64, 2): [32, 32], (4, 2): [2, 2], (9, 2): [5, 4], (3, 2): [2, 1], (1, 2): [1, 0], (63, 2): [32, 31],
            (5, 4): [2, 2, 1, 0], (6, 4): [2, 2, 2, 0], (1, 4): [1, 0, 0, 0], (13, 4): [4, 4, 4, 1]}[batch, num_replicas]
"""

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(sandbox.unavailable() is not None, reason=f"no sandbox: {sandbox.unavailable()}")]


def machine_address():
    """This machine's address on its network (not loopback), as a submission would guess it."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
        return probe.getsockname()[0]


def with_first_cell(exercise, source):
    nb = nbformat.read(grading.EXERCISES_DIR / exercise / f"{exercise}.ipynb", as_version=4)
    cell = nbformat.v4.new_code_cell(source)
    cell["id"] = "hostile"
    nb.cells.insert(1, cell)
    return nb


@pytest.fixture(scope="module")
def attack(tmp_path_factory):
    folder, out = tmp_path_factory.mktemp("hostile"), tmp_path_factory.mktemp("hostile-report")
    listener = socket.create_server(("0.0.0.0", 0))
    listener.setblocking(False)
    token = f"tfdist-hostile-{random.randrange(10**9)}"
    sleeper = str(400_000 + random.randrange(10**5))  # the daemon's argv: `sleep <sleeper>`
    cell = (FIXTURES / "hostile_cell.py").read_text()
    for name, value in {"REPO": str(REPO_ROOT), "OUT": str(out), "PORT": listener.getsockname()[1],
                        "HOST": machine_address(), "TOKEN_NUMBER": sleeper, "TOKEN": token}.items():
        cell = cell.replace(name, repr(value))
    for exercise in EXERCISES:
        nbformat.write(with_first_cell(exercise, cell), folder / f"hostile_{exercise}.ipynb")
    shutil.copy(grading.EXERCISES_DIR.parent / "solutions/01_global_batch/01_global_batch.ipynb", folder / "victim.ipynb")
    hard_coded = nbformat.read(folder / "victim.ipynb", as_version=4)
    next(c for c in hard_coded.cells if c.get("id") == "q4-answer").source = HARD_CODED
    nbformat.write(hard_coded, folder / "hard_coded.ipynb")
    results = {r.student: r for r in grading.grade_folder(folder, out, grading.GradeOptions(timeout_s=300, jobs=2))}
    yield results, out, listener, token, sleeper
    listener.close()


@pytest.mark.parametrize("exercise", EXERCISES)
def test_a_hostile_notebook_gains_nothing_and_its_reason_says_what_it_tried(attack, exercise):
    results, out, *_ = attack
    result = results[f"hostile_{exercise}"]
    assert (result.score, result.possible, result.status) == (0, 10, "graded"), result
    assert "cell 2 (`import builtins, errno, json, os, socket, sys, ...`) raised RuntimeError: SEEN" in result.reason
    assert "answer cells left as handed out" in result.reason


@pytest.mark.parametrize("exercise", EXERCISES)
def test_hostile_processes_hit_the_limits(attack, exercise):
    feedback = (attack[1] / "feedback" / f"hostile_{exercise}.md").read_text()
    assert '"fork_refused":true' in feedback and '"memory":"refused"' in feedback
    assert '"file":"EFBIG@256MB"' in feedback and '"disk":"ENOSPC@' in feedback


def test_no_secret_was_read_or_printed_into_feedback(attack):
    results, out, *_ = attack
    secret = (REPO_ROOT / "grading/questions/01_global_batch/q4.py").read_text().splitlines()[0]
    for path in (out / "feedback").glob("hostile_*.md"):
        text = path.read_text()
        assert '"read":["ENOENT","ENOENT","ENOENT","ENOENT","ENOENT","ENOENT"]' in text
        assert secret not in text and "BEGIN SOLUTION" not in text and "def expected(" not in text


def test_no_connection_reached_the_grading_machine(attack):
    listener = attack[2]
    with pytest.raises(BlockingIOError):
        listener.accept()
    for path in (attack[1] / "feedback").glob("hostile_*.md"):
        assert '"connected"' not in path.read_text()


def test_nothing_was_written_outside_the_sandbox(attack):
    results, out, _, token, _ = attack
    for folder in ("/root", "/tmp", "/var/tmp", str(Path.home())):
        assert not Path(folder, token).exists(), folder
    victim = (out / "feedback" / "victim.md").read_text()
    assert "pwned" not in victim and "Score: **10 / 10**" in victim
    assert "pwned" not in (out / "scores.csv").read_text()
    assert (results["victim"].score, results["victim"].reason) == (10, "all tests passed")


def test_no_process_outlives_grading(attack):
    sleeper = attack[4]
    left = [p for p in psutil.process_iter(["cmdline"]) if (p.info["cmdline"] or [])[-1:] == [sleeper]]
    assert left == []
    assert sandbox.strays() == []  # no process of an ended sandbox (another run's may be running beside this one)


def test_answers_hard_coded_for_known_inputs_earn_only_the_public_point(attack):
    result = attack[0]["hard_coded"]
    assert (result.score, result.questions["q4"]) == (9, (1.0, 2.0))
    assert result.reason == "failed: q4"
