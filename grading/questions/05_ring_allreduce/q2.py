"""Q2: ring_all_reduce(arrays): the sum on every device, in 2(N-1) steps of one chunk per device."""
# ruff: noqa: F821 - probe() runs in the student's namespace, where their names are defined

import numpy as np

from tfdist_instructor.grading.catalog import case, returned
from tfdist_instructor.grading.diagnosis import explain, factor

MEAN = "you divided by the number of devices (the mean); the all-reduce asked for here returns the sum"


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


def _sum_diagnosis(inputs, out):
    for arrays, attempted in zip(inputs["sums"], out["sums"], strict=True):
        outputs, n, total = returned(attempted, "ring_all_reduce"), len(arrays), np.sum(arrays, axis=0)
        for device in outputs:
            if not np.allclose(device, total):
                ratio = float(np.vdot(device, total) / np.vdot(total, total))
                return explain(f"with N={n} devices your result", ratio, 1.0, "the sum", [(1 / n, f"1/N: {MEAN}")])
    return None


def _steps_diagnosis(inputs, out):
    for arrays, attempted in zip(inputs["rings"], out["logs"], strict=True):
        log, n = returned(attempted, "ring_all_reduce"), len(arrays)
        steps, sends, needed = len({e["step"] for e in log}), len(log), 2 * (n - 1)
        if steps == needed and sends == needed * n:
            continue
        said = f"with N={n} devices your ring made {sends} sends in {steps} numbered steps, {factor(sends, needed * n)} " \
               f"the 2(N-1)N = {needed * n} sends of the 2(N-1) = {needed} steps it needs"
        if max(steps, sends / n) in (2 * n - 1, 2 * n):
            said += ": a phase ran N steps instead of N-1 (reduce-scatter and all-gather take N-1 steps each)"
        return said
    return None


@case(2, hint="every device must end with the element-wise SUM (not the mean) of all arrays, for any number of "
              "devices and any length, including lengths that do not split evenly", diagnose=_sum_diagnosis)
def sum_on_every_device_random(inputs, out):
    for arrays, attempted in zip(inputs["sums"], out["sums"], strict=True):
        outputs, n = returned(attempted, "ring_all_reduce"), len(arrays)
        assert len(outputs) == n, (n, len(arrays[0]))
        for device in outputs:
            assert np.allclose(device, np.sum(arrays, axis=0)), (n, len(arrays[0]))


@case(2, hint="a ring all-reduce takes 2(N-1) steps (N-1 per phase), each device sending one chunk per step to "
              "its right-hand neighbour: 2(N-1)/N of the array per device", diagnose=_steps_diagnosis)
def ring_steps_and_traffic(inputs, out):
    for arrays, attempted in zip(inputs["rings"], out["logs"], strict=True):
        log, n, size = returned(attempted, "ring_all_reduce"), len(arrays), len(arrays[0])
        assert len({e["step"] for e in log}) == 2 * (n - 1), (n, "steps")
        assert len(log) == 2 * (n - 1) * n, (n, "sends")
        assert all(e["target"] == (e["source"] + 1) % n for e in log)
        for device in range(n):
            sent = sum(e["nbytes"] for e in log if e["source"] == device)
            assert sent == 2 * (n - 1) * (size // n) * 8, (n, size, device, sent)
