"""A policy file per exercise: deadline, late penalty, extensions; lateness from the platform, said
which; bad files refused in one line."""

import datetime

import pytest

from tfdist_instructor.term.platforms import Claim
from tfdist_instructor.term.policy import Lateness, Policy

UTC = datetime.timezone.utc
POLICY = """\
deadline = 2026-03-02T23:59:00Z
late_penalty = 0.10
late_limit_days = 3
[extensions]
s1 = 2
s2 = 2026-03-10T12:00:00Z
"""


@pytest.fixture
def policy(tmp_path):
    (tmp_path / "05_ring_allreduce.toml").write_text(POLICY)
    return Policy.for_exercise("05_ring_allreduce", tmp_path)


def _at(day, hour=12):
    return Claim(path=None, platform="gradescope", said="", students=[], submitted_at=datetime.datetime(
        2026, 3, day, hour, tzinfo=UTC), time_source="Gradescope's export metadata (:created_at:)")


def test_started_days_late_count_from_each_students_own_deadline(policy):
    assert policy.days_late("s9", _at(2)) == (0, "Gradescope's export metadata (:created_at:)")
    assert policy.days_late("s9", _at(3))[0] == 1  # 12 h late: one started day
    assert policy.days_late("s9", _at(5))[0] == 3
    assert policy.days_late("s1", _at(4))[0] == 0  # two days' extension
    assert policy.days_late("s2", _at(10, 13))[0] == 1  # a deadline of their own


def test_canvas_late_marker_costs_one_day_and_is_named_as_the_source(policy):
    claim = Claim(path=None, platform="canvas", said="", students=[], late=True,
                  time_source="Canvas's LATE marker in the file name (no time in it)")
    assert policy.days_late("s9", claim) == (1, "Canvas's LATE marker in the file name (no time in it)")


def test_the_penalty_is_a_share_of_the_total_per_day_and_everything_past_the_limit(policy):
    assert [policy.penalty(d, 12) for d in (0, 1, 3, 4)] == [0.0, 1.2, 3.6, 12.0]


def test_an_exercise_without_a_policy_file_has_no_deadline(tmp_path):
    assert Policy.for_exercise("01_global_batch", tmp_path).days_late("s1", _at(30)) == \
        (0, "Gradescope's export metadata (:created_at:)")


@pytest.mark.parametrize("text, message", [
    ("deadline = 2026-03-02T23:59:00\n", "deadline must be a date-time with its zone"),
    ("late_penalty = 10\n", "late_penalty is a share of the total per day, between 0 and 1; got 10"),
    ("dedline = 2026-03-02T23:59:00Z\n", "unknown key.s. dedline"),
])
def test_a_bad_policy_file_is_refused_in_one_line(tmp_path, text, message):
    (tmp_path / "05_ring_allreduce.toml").write_text(text)
    with pytest.raises(ValueError, match=message):
        Policy.for_exercise("05_ring_allreduce", tmp_path)


@pytest.mark.parametrize("exercise", ["01_global_batch", "02_custom_loop", "03_svhn_capstone", "04_multi_worker",
                                      "05_ring_allreduce"])
def test_every_exercise_has_a_policy_file_that_reads(exercise):
    from tfdist_instructor.term.policy import POLICY_DIR

    assert (POLICY_DIR / f"{exercise}.toml").is_file()
    assert Policy.for_exercise(exercise) == Policy(exercise)  # shipped commented out: nothing is late


@pytest.mark.parametrize("text, key", [
    ('late_limit_days = "5"\n', "late_limit_days must be a whole number of days >= 0, unquoted .* got '5'"),
    ("late_limit_days = 2.5\n", "late_limit_days must be a whole number .* got 2.5"),
    ('late_penalty = "10%"\n', r"late_penalty must be a number, .*\(0.10 for 10%\); got '10%'"),
    ("late_penalty = true\n", "late_penalty must be a number"),
    ('[extensions]\ns1007 = "2026-03-09T23:59:00Z"\n',
     "extensions.s1007 must be days .* or a date-time with its zone, unquoted.*; got '2026-03-09T23:59:00Z'"),
    ("[extensions]\ns1003 = -2\n", "extensions.s1003 must be days"),
    ("[extensions]\ns1003 = 2026-03-09T23:59:00\n", "extensions.s1003 must be days"),
    ('deadline = "2026-03-02T23:59:00Z"\n', "deadline must be a date-time with its zone, unquoted"),
    ("extensions = 3\n", "extensions must be a table"),
])
def test_every_wrong_value_is_refused_when_the_file_is_read_naming_the_file_and_the_key(tmp_path, text, key):
    (tmp_path / "05_ring_allreduce.toml").write_text(text)
    with pytest.raises(ValueError, match=f"^{tmp_path / '05_ring_allreduce.toml'}: {key}"):
        Policy.for_exercise("05_ring_allreduce", tmp_path)


def _canvas(late):
    return Claim(path=None, platform="canvas", said="", students=[], late=late,
                 time_source="Canvas's LATE marker in the file name (no time in it)")


def test_a_late_canvas_file_of_a_student_with_an_extension_loses_nothing_and_says_why(policy):
    judged = policy.lateness("s1", _canvas(True))
    assert judged.days == 0 and policy.penalty(judged.days, 10) == 0
    assert judged.note.startswith("Canvas marked it LATE, but the extension (2 days) cannot be checked")
    assert "until 2026-03-10T12:00:00+00:00" in policy.lateness("s2", _canvas(True)).note


def test_a_late_canvas_file_says_the_late_limit_cannot_be_applied_to_it(policy, tmp_path):
    judged = policy.lateness("s9", _canvas(True))
    assert judged.days == 1 and "the late limit (3 days) cannot be applied" in judged.note
    assert policy.lateness("s9", _canvas(False)) == Lateness(0, _canvas(False).time_source, "")
    (tmp_path / "no_limit").mkdir()
    (tmp_path / "no_limit" / "05_ring_allreduce.toml").write_text("late_penalty = 0.1\n")
    assert Policy.for_exercise("05_ring_allreduce", tmp_path / "no_limit").lateness("s9", _canvas(True)).note == ""


def test_policies_read_on_python_3_10_through_tomli(tmp_path):
    """Python 3.10 has no tomllib: the instructor package reads TOML with tomli there (pip's vendored
    copy of the same tomli stands in for the installed one), and its pyproject declares it."""
    import subprocess
    import sys

    from tfdist_instructor import REPO_ROOT

    (tmp_path / "05_ring_allreduce.toml").write_text(POLICY)
    code = ("import sys; sys.modules['tomllib'] = None; import pip._vendor.tomli as t; sys.modules['tomli'] = t\n"
            "from tfdist_instructor.term.policy import Policy\n"
            f"p = Policy.for_exercise('05_ring_allreduce', {str(tmp_path)!r})\n"
            "import tfdist_instructor.toml as m; print(m._toml.__name__, p.late_limit_days, p.deadline.isoformat())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["pip._vendor.tomli", "3", "2026-03-02T23:59:00+00:00"], done.stderr
    declared = (REPO_ROOT / "instructor" / "pyproject.toml").read_text()
    assert "\"tomli>=1.1; python_version < '3.11'\"" in declared
