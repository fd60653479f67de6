"""What the throughput benchmark rests on: the class it builds, the phases it reports, and the
cells the grader may skip to save time (only the untouched otter set-up cell).

The benchmark itself (benchmarks/grading_throughput.py) is run by hand; these tests run no notebook.
"""

import collections

import nbformat
import pytest

from tfdist_instructor import grading
from tfdist_instructor.grading import notebook, phases, structure
from tfdist_instructor.sample_class.class_mix import BROKEN, EXERCISES, mix, submission


@pytest.mark.parametrize("exercise", EXERCISES)
def test_a_class_of_150_is_mostly_solutions_with_every_mistake_broken_and_hostile_kind(exercise, tmp_path):
    kinds = mix(exercise)
    counts = collections.Counter(k.split(":")[0] for k in kinds)
    assert len(kinds) == 150 and counts["solution"] >= 90 and counts["hostile"] == 2
    assert {k[8:] for k in kinds if k.startswith("broken: ")} == set(BROKEN)
    for kind in set(kinds):
        suffix, text = submission(exercise, kind, tmp_path)
        assert suffix in (".ipynb", ".py") and (text or kind == "broken: empty file"), kind


def test_the_ring_class_holds_every_planted_mistake_and_a_delegation():
    kinds = set(mix("05_ring_allreduce"))
    assert {k for k in kinds if k.startswith("mistake: ")} == {
        "mistake: chunk boundary off by one", "mistake: N steps per phase instead of N-1",
        "mistake: the mean where the sum is asked", "mistake: the 2(N-1)/N factor dropped",
        "mistake: the latency term forgotten"}
    assert "delegation: Link.all_reduce_s" in kinds


def test_phases_split_a_run_and_what_is_left_is_other():
    clock = {"started": 100.5, "kernel_ready": 102.0, "tensorflow_import_s": "3.0",
             "cells": [{"probe": False, "start": 102.0, "end": 107.0}, {"probe": True, "start": 107.0, "end": 108.0},
                       {"probe": False, "start": 108.0}]}
    got = phases.phases(clock, spawned=100.0, returned=109.0, verdict_s=0.5, total_s=10.0)
    assert got == {"sandbox": 0.5, "kernel": 1.5, "tensorflow": 3.0, "student": 2.0, "checks": 1.5, "other": 1.5}
    assert phases.phases({"cells": []}, 0, 1, 0, 1) == {}


def test_the_grader_skips_the_untouched_otter_cell_but_runs_an_edited_one():
    for exercise in grading.exercises():
        nb = nbformat.read(grading.EXERCISES_DIR / exercise / f"{exercise}.ipynb", as_version=4)
        skipped = [c.get("id") for c in nb.cells if c.cell_type == "code"]
        kept = {c.get("id") for c in notebook.cleaned(nb).cells}
        assert [i for i in skipped if i not in kept and not i.startswith("check-")] == ["checks"], exercise
    edited = "import otter\ngrader = otter.Notebook(tests_dir='tests')\nMY_CONSTANT = 3"
    assert not structure.OTTER_CELL.match(edited)
    assert structure.OTTER_CELL.match("# set up\nimport otter\n\ngrader = otter.Notebook(tests_dir=\"tests\")\n")
