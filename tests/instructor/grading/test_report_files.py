"""The report's files: readable by the group as any new file (scores.csv is written to a temporary
file first, which starts 0600), and no empty written.md (nor written/) for an exercise without
written answers."""

import os
import stat

from tfdist_instructor import grading
from tfdist_instructor.term import totals


def _result(student, written=None):
    return grading.GradeResult(student=student, file=f"{student}.ipynb", exercise="05_ring_allreduce",
                               possible_by_question={"q1": 2.0}, seed=1, graded_at="t1",
                               written=written or {})


def _mode(path):
    return stat.S_IMODE(path.stat().st_mode)


def test_scores_totals_and_history_get_the_mode_of_any_new_file(tmp_path):
    old = os.umask(0o022)
    try:
        grading.write_report([_result("amy")], tmp_path)
        grading.write_report([grading.GradeResult(student="amy", file="amy.ipynb", exercise="05_ring_allreduce",
                                                  possible_by_question={"q1": 2.0}, seed=1, graded_at="t2")],
                             tmp_path)
        totals.write_totals([{"id": "amy", "total": "2"}], tmp_path)
    finally:
        os.umask(old)
    modes = {p.name: oct(_mode(p)) for p in tmp_path.glob("*.csv")}
    assert modes == {"scores.csv": "0o644", "scores-history.csv": "0o644", "totals.csv": "0o644"}
    assert oct(_mode(tmp_path / "feedback" / "amy.md")) == "0o644"


def test_no_written_page_for_an_exercise_without_a_written_answer(tmp_path):
    grading.write_report([_result("amy"), _result("bob")], tmp_path)
    assert not (tmp_path / "written.md").exists() and not (tmp_path / "written").exists()


def test_the_written_page_holds_each_written_answer_with_its_rubric(tmp_path):
    grading.write_report([_result("amy", {"q3": ("Mirrored was slower: the all-reduce.", "Up to 2 points")}),
                          _result("bob")], tmp_path)
    page = (tmp_path / "written.md").read_text()
    assert "## amy: 05_ring_allreduce q3" in page and "> Mirrored was slower" in page and "bob" not in page
