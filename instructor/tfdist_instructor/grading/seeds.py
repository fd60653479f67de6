"""The seed of a submission's inputs: drawn fresh for each submission, recorded, replayable.

Every submission gets inputs of its own, so an answer hard-coded for someone else's inputs (or
for the notebook's examples) does not pass. The seed they were drawn from is written into
``scores.csv`` and the feedback; grading again with that seed (``--seed``, or
``--replay-seeds`` for the seeds a report recorded) draws exactly the same inputs. Which seed a
student gets is the run's options' to say (``GradeOptions.seed_for``).
"""

import secrets


def new_seed():
    """A fresh seed: unpredictable, and short enough (32 bits, at most 10 digits) that a
    spreadsheet that opens ``scores.csv`` keeps it exact."""
    return secrets.randbits(32)


def check(seed):
    """``seed`` as an int >= 0; ValueError naming it otherwise (e.g. a mangled CSV cell)."""
    try:
        value = int(str(seed).strip())
    except ValueError:
        raise ValueError(f"a seed is a whole number >= 0, got {seed!r}") from None
    if value < 0:
        raise ValueError(f"a seed is a whole number >= 0, got {seed!r}")
    return value


def draw_inputs(asked, seed):
    """``{question: inputs}`` for the questions ``asked``, drawn from ``seed``: the same every time."""
    import numpy as np

    rng = np.random.default_rng(seed)
    return {q.name: q.inputs(rng) for q in asked}

