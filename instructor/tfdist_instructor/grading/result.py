"""The grade of one submitted file; score, possible, percent and reason derive from its tests."""

import dataclasses

from tfdist_instructor.grading.verdict import score

NOT_GRADED = "not graded"  # the grader's side failed, twice: no grade at all, never a 0


@dataclasses.dataclass
class GradeResult:
    """``status`` is "graded" (the probes ran), "rejected" (not a gradable notebook), "timed
    out" (killed at the time limit), "failed" (the run broke down, e.g. a dead kernel) or "not
    graded" (the grader's side failed before any of the student's code ran, on two tries: the
    machine, the sandbox; no score at all, see ``grade.grader_failure``).
    ``problems`` lists what was found, ``tests`` every case's result (``question``, ``hidden``,
    ``passed``, ``points``, ``message``, ``hint``), ``possible_by_question`` the points of each
    question, and ``written`` maps a question to ``(answer, rubric)`` for the instructor.
    """

    student: str
    file: str
    exercise: str = ""
    status: str = "graded"
    problems: list = dataclasses.field(default_factory=list)
    tests: list = dataclasses.field(default_factory=list)
    possible_by_question: dict = dataclasses.field(default_factory=dict)
    written: dict = dataclasses.field(default_factory=dict)
    seconds: float = 0.0
    seed: int | None = None  # the seed its inputs were drawn from: grading again with it replays them
    phases: dict = dataclasses.field(default_factory=dict)  # where its time went (see phases.py)
    graded_at: str = ""  # when it was graded (UTC, ISO 8601): tells a regrade from the row it replaces
    retried: str = ""  # why the first run was the grader's failure, when a second run graded it

    @property
    def graded(self):
        """False for a "not graded" result: it has no score, and no 0 is written for it."""
        return self.status != NOT_GRADED

    @property
    def questions(self):
        """``{question: (score, possible)}``."""
        return {q: (score(t for t in self.tests if t["question"] == q), p)
                for q, p in self.possible_by_question.items()}

    @property
    def score(self):
        return score(self.tests)

    @property
    def possible(self):
        return float(sum(self.possible_by_question.values()))

    @property
    def percent(self):
        return 100.0 * self.score / self.possible if self.possible else 0.0

    @property
    def diagnoses(self):
        """``"q1: <what the failed check measured and the likely mistake>"``, one per distinct diagnosis."""
        found = [f"{t['question']}: {t['diagnosis']}" for t in self.tests if not t["passed"] and t.get("diagnosis")]
        return list(dict.fromkeys(found))

    @property
    def reason(self):
        """One line for the CSV: the first problems found, or which questions failed."""
        if self.problems:
            return " | ".join(self.problems[:3])
        if not self.graded:
            return "not graded"
        failed = [q for q, (s, p) in self.questions.items() if s < p]
        return "failed: " + ", ".join(failed) if failed else "all tests passed"
