"""A grading run's options, as one frozen object (as otter-grader's ``AutograderConfig`` holds its own).

``grade``'s entry point (``grading/cli.run``) builds one :class:`GradeOptions` from the command
line and hands that same object down: folder -> submission -> launch, and to the term's class
grading and its Slurm tasks. A bad value is refused when the object is built, before any work.
What a run grades and where it writes (the submissions and the report folder) are not options:
they are the arguments beside it.
"""

import dataclasses
import math
import numbers

from tfdist_instructor.grading.sandbox import Limits

DEFAULT_TIMEOUT_S = 600
GRACE_S = 20  # beyond the notebook's deadline, for starting and stopping the run


@dataclasses.dataclass(frozen=True)
class GradeOptions:
    """How one run grades every submission; frozen, checked when built."""

    timeout_s: float = DEFAULT_TIMEOUT_S  # seconds per submission (--timeout)
    jobs: int = 1  # submissions graded at once (--jobs)
    exercise: str | None = None  # grade every file as this exercise; None: the one each notebook names (--exercise)
    seed: int | None = None  # one seed for every submission's inputs; None: a new seed each (--seed)
    replay_seeds: bool = False  # each student's seed as the report's scores.csv recorded it (--replay-seeds)
    sandboxed: bool = True  # run notebooks in bubblewrap; False only for trusted code (--trust-submissions)
    only: tuple | None = None  # a term's students to grade, by roster id; None: all (--only, with --roster)
    profile: bool = False  # also time each kernel's TensorFlow import (result.phases; the benchmark)
    limits: Limits = Limits()  # the sandbox's per-submission memory, process, file and CPU limits

    def __post_init__(self):
        _require(_number(self.timeout_s) and self.timeout_s > 0, "timeout_s (--timeout)", "a number of seconds > 0",
                 self.timeout_s)
        _require(_whole(self.jobs) and self.jobs >= 1, "jobs (--jobs)", "a whole number >= 1", self.jobs)
        _require(self.exercise is None or (isinstance(self.exercise, str) and self.exercise.strip()),
                 "exercise (--exercise)", "an exercise's name", self.exercise)
        _require(self.seed is None or (_whole(self.seed) and self.seed >= 0), "seed (--seed)", "a whole number >= 0",
                 self.seed)
        _require(not (self.replay_seeds and self.seed is not None), "seed (--seed)",
                 "left out with replay_seeds (--replay-seeds): give one of them", self.seed)
        _require(self.only is None or (not isinstance(self.only, str) and all(isinstance(s, str) and s for s in
                                                                              self.only)),
                 "only (--only)", "a list of student ids", self.only)
        _require(isinstance(self.limits, Limits), "limits", "a sandbox.Limits", self.limits)
        if self.only is not None:
            object.__setattr__(self, "only", tuple(self.only))  # frozen all the way down

    @classmethod
    def from_args(cls, args):
        """The options of ``grade``'s parsed command line (the term's ``--only`` when present)."""
        return cls(timeout_s=args.timeout, jobs=args.jobs, exercise=args.exercise, seed=args.seed,
                   replay_seeds=args.replay_seeds, sandboxed=not args.trust_submissions,
                   only=getattr(args, "only", None) or None)

    @property
    def cell_limit_s(self):
        """One cell's limit: half the run's."""
        return self.timeout_s / 2

    @property
    def probe_reserve_s(self):
        """Seconds kept for the probes after the student's cells."""
        return min(90.0, self.timeout_s / 4)

    @property
    def deadline_s(self):
        """When the run is killed: the notebook's limit and a grace to start and stop it."""
        return self.timeout_s + GRACE_S

    def as_dict(self):
        """Plain data (JSON), e.g. for a Slurm task's manifest; :meth:`from_dict` reads it back."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, fields):
        """The options :meth:`as_dict` wrote."""
        return cls(**{**fields, "limits": Limits(**fields.get("limits", {}))})


def _require(ok, name, rule, value):
    if not ok:
        raise ValueError(f"the grading option {name} must be {rule}, got {value!r}")


def _number(value):
    return isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value)


def _whole(value):
    return isinstance(value, int) and not isinstance(value, bool)
