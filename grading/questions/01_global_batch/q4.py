"""Q4: replica_batch_sizes(batch, num_replicas) predicts how a batch is split, short ones too."""
# ruff: noqa: F821 - probe() runs in the student's namespace, where their names are defined

from tfdist_instructor.grading.catalog import case, returned

# The course helpers that answer this question: an answer that uses them scores 0 here.
HELPERS = {"tfdist_edu.batching": ["split_batch", "BatchPlan"]}


def inputs(rng):
    cases = [[int(rng.integers(1, 200)), int(rng.integers(2, 9))] for _ in range(8)]
    return {"cases": [[64, 2], [5, 4], *cases]}


def probe(inputs):
    return {"sizes": [attempt(replica_batch_sizes, batch, n) for batch, n in inputs["cases"]]}


def expected(batch, n):
    """TensorFlow's split (measured on TF 2.21, lesson 0: 96 over 4 -> 24+24+24+24; 5 over 4 ->
    2+2+1+0): each replica in turn takes ceil(batch / n) until the batch runs out."""
    share = -(-batch // n)
    return [max(0, min(share, batch - i * share)) for i in range(n)]


@case(1, public=True)
def even_split(inputs, out):
    got = returned(out["sizes"][0], "replica_batch_sizes(64, 2)")
    assert got is not None, "replica_batch_sizes returned None: replace the ... with your code"
    assert isinstance(got, list), f"return a list, got {type(got).__name__}"
    assert got == [32, 32], f"64 examples over 2 replicas: expected [32, 32], got {got}"


@case(1, hint="compare your rule with what TensorFlow does for short batches (e.g. 9 over 2, 5 over 4) "
              "and return a list of ints")
def short_batches_match_tensorflow(inputs, out):
    for (batch, n), attempted in zip(inputs["cases"], out["sizes"], strict=True):
        got = returned(attempted, "replica_batch_sizes")
        assert isinstance(got, list) and all(isinstance(s, int) and not isinstance(s, bool) for s in got)
        assert got == expected(batch, n), (batch, n, got)
