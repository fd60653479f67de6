"""Points only for the student's own work: an answer that delegates to the course helper the
question asks them to write scores 0 for that question, with a message saying why.

The quick tests read notebooks without running them; the slow ones grade planted delegations
for real, sandboxed (exercises 1, 4 and 5 in one folder, about two minutes on two cores).
"""

import re
import sys
import threading

import nbformat
import numpy as np
import pytest

from tfdist_instructor import grading
from tfdist_instructor.grading import catalog, notebook, ownwork, sandbox, structure, verdict
from tfdist_instructor.sample_class.mistakes import LINK, SPLIT_BY_HELPER
from tfdist_instructor.sample_class.planting import planted, solution

RULED = {("01_global_batch", "q4"), ("02_custom_loop", "q4"), ("04_multi_worker", "q1"), ("04_multi_worker", "q2"),
         ("05_ring_allreduce", "q3")}
# Reached without any import statement: only the call-watch in the kernel can see it.
SPLIT_HIDDEN = """\
def replica_batch_sizes(batch, num_replicas):
    module = __import__("tfdist_edu." + "batching", fromlist=["_"])
    return getattr(module, "split_" + "batch")(batch, num_replicas)
"""
TF_CONFIG = """\
from tfdist_edu import tfconfig


def make_tf_config(worker_addresses, index):
    return tfconfig.tf_config({"worker": list(worker_addresses)}, "worker", index)
"""
CHIEF = """\
%%writefile chief.py
import os

from tfdist_edu.tfconfig import ClusterSpec


def is_chief(tf_config):
    return ClusterSpec(tf_config["cluster"]).is_chief(tf_config["task"]["type"], tf_config["task"]["index"])


def save_dir(base_dir, tf_config):
    if is_chief(tf_config):
        return base_dir
    task = tf_config["task"]
    return os.path.join(base_dir, f"{task['type']}_{task['index']}_temp")
"""


def with_answer(exercise, cell_id, source):
    nb = solution(exercise)
    next(c for c in nb.cells if c.get("id") == cell_id).source = source
    return nb


def read(nb, exercise, question):
    q = next(q for q in catalog.load(exercise) if q.name == question)
    owners = structure.answer_questions(notebook.handed_out(exercise).cells)
    return ownwork.read(nb.cells, owners, (q.name, q.helpers))


def test_the_ruled_questions_name_their_helpers_and_every_notebook_says_what_may_be_used():
    assert {(e, q.name) for e in grading.exercises() for q in catalog.load(e) if q.helpers} == RULED
    for exercise in grading.exercises():
        intro = next(c.source for c in notebook.handed_out(exercise).cells if c.get("id") == "intro")
        assert "**What you may use.**" in intro, exercise
        for question in catalog.load(exercise):
            for module, names in question.helpers.items():
                assert module.split(".")[1] in intro and all(n in intro for n in names), (exercise, names)


def test_the_solutions_use_no_helper():
    for exercise, question in RULED:
        assert read(solution(exercise), exercise, question) == set(), (exercise, question)


def test_imports_of_a_helper_in_the_answer_cell_are_read_in_every_form():
    forms = {SPLIT_BY_HELPER: {"tfdist_edu.batching.split_batch"},
             "import tfdist_edu.batching as b\ndef replica_batch_sizes(x, n):\n    return b.BatchPlan(n, x)":
                 {"tfdist_edu.batching.BatchPlan"},
             "import tfdist_edu.batching\nreplica_batch_sizes = tfdist_edu.batching.split_batch":
                 {"tfdist_edu.batching.split_batch"},
             "def replica_batch_sizes(x, n):\n    split_batch = [x]\n    return split_batch * n": set()}
    for source, expected in forms.items():
        assert read(with_answer("01_global_batch", "q4-answer", source), "01_global_batch", "q4") == expected, source
    assert read(with_answer("04_multi_worker", "q2-answer", CHIEF), "04_multi_worker", "q2") == \
        {"tfdist_edu.tfconfig.ClusterSpec"}


class _Finalised:
    """Garbage with a finaliser: collecting it mid-parse lets another thread run."""

    def __init__(self):
        self.me = self

    def __del__(self):
        sum(range(50))


