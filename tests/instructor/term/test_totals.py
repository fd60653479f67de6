"""Each exercise's total is stated once (its question files: cases + HAND_POINTS) and the notebook,
the exercises README and the rubric say the same; hand-graded points are read and checked."""

import re

import nbformat
import pytest

from tfdist_instructor import REPO_ROOT
from tfdist_instructor.grading import catalog
from tfdist_instructor.term import totals
from tfdist_instructor.term.roster import Roster
from tfdist_instructor.sample_class.downloads import ROSTER


def _readme_points():
    table = (REPO_ROOT / "exercises" / "README.md").read_text()
    row = re.compile(r"^\| \[(?P<ex>\d\d_\w+)\]\(.*\| (?P<points>[^|]+) \|$", re.M)
    return {m["ex"]: m["points"] for m in row.finditer(table)}


@pytest.mark.parametrize("exercise", catalog.exercises())
def test_the_notebook_the_readme_and_the_grader_state_the_same_total(exercise):
    auto, hand = sum(catalog.questions(exercise).values()), totals.hand_possible(exercise)
    nb = nbformat.read(REPO_ROOT / "exercises" / exercise / f"{exercise}.ipynb", as_version=4)
    intro = next(c.source for c in nb.cells if "Points:" in c.source)
    stated = float(re.search(r"Points: (\d+(?:\.\d+)?)", intro)[1])
    readme = _readme_points()[exercise]
    assert stated == auto + hand == totals.possible(exercise), (exercise, stated, auto, hand)
    assert float(readme.split()[0]) == stated, (exercise, readme)
    if hand:
        assert f"{auto:g} automatic, and {hand:g} for the written answer" in " ".join(intro.split())
        assert readme == f"{stated:g} ({auto:g} automatic + {hand:g} by hand)"
        rubric = next(q.rubric for q in catalog.load(exercise) if getattr(q.module, "HAND_POINTS", 0))
        assert rubric.startswith(f"Up to {hand:g} points, given by hand")
    else:
        assert "by hand" not in intro


def test_every_row_of_the_exercises_table_has_the_headers_cells():
    lines = (REPO_ROOT / "exercises" / "README.md").read_text().splitlines()
    start = lines.index("| exercise | what you practise | points |")
    table = [ln for ln in lines[start:start + 7] if ln.startswith("|")]
    cells = {ln.split("](")[0]: len(re.findall(r"(?<!\\)\|", ln.replace("`|`", ""))) for ln in table}
    assert len(table) == 7 and set(cells.values()) == {4}, cells


def test_exercise_3_is_worth_12_of_which_2_by_hand():
    assert (totals.possible("03_svhn_capstone"), totals.hand_possible("03_svhn_capstone")) == (12.0, 2.0)


def _hand(tmp_path, text):
    (tmp_path / "roster.csv").write_text(ROSTER)
    (tmp_path / "hand.csv").write_text(text)
    return totals.read_hand(tmp_path / "hand.csv", Roster.load(tmp_path / "roster.csv"), "03_svhn_capstone")


def test_hand_graded_points_are_read_for_their_exercise_only(tmp_path):
    points = _hand(tmp_path, "id,exercise,points\ns1001,03_svhn_capstone,1.5\ns1002,01_global_batch,3\n")
    assert points == {"s1001": 1.5}


@pytest.mark.parametrize("row, message", [
    ("s9999,03_svhn_capstone,1", "line 2: 's9999' is not in the roster"),
    ("s1001,03_svhn_capstone,3", "line 2: 3 hand-graded points; 03_svhn_capstone gives 0 to 2"),
    ("s1001,03_svhn_capstone,two", "line 2: points 'two' is not a number"),
])
def test_bad_hand_graded_points_are_refused_naming_the_line(tmp_path, row, message):
    with pytest.raises(ValueError, match=message):
        _hand(tmp_path, f"id,exercise,points\n{row}\n")


def test_a_regrade_of_some_students_replaces_their_totals_and_keeps_everyone_elses():
    old = [{"id": "s1", "total": "4"}, {"id": "s2", "total": "7"}, {"id": "s3", "total": "0"}]
    new = [{"id": "s1", "total": "0"}, {"id": "s2", "total": "9"}, {"id": "s3", "total": "0"}]
    assert totals.merged(old, new, {"s2"}) == [{"id": "s1", "total": "4"}, {"id": "s2", "total": "9"},
                                               {"id": "s3", "total": "0"}]

