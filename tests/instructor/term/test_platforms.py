"""Downloads named as Canvas, Moodle (flat and folders), Gradescope and Colab name them are matched
to the roster; an unmatched, an ambiguous or a duplicated file is listed and never graded."""

import csv

import nbformat
import pytest

from tfdist_instructor.term import intake, platforms
from tfdist_instructor.term.roster import Roster
from tfdist_instructor.sample_class.downloads import EXERCISE, FILES, MOODLE_TIME, make_class


def _blank(student):
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")])


@pytest.fixture
def downloads(tmp_path):
    roster = make_class(tmp_path / "downloads", _blank)
    return tmp_path / "downloads", Roster.load(roster)


def test_every_platforms_name_is_read_as_its_student(downloads):
    folder, roster = downloads
    claims = {str(c.path.relative_to(folder)): c for c in platforms.recognise(folder, roster)}
    for name, (student, how) in FILES.items():
        claim = claims[name]
        assert claim.platform == how.split(",")[0], (name, claim.platform)
        assert [s.id for s in claim.students] == ([student] if student else []), (name, claim.said)


def test_canvas_marks_the_late_file_and_says_where_the_judgement_comes_from(downloads):
    folder, roster = downloads
    claims = {c.path.name: c for c in platforms.recognise(folder, roster)}
    late = claims[f"smithbob_LATE_23456_67891_{EXERCISE}.ipynb"]
    on_time = claims[f"doejane_12345_67890_{EXERCISE}.ipynb"]
    assert (late.late, on_time.late) == (True, False)
    assert "LATE marker" in late.time_source and late.submitted_at is None


def test_gradescope_and_moodle_submissions_carry_their_times_and_sources(downloads):
    folder, roster = downloads
    claims = {c.students[0].id: c for c in platforms.recognise(folder, roster) if len(c.students) == 1}
    assert claims["s1005"].submitted_at.isoformat() == "2026-03-03T10:15:00+00:00"
    assert "Gradescope's export metadata" in claims["s1005"].time_source
    assert claims["s1003"].submitted_at == MOODLE_TIME and "modification time" in claims["s1003"].time_source


def test_unmatched_and_duplicated_files_are_listed_on_screen_and_in_a_file_and_not_graded(downloads, tmp_path, capsys):
    folder, roster = downloads
    taken = intake.take_in(folder, roster)
    assert sorted(taken.matched) == ["s1001", "s1002", "s1003", "s1004", "s1005", "s1006", "s1007"]
    path = intake.write_unmatched(taken, folder, tmp_path / "report")
    rows = {r["file"]: r["problem"] for r in csv.DictReader(open(path))}
    assert rows[f"{EXERCISE} (1).ipynb"].startswith("unmatched: file name")
    assert rows[f"novaksara_34567_67895_{EXERCISE}.ipynb"].startswith("duplicated: s1008 has 2 submissions")
    assert rows[f"{EXERCISE} (2).ipynb"].startswith("duplicated: s1008")
    shown = capsys.readouterr().out
    assert f"not graded: {EXERCISE} (1).ipynb: unmatched" in shown and shown.count("duplicated: s1008") == 2


def test_a_name_two_roster_students_share_is_ambiguous_not_guessed(tmp_path):
    (tmp_path / "roster.csv").write_text("id,name,email\na1,Li Wang,a@x.example\na2,Li Wang,b@x.example\n")
    (tmp_path / "in").mkdir()
    nbformat.write(_blank(None), tmp_path / "in" / "Li Wang_7_assignsubmission_file_x.ipynb")
    taken = intake.take_in(tmp_path / "in", Roster.load(tmp_path / "roster.csv"))
    assert taken.matched == {} and taken.unmatched[0][1].startswith("ambiguous: moodle participant 7 (Li Wang)")


@pytest.mark.parametrize("text, message", [
    ("id,name\ns1,A\n", "the roster needs the columns id, name, email; missing: email"),
    ("id,name,email\ns1,A,a@x\ns1,B,b@x\n", "line 3: a repeated id 's1'"),
])
def test_a_bad_roster_is_refused_in_one_line_naming_the_problem(tmp_path, text, message):
    (tmp_path / "roster.csv").write_text(text)
    with pytest.raises(ValueError, match=message):
        Roster.load(tmp_path / "roster.csv")


def test_a_notebook_and_a_pdf_from_one_student_grade_the_notebook_and_list_the_pdf(downloads, tmp_path):
    folder, roster = downloads  # the class's downloads hold s1001's notebook and a PDF of it
    taken = intake.take_in(folder, roster)
    assert taken.matched["s1001"].path.name == f"doejane_12345_67890_{EXERCISE}.ipynb"
    problems = {c.path.name: why for c, why in taken.unmatched}
    assert problems[f"doejane_12345_67899_{EXERCISE}.pdf"] == (
        f"extra: s1001 also sent doejane_12345_67899_{EXERCISE}.pdf, not a notebook; their notebook "
        f"doejane_12345_67890_{EXERCISE}.ipynb is graded")
    assert [why.split(":")[0] for c, why in taken.unmatched if c.students and c.students[0].id == "s1008"] == \
        ["duplicated", "duplicated"]  # two notebooks stay a duplicate: none graded


@pytest.mark.parametrize("name, late", [("anon_Xq7Fp_67890_05_ring_allreduce.ipynb", False),
                                        ("LATE_anon_Xq7Fp_67890_05_ring_allreduce.ipynb", True)])
def test_canvas_anonymous_downloads_keep_their_id_and_late_mark(tmp_path, name, late):
    """Canvas's get_filename writes [users_name, "LATE", "anon_<anonymous_id>"] without the name when
    the assignment anonymizes students (lib/content_zipper.rb)."""
    (tmp_path / "roster.csv").write_text("id,name,email,canvas_id\ns1,Jane Doe,j@x.example,anon_Xq7Fp\n")
    (tmp_path / "in").mkdir()
    nbformat.write(_blank(None), tmp_path / "in" / name)
    [claim] = platforms.recognise(tmp_path / "in", Roster.load(tmp_path / "roster.csv"))
    assert (claim.platform, claim.late, claim.said) == ("canvas", late, "canvas anonymous submission anon_Xq7Fp")
    assert [s.id for s in claim.students] == ["s1"]


@pytest.mark.parametrize("text", [
    "ID,Name,Email,Canvas_ID\ns1,Jane Doe,jane@x.example,12345\n",
    "id; name; email; canvas_id\ns1; Jane Doe; jane@x.example; 12345\n",
    "id, name, email, Canvas ID\ns1, Jane Doe, jane@x.example, 12345\n",
])
def test_a_roster_is_read_whatever_the_case_spaces_or_separator_of_its_header(tmp_path, text):
    (tmp_path / "roster.csv").write_text(text)
    [jane] = Roster.load(tmp_path / "roster.csv").students
    assert (jane.id, jane.name, jane.email, jane.on("canvas")) == ("s1", "Jane Doe", "jane@x.example", "12345")


def test_a_roster_without_a_column_shows_the_header_it_read(tmp_path):
    (tmp_path / "roster.csv").write_text("Student ID,Full Name,E-mail\ns1,Jane Doe,jane@x.example\n")
    with pytest.raises(ValueError, match="missing: id, name, email; the header read was 'Student ID', "
                                         "'Full Name', 'E-mail' \\(separated by ','\\)"):
        Roster.load(tmp_path / "roster.csv")
