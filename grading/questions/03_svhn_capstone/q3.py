"""Q3: weight updates per epoch (a transfer task), and a written explanation graded by hand."""
# ruff: noqa: F821 - probe() runs in the student's namespace, where their names are defined

from tfdist_instructor.grading.catalog import case, returned

HAND_POINTS = 2  # the written answer, graded by hand with RUBRIC: the exercise's total is 10 automatic + 2
RUBRIC = """\
Up to 2 points, given by hand (the automatic points are for `updates_per_epoch` only):
- names the fastest and the slowest run with their measured seconds (0.5);
- explains why two replicas did not speed up training *here*: logical devices share the same
  CPU cores, so the arithmetic is not parallel, and each step adds splitting, two replica
  graphs and an all-reduce of every gradient; a small model makes that fixed cost dominate (0.5);
- relates the accuracies to the number of weight updates: the mirrored runs use a global batch
  twice as large, so half as many updates per epoch (0.5);
- says what would change on real accelerators or with a larger model or batch (0.5)."""


def inputs(rng):
    return {"cases": [[int(rng.integers(100, 5000)), int(rng.integers(8, 300)), bool(rng.integers(2))]
                      for _ in range(6)]}


def probe(inputs):
    return {"example": attempt(updates_per_epoch, 1024, 128, False),
            "cases": [attempt(updates_per_epoch, *case) for case in inputs["cases"]],
            "written": globals().get("explanation")}


@case(0.5, public=True)
def updates_for_the_mirrored_fit_run(inputs, out):
    got = returned(out["example"], "updates_per_epoch(1024, 128, False)")
    assert got == 8, f"1024 examples in global batches of 128: expected 8 updates, got {got!r}"


@case(1.5, hint="one update per batch: the examples divided by the global batch, rounded up, or down when the "
                "last short batch is dropped; return an int")
def updates_for_any_run(inputs, out):
    for (examples, batch, drop), attempted in zip(inputs["cases"], out["cases"], strict=True):
        got = returned(attempted, "updates_per_epoch")
        assert isinstance(got, int) and got == (examples // batch if drop else -(-examples // batch))
