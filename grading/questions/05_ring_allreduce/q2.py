"""Q2: ring_all_reduce(arrays): the sum on every device, in 2(N-1) steps of one chunk per device."""
# ruff: noqa: F821 - probe() runs in the student's namespace, where their names are defined

import numpy as np

from tfdist_instructor.grading.catalog import case, returned


def _arrays(rng, n, size):  # JSON lists: the inputs travel to the student's kernel as JSON
    return [rng.normal(size=size).tolist() for _ in range(n)]


def inputs(rng):
    sums, rings = [], []
    for _ in range(10):  # any length, even ones that do not split evenly
        n = int(rng.integers(2, 8))
        sums.append(_arrays(rng, n, int(rng.integers(n, 300))))
    for _ in range(5):  # lengths that split evenly: every chunk, hence every send, has the same size
        n = int(rng.integers(2, 8))
        rings.append(_arrays(rng, n, n * int(rng.integers(1, 50))))
    return {"sums": sums, "rings": rings}


def probe(inputs):
    import numpy as np

    def part(arrays, index):  # 0: the outputs, 1: the log
        return ring_all_reduce([np.array(a) for a in arrays])[index]

    return {"two": attempt(ring_all_reduce, [np.arange(6.0), 10 * np.arange(6.0)]),
            "sums": [attempt(part, arrays, 0) for arrays in inputs["sums"]],
            "logs": [attempt(part, arrays, 1) for arrays in inputs["rings"]]}


@case(1, public=True)
def two_devices(inputs, out):
    got = returned(out["two"], "ring_all_reduce([np.arange(6.0), 10 * np.arange(6.0)])")
    assert got is not None and got[0] is not None, "ring_all_reduce returned nothing: replace the ... with your code"
    for device in got[0]:
        assert np.allclose(device, 11 * np.arange(6.0)), \
            f"expected the sum 11 * arange(6) on every device, got {device}"


@case(2, hint="every device must end with the element-wise SUM (not the mean) of all arrays, for any number of "
              "devices and any length, including lengths that do not split evenly")
def sum_on_every_device_random(inputs, out):
    for arrays, attempted in zip(inputs["sums"], out["sums"], strict=True):
        outputs, n = returned(attempted, "ring_all_reduce"), len(arrays)
        assert len(outputs) == n, (n, len(arrays[0]))
        for device in outputs:
            assert np.allclose(device, np.sum(arrays, axis=0)), (n, len(arrays[0]))


@case(2, hint="a ring all-reduce takes 2(N-1) steps (N-1 per phase), each device sending one chunk per step to "
              "its right-hand neighbour: 2(N-1)/N of the array per device")
def ring_steps_and_traffic(inputs, out):
    for arrays, attempted in zip(inputs["rings"], out["logs"], strict=True):
        log, n, size = returned(attempted, "ring_all_reduce"), len(arrays), len(arrays[0])
        assert len({e["step"] for e in log}) == 2 * (n - 1), (n, "steps")
        assert len(log) == 2 * (n - 1) * n, (n, "sends")
        assert all(e["target"] == (e["source"] + 1) % n for e in log)
        for device in range(n):
            sent = sum(e["nbytes"] for e in log if e["source"] == device)
            assert sent == 2 * (n - 1) * (size // n) * 8, (n, size, device, sent)
