"""Q1: chunk_bounds(size, n) tiles 0..size into n chunks that differ by at most one element."""
# ruff: noqa: F821 - probe() runs in the student's namespace, where their names are defined

import itertools

from tfdist_instructor.grading.catalog import case, returned

OFF_BY_ONE = "a chunk boundary off by one: chunk k runs from size * k // n up to size * (k + 1) // n"


def inputs(rng):
    cases = []
    for _ in range(50):
        n = int(rng.integers(2, 9))
        cases.append([int(rng.integers(n, 5000)), n])
    return {"cases": cases}


def probe(inputs):
    def bounds(size, n):  # plain int pairs, whatever kind of ints or pairs the answer holds
        got = chunk_bounds(size, n)
        return None if got is None else [[int(a), int(b)] for a, b in got]

    return {"example": attempt(bounds, 10, 4), "cases": [attempt(bounds, size, n) for size, n in inputs["cases"]]}


@case(0.5, public=True)
def chunks_of_ten_in_four(inputs, out):
    got = returned(out["example"], "chunk_bounds(10, 4)")
    assert got is not None, "chunk_bounds returned None: replace the ... with your code"
    assert len(got) == 4, f"expected 4 chunks, got {got}"
    assert got[0][0] == 0 and got[-1][1] == 10, f"the chunks must cover 0..10, got {got}"


def _bounds_diagnosis(inputs, out):
    past, overlap, spread = set(), set(), set()
    for (size, n), attempted in zip(inputs["cases"], out["cases"], strict=True):
        got = returned(attempted, "chunk_bounds")
        past.add(got[-1][1] - size)
        overlap.update(b[1] - c[0] for b, c in itertools.pairwise(got))
        spread.add(max(b - a for a, b in got) - min(b - a for a, b in got))
    said = []
    if past != {0}:
        said.append(f"your last chunk stops {_span(past)} element(s) past the end of the array")
    if overlap != {0}:
        said.append(f"neighbouring chunks overlap by {_span(overlap)} element(s) (negative: a gap)")
    if not said:
        return f"your chunks differ in length by up to {max(spread)} elements: spread the remainder over the chunks"
    return "; ".join(said) + (f": {OFF_BY_ONE}" if past | overlap <= {0, 1, -1} else "")


def _span(values):
    low, high = min(values), max(values)
    return f"{low}" if low == high else f"{low} to {high}"


@case(1.5, hint="chunks must follow each other with no gap or overlap, cover 0..size and differ by at most one "
                "element, for any size and n (check the boundary arithmetic)", diagnose=_bounds_diagnosis)
def chunks_partition_random_sizes(inputs, out):
    for (size, n), attempted in zip(inputs["cases"], out["cases"], strict=True):
        got = returned(attempted, "chunk_bounds")
        assert len(got) == n and got[0][0] == 0 and got[-1][1] == size, (size, n, got)
        assert all(b[1] == c[0] for b, c in itertools.pairwise(got)), (size, n, got)
        lengths = [b - a for a, b in got]
        assert max(lengths) - min(lengths) <= 1, (size, n, got)
