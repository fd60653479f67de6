"""A grading run's options, as one frozen object (as otter-grader's ``AutograderConfig`` holds its own).

``grade``'s entry point (``grading/cli.run``) builds one :class:`GradeOptions` from the command
line, once, and hands that same object down: folder -> submission -> launch, and to the term's
class grading and its Slurm tasks. A bad value is refused when the object is built, before any work.
It carries what the command says about the exercise and the seeds, read in one place: ``exercise``
(``--exercise``) and :meth:`GradeOptions.seed_for` (``--seed``, or the seeds ``--replay-seeds``
read from the report). What a run grades and where it writes (the submissions and the report
folder) are not options: they are the arguments beside it, and so is what the submissions
themselves settle (the exercise they all name, the new seed of a student the options give none,
drawn when that student is graded; a Slurm task gets every seed written out in its manifest).
"""

import dataclasses
import math
import numbers
import types

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
    # {student id: seed} (--replay-seeds: the report's; a Slurm task: every seed, from its manifest); a student it
    # does not name gets a new seed. Read through seed_for; kept read-only, and out of the hash (a mapping has none)
    seeds: dict | None = dataclasses.field(default=None, hash=False)
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
        _require(self.seeds is None or (hasattr(self.seeds, "items") and all(
            isinstance(s, str) and s and _whole(n) and n >= 0 for s, n in self.seeds.items())),
                 "seeds (--replay-seeds)", "a mapping of student ids to whole numbers >= 0", self.seeds)
        _require(isinstance(self.limits, Limits), "limits", "a sandbox.Limits", self.limits)
        if self.only is not None:
            object.__setattr__(self, "only", tuple(self.only))  # frozen all the way down
        if self.seeds is not None:
            object.__setattr__(self, "seeds", types.MappingProxyType(dict(self.seeds)))

    @classmethod
    def from_args(cls, args):
        """The options of ``grade``'s parsed command line (the term's ``--only`` when present), with
        ``--replay-seeds`` read from the report's ``scores.csv`` here, once."""
        from tfdist_instructor.grading.scores import recorded_seeds

        return cls(timeout_s=args.timeout, jobs=args.jobs, exercise=args.exercise, seed=args.seed,
                   replay_seeds=args.replay_seeds, seeds=recorded_seeds(args.out) if args.replay_seeds else None,
                   sandboxed=not args.trust_submissions, only=getattr(args, "only", None) or None)

    def seed_for(self, student):
        """The seed of ``student``'s inputs: ``seed`` when set, else theirs in ``seeds``; None (a new
        seed, drawn when they are graded) for a student neither names."""
        if self.seed is not None:
            return self.seed
        return None if self.seeds is None else self.seeds.get(student)

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
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        return {**fields, "seeds": None if self.seeds is None else dict(self.seeds),
                "limits": dataclasses.asdict(self.limits)}

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
