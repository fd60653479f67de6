"""Q4: the metric-Mean pitfall, for any replicas' losses."""
# ruff: noqa: F821 - probe() runs in the student's namespace, where their names are defined

from tfdist_instructor.grading.catalog import case, returned

# The course helpers that answer this question: an answer that uses them scores 0 here.
HELPERS = {"tfdist_edu.loss_scaling": ["metric_pitfall"], "tfdist_edu.loss_scaling.metrics": ["metric_pitfall"]}


def inputs(rng):
    replicas = int(rng.integers(2, 5))
    losses = [rng.uniform(0, 5, int(rng.integers(1, 6))).round(3).tolist() for _ in range(replicas)]
    return {"losses": losses, "global_batch": sum(map(len, losses)) + int(rng.integers(0, 3))}


def probe(inputs):
    return {"example": attempt(loss_views, [[2, 3], [4, 5]], 4),
            "random": attempt(loss_views, inputs["losses"], inputs["global_batch"])}


@case(0.5, public=True)
def example_of_the_lesson(inputs, out):
    got = returned(out["example"], "loss_views([[2, 3], [4, 5]], 4)")
    assert isinstance(got, tuple) and len(got) == 2, f"return a tuple (correct_loss, mean_metric_value), got {got!r}"
    assert all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in got), "return two numbers"
    assert abs(got[0] - 3.5) < 1e-9 and abs(got[1] - 1.75) < 1e-9, f"expected (3.5, 1.75), got {got}"


@case(0.5, hint="the SUM of the scaled losses is the mean over the global batch; a Mean metric averages the "
                "replicas' scaled losses")
def any_replicas_losses(inputs, out):
    correct, mean_metric = returned(out["random"], "loss_views")
    scaled = [sum(losses) / inputs["global_batch"] for losses in inputs["losses"]]
    assert abs(correct - sum(scaled)) < 1e-9 and abs(mean_metric - sum(scaled) / len(scaled)) < 1e-9
