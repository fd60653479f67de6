"""Q3: all_reduce_seconds and predict_step_seconds: the ring's latency and bandwidth terms."""
# ruff: noqa: F821 - probe() runs in the student's namespace, where their names are defined

from tfdist_instructor.grading.catalog import case, returned
from tfdist_instructor.grading.diagnosis import every, median_factor

# The course helpers that answer this question: an answer that uses them scores 0 here.
HELPERS = {"tfdist_edu.cost_model": ["Link", "StepModel", "ring_bytes_per_device"]}

SUSPECTS = [  # (the cost a mistake gives, the mistake)
    (lambda n, size, lat, bw: 2 * (n - 1) * lat + size / bw,
     "the 2(N-1)/N factor of the bandwidth term was dropped: each device moves 2(N-1)/N of the bytes"),
    (lambda n, size, lat, bw: 2 * (n - 1) / n * size / bw,
     "the latency term was forgotten: a ring pays 2(N-1) latencies"),
    (lambda n, size, lat, bw: lat + 2 * (n - 1) / n * size / bw,
     "the latency was paid once: a ring pays it in each of its 2(N-1) steps"),
    (lambda n, size, lat, bw: (n - 1) * lat + (n - 1) / n * size / bw,
     "only one phase was counted: reduce-scatter and all-gather take N-1 steps each"),
]


def _link(rng):
    """size_bytes, latency_s, bandwidth of a random gradient and link."""
    return [float(rng.uniform(1e5, 1e9)), float(rng.uniform(1e-6, 1e-3)), float(rng.uniform(1e9, 3e11))]


def inputs(rng):
    reduces = [[int(rng.integers(2, 17)), *_link(rng)] for _ in range(20)]
    steps = [[int(rng.integers(2, 9)), int(rng.integers(8, 4096)), float(rng.uniform(1e-4, 1e-2)),
              float(rng.uniform(1e-6, 1e-3)), *_link(rng)] for _ in range(20)]
    return {"reduces": reduces, "steps": steps}


def probe(inputs):
    return {"one_reduce": attempt(all_reduce_seconds, 1e8, 1, 1e-5, 1e10),
            "one_step": attempt(predict_step_seconds, 1, 64, 0.01, 0.001, 1e8, 1e-5, 1e10),
            "reduces": [attempt(all_reduce_seconds, size, n, latency, bandwidth)
                        for n, size, latency, bandwidth in inputs["reduces"]],
            "steps": [attempt(predict_step_seconds, *step) for step in inputs["steps"]]}


def all_reduce(n, size, latency, bandwidth):
    """The reference: 2(N-1) latencies plus 2(N-1)/N of the bytes over the bandwidth."""
    return 2 * (n - 1) * latency + 2 * (n - 1) / n * size / bandwidth


def assert_close(got, expected, where):
    assert abs(got - expected) <= 1e-9 * expected, (where, got, expected)


@case(0.5, public=True)
def one_device_needs_no_all_reduce(inputs, out):
    got = returned(out["one_reduce"], "all_reduce_seconds(1e8, 1, 1e-5, 1e10)")
    assert got is not None, "all_reduce_seconds returned None: replace the ... with your code"
    assert got == 0, f"one device has nothing to all-reduce, got {got}"
    step = returned(out["one_step"], "predict_step_seconds(1, 64, 0.01, 0.001, 1e8, 1e-5, 1e10)")
    assert step is not None and abs(step - 0.074) < 1e-9, f"1 device, batch 64: 0.01 + 64 * 0.001 = 0.074 s, got {step}"


def _named(what, pairs):
    said = f"{what} {median_factor(pairs, all_reduce)} the ring's (median over {len(pairs)} cases)"
    for rule, mistake in SUSPECTS:
        if every(pairs, rule, rtol=1e-9):
            return f"{said}: {mistake}"
    return said


def _reduce_diagnosis(inputs, out):
    pairs = [(args, returned(a, "all_reduce_seconds")) for args, a in zip(inputs["reduces"], out["reduces"], strict=True)]
    return _named("your all-reduce times are", pairs)


def _step_diagnosis(inputs, out):
    pairs = []
    for (n, batch, fixed, per_example, *link), a in zip(inputs["steps"], out["steps"], strict=True):
        pairs.append(((n, *link), returned(a, "predict_step_seconds") - fixed - per_example * batch / n))
    return _named("the all-reduce part of your step times (step minus compute) is", pairs)


@case(1.5, hint="the all-reduce costs 2(N-1) latencies plus 2(N-1)/N of the bytes over the bandwidth: "
                "check both terms", diagnose=_reduce_diagnosis)
def all_reduce_cost_random(inputs, out):
    for args, attempted in zip(inputs["reduces"], out["reduces"], strict=True):
        assert_close(returned(attempted, "all_reduce_seconds"), all_reduce(*args), f"n={args[0]}")


@case(1, hint="a step on N devices is fixed_s + per_example_s * global_batch / N plus the all-reduce",
      diagnose=_step_diagnosis)
def step_prediction_random(inputs, out):
    for (n, batch, fixed, per_example, *link), attempted in zip(inputs["steps"], out["steps"], strict=True):
        expected = fixed + per_example * batch / n + all_reduce(n, *link)
        assert_close(returned(attempted, "predict_step_seconds"), expected, f"n={n}, batch={batch}")