def test_two_grading_threads_read_answer_cells_at_once_without_a_parser_error():
    # grade --jobs 2 reads notebooks in two threads; on CPython 3.11 an unguarded ast.parse
    # raised "AST constructor recursion depth mismatch" here (failed 2 runs of 2 without the lock).
    source = "\n".join(f"def f{i}(x):\n    return [(a, b) for a in range(x) for b in ({{'k': [1, (2, 3)]}} "
                       f"if a else [])]" for i in range(100))
    errors = []

    def read_many():
        for _ in range(150):
            for _ in range(100):
                _Finalised()
            try:
                ownwork._parse(source)
            except Exception as exc:  # noqa: BLE001 - any error is the failure
                errors.append(repr(exc))

    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=read_many) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(switch)
    assert errors == []


def test_a_delegated_question_fails_every_case_and_says_why():
    question = catalog.load("05_ring_allreduce")[2]
    inputs = question.inputs(np.random.default_rng(0))
    results = verdict.judge(question, inputs, None, {"tfdist_edu.cost_model.Link"})
    assert verdict.score(results) == 0 and all(not r["passed"] for r in results)
    assert all(r["diagnosis"].startswith("answered with tfdist_edu.cost_model.Link: a course helper") for r in results)
    assert "q3 scores 0: your answer uses tfdist_edu.cost_model.Link, the course helper" in \
        ownwork.message("q3", {"tfdist_edu.cost_model.Link"})


# --------------------------------------------------------------------------------------------
# Graded for real

PLANTED = {  # name: (notebook, score, questions that score 0, helpers named)
    "split_batch imported": (lambda: with_answer("01_global_batch", "q4-answer", SPLIT_BY_HELPER), 8, ["q4"],
                             ["tfdist_edu.batching.split_batch"]),
    "split_batch reached without an import": (lambda: with_answer("01_global_batch", "q4-answer", SPLIT_HIDDEN), 8,
                                              ["q4"], ["tfdist_edu.batching.split_batch"]),
    "Link.all_reduce_s": (lambda: with_answer("05_ring_allreduce", "q3-answer", LINK), 7, ["q3"],
                          ["tfdist_edu.cost_model.Link"]),
    "tfconfig for TF_CONFIG and the chief": (lambda: _both_tfconfig(), 4, ["q1", "q2"],
                                             ["tfdist_edu.tfconfig.tf_config", "tfdist_edu.tfconfig.ClusterSpec"]),
}


def _both_tfconfig():
    nb = with_answer("04_multi_worker", "q2-answer", CHIEF)
    next(c for c in nb.cells if c.get("id") == "q1-answer").source = TF_CONFIG
    return nb


needs_sandbox = pytest.mark.skipif(sandbox.unavailable() is not None, reason=f"no sandbox: {sandbox.unavailable()}")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder, out = tmp_path_factory.mktemp("own-work"), tmp_path_factory.mktemp("own-work-report")
    names = {}
    for i, (name, (build, *_)) in enumerate(PLANTED.items()):
        nbformat.write(build(), folder / f"delegated_{i}.ipynb")
        names[f"delegated_{i}"] = name
    results = grading.grade_folder(folder, out, grading.GradeOptions(timeout_s=600, jobs=2))
    return {names[r.student]: r for r in results}, out


@pytest.mark.slow
@needs_sandbox
@pytest.mark.parametrize("name", list(PLANTED))
def test_a_delegated_answer_scores_zero_for_its_question_with_the_reason(graded, name):
    results, out = graded
    _, score, zeroed, helpers = PLANTED[name]
    result = results[name]
    assert (result.status, result.score) == ("graded", score), result.reason
    assert [q for q, (s, p) in result.questions.items() if s == 0] == zeroed
    feedback = (out / "feedback" / f"{result.student}.md").read_text()
    for question in zeroed:
        line = next(p for p in result.problems if p.startswith(f"{question} scores 0: "))
        assert line in feedback and line in result.reason and any(h in line for h in helpers), line
    assert re.search(r"answered with tfdist_edu\.[\w., ]+: a course helper, not your own work", feedback)
