"""Q1: global_batch_size(strategy, per_replica_batch) for any number of replicas."""
# ruff: noqa: F821 - probe() runs in the student's namespace, where their names are defined

from tfdist_instructor.grading.catalog import case, returned


def inputs(rng):
    pairs = [[int(rng.integers(1, 9)), int(rng.integers(1, 513))] for _ in range(4)]
    return {"pairs": pairs + [[1, int(rng.integers(1, 513))]]}


def probe(inputs):
    import types

    def with_replicas(n):  # any object with num_replicas_in_sync is a strategy to the answer
        return types.SimpleNamespace(num_replicas_in_sync=n)

    return {"this_strategy": attempt(global_batch_size, strategy, 32),
            "replicas": attempt(lambda: strategy.num_replicas_in_sync),
            "pairs": [attempt(global_batch_size, with_replicas(n), p) for n, p in inputs["pairs"]]}


@case(1, public=True)
def global_batch_on_this_strategy(inputs, out):
    got = returned(out["this_strategy"], "global_batch_size(strategy, 32)")
    assert got is not None, "global_batch_size returned None: replace the ... with a return statement"
    assert got == 64, f"with 2 replicas and 32 per replica, expected 64, got {got!r}"


@case(1, hint="read the number of replicas from the strategy (num_replicas_in_sync) instead of assuming two")
def global_batch_for_any_number_of_replicas(inputs, out):
    for (n, p), attempted in zip(inputs["pairs"], out["pairs"], strict=True):
        assert returned(attempted, "global_batch_size") == n * p, (n, p)


@case(1, hint="return a Python int (not a float or a tensor)")
def global_batch_is_an_int(inputs, out):
    for attempted in out["pairs"]:
        got = returned(attempted, "global_batch_size")
        assert isinstance(got, int) and not isinstance(got, bool), type(got).__name__
