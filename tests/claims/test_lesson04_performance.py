"""Lesson 4's claims about its own measurements, checked on the normal-mode run that printed them.

Each test quotes the sentence it checks (``lesson.says``) and asserts it on the numbers printed
beside it. Timings are compared only where the sentence makes a claim the physics makes
certain (a cache saves CPU time, a new iterator starts up, emulated float16 is slower); the
other verdicts are for the student to read, and the lesson says how.
"""

import re

import pytest

SETUP = re.compile(r"^\s+\[(?P<setup>[^\]]+); jit_compile (?P<a>\w+) and (?P<b>\w+)\]$", re.M)


@pytest.fixture
def l4(lesson):
    return lesson("04_performance")


def pairs(l4, cell_id):
    """The paired verdicts a cell printed: what, verdict, median, low, high, setup, jit."""
    text = l4.text(cell_id)
    cpu_line = re.compile(r"^    CPU time: the same pair: " + l4.VERDICT + "$", re.M)
    found = []
    for match in l4.paired_lines(cell_id):
        after = SETUP.match(text, match.end() + 1)
        cpu = after and cpu_line.match(text, after.end() + 1)
        found.append({**match.groupdict(), "setup": after and after["setup"],
                      "jit": after and (after["a"], after["b"]), "cpu": cpu and cpu.groupdict()})
    return found


def pair(l4, cell_id, what):
    matches = [p for p in pairs(l4, cell_id) if p["what"].startswith(what)]
    assert len(matches) == 1, f"cell {cell_id}: expected one verdict for {what!r}, got {matches}"
    return matches[0]


COMPARING_CELLS = ["cell-14", "cell-19", "cell-21", "cell-22", "cell-24", "cell-26", "cell-28",
                   "cell-32", "cell-34"]


def test_every_comparison_prints_its_global_batch_and_the_same_jit_compile_on_both_arms(l4):
    l4.says("cell-05", "Every comparison prints the global batch and the `jit_compile` of both arms.")
    for cell_id in COMPARING_CELLS:
        for found in pairs(l4, cell_id):
            assert found["setup"], f"{cell_id}: {found['what']} printed no setup line"
            assert found["jit"][0] == found["jit"][1] == "False", (cell_id, found)
            if cell_id != "cell-24":  # the pipeline passes train nothing
                assert re.search(r"global batch \d+(, [^;]+)? on both|examples per block on both",
                                 found["setup"]), (cell_id, found["setup"])


def test_a_verdict_names_a_difference_only_when_the_middle_half_lies_on_one_side_of_one(l4):
    l4.says("cell-05", "**faster** or **slower** means the whole middle half lies on one side of 1.")
    l4.says("cell-05", "**no measurable difference** means the middle half reaches 1")
    for cell_id in COMPARING_CELLS:
        for found in pairs(l4, cell_id):
            low, high = float(found["low"]), float(found["high"])
            # the printed quartiles are rounded to 2 decimals
            if min(abs(low - 1), abs(high - 1)) > 0.005:
                assert found["verdict"] == l4.middle_half_verdict(low, high), (cell_id, found)


def test_on_this_cpu_auto_resolves_jit_compile_to_false_under_both_strategies(l4):
    l4.says("l34-jit-md3", 'On this CPU, "auto" resolves to False everywhere')
    text = l4.text("l34-jit-auto")
    assert "GPUs and TPUs here: none" in text
    assert text.count("model.jit_compile = False") == 2, text


def test_the_cache_pays_the_decoding_once_and_later_passes_read_from_memory(l4):
    l4.says("cell-25", "The cache pays the decoding once, in the first pass; later passes read "
                       "decoded images from memory.")
    first = l4.number("cell-24", r"decode once: cache \+ prefetch: first pass ([\d.]+) s")
    later = l4.number("cell-24", r"decode once: cache \+ prefetch: a later pass ([\d.]+) s")
    assert later < first / 5, (first, later)
    assert pair(l4, "cell-24", "decode once: cache + prefetch vs")["verdict"] == "faster"


def test_the_cache_always_saves_cpu_time_in_training(l4):
    l4.says("cell-27", "so the same training costs less CPU time: that verdict reads **faster** "
                       "(less CPU time per block) on any machine.")
    l4.says("cell-43", "`cache` removes repeated input work, which always saves CPU time")
    cached = pair(l4, "cell-26", "2 replicas, PNG decoded once, from the cache vs")
    assert cached["cpu"] and cached["cpu"]["verdict"] == "faster", cached
    decoding = l4.number("cell-26", r"PNG decoded every epoch: [\d.]+ s on the clock, ([\d.]+) s of CPU")
    from_cache = l4.number("cell-26", r"from the cache: [\d.]+ s on the clock, ([\d.]+) s of CPU")
    assert from_cache < decoding, (from_cache, decoding)


def test_no_block_kept_more_cores_busy_than_the_machine_has(l4):
    l4.says("cell-10", "CPU time divided by wall-clock time is how many cores the block kept busy "
                       "on average, at most 2 on this machine.")
    assert "2 CPU cores" in l4.text("cell-13")
    busy = l4.numbers("cell-13", r"([\d.]+) cores busy") + l4.numbers("cell-26", r"([\d.]+) cores busy")
    assert len(busy) == 8 and all(0 < b <= 2.05 for b in busy), busy  # 2 + the clocks' rounding


def test_a_new_iterator_always_costs_more_than_the_next_batch_of_a_running_one(l4):
    l4.says("cell-23", "A new iterator's first batch is certain to read **slower** than the next "
                       "batch of a running iterator: it does all of that work and starts up on top "
                       "of it.")
    for label in ("1 device", "2 replicas"):
        start = pair(l4, "cell-22", f"{label}: a new iterator's first batch vs {label}")
        assert start["verdict"] == "slower", start
        first = l4.number("cell-22", rf"{label}: a new iterator's first batch:\s+([\d.]+) ms")
        running = l4.number("cell-22", rf"{label}: a running iterator's next batch:\s+([\d.]+) ms")
        assert first > running, (label, first, running)


def test_a_new_distributed_iterator_starts_slower_than_one_on_one_device(l4):
    l4.says("cell-23", "so its start costs more than on one device, and the last pair reads "
                       "**slower** too.")
    both = pair(l4, "cell-22", "2 replicas: a new iterator's first batch vs 1 device")
    assert both["verdict"] == "slower", both


def test_steps_per_execution_ran_every_step_sixteen_to_a_call_to_a_finite_loss(l4):
    l4.says("cell-29", "both arms run the same steps on the same batches, so any difference is "
                       "the calls saved, 15 of every 16.")
    text = l4.text("cell-28")
    match = re.search(r"steps_per_execution=16: (\d+) optimizer steps in (\d+) calls \((\d+) "
                      r"blocks of (\d+) steps\); loss afterwards ([\d.]+|nan|inf) on", text)
    assert match, text
    steps, calls, blocks, per_block = (int(g) for g in match.groups()[:4])
    assert steps == blocks * per_block == 16 * calls, match.groups()
    assert float(match[5]) < 2.3  # finite, and below chance's log(10) = 2.30: it trained


def test_steps_per_execution_under_mirrored_fails_only_with_the_default_cross_device_ops(l4):
    l4.says("cell-29", "With Keras 3.15.1 and TensorFlow 2.21, `fit` with `steps_per_execution` "
                       "above 1 fails under `MirroredStrategy()` with its default cross-device "
                       "ops (on CPUs, a `CollectiveAllReduce`)")
    l4.says("cell-29", "With `cross_device_ops=tf.distribute.ReductionToOneDevice()` the same "
                       "`fit` runs.")
    text = l4.text("cell-30")
    if not text.startswith("Keras 3.15.1, TensorFlow 2.21."):
        pytest.skip(f"the sentence is about Keras 3.15.1 and TensorFlow 2.21: {text[:60]}")
    default = re.search(r"default cross-device ops: (.*)", text)[1]
    assert default.startswith("fails with InvalidArgumentError"), default
    assert "You must feed a value for placeholder tensor" in default, default
    assert re.search(r"ReductionToOneDevice: works: 8 optimizer steps ran, 4 to a call", text), text


def test_the_accumulated_update_equals_the_big_batch_step_up_to_float32_rounding(l4):
    l4.says("l34-accum-after", "The two updates agree up to float32 rounding.")
    moved = l4.number("l34-accum-check", r"largest weight change ([\d.e+-]+)")
    apart = l4.number("l34-accum-check", r"largest difference between the two ([\d.e+-]+)")
    assert moved > 0 and apart < 1e-3 * moved, (moved, apart)
    losses = l4.numbers("l34-accum-check", r"loss ([\d.]+)")
    assert len(losses) == 2 and abs(losses[0] - losses[1]) < 1e-4, losses


def test_mixed_float16_is_slower_on_this_cpu(l4):
    l4.says("l34-mixed-md2", "CPUs have no fast float16 arithmetic: TensorFlow emulates it, so on "
                             "a CPU expect mixed precision to be *slower*")
    assert "no GPU" in l4.text("cell-34")
    mixed = pair(l4, "cell-34", "1 device, batch 128, mixed_float16 vs")
    assert mixed["verdict"] == "slower", mixed
    assert mixed["setup"].startswith("global batch 128 on both"), mixed


def test_every_overflowing_step_is_skipped_and_halves_the_scale(l4):
    l4.says("cell-36", "when a step's gradients overflow to inf or NaN, the optimizer skips that "
                       "step and halves the scale.")
    text = l4.text("cell-38")
    injected = re.findall(r"step (\d+): inf gradients injected -> step skipped: (\w+), scale "
                          r"halved: (\w+)", text)
    assert injected and all(s == h == "True" for _, s, h in injected), text
    assert "injected inf gradients that were applied anyway: none" in l4.text("cell-40")


def test_two_simulated_replicas_never_do_less_cpu_work_than_one_device_at_the_same_batch(l4):
    l4.says("cell-17", "Simulated devices are the *same* hardware: splitting the batch adds no "
                       "computing power. It adds work: splitting every batch, an all-reduce of the "
                       "gradients, and an update of every copy of the variables.")
    for batch in (32, 128, 512):
        found = pair(l4, "cell-14", f"2 replicas, batch {batch} vs 1 device, batch {batch}")
        assert found["setup"].startswith(f"global batch {batch} on both"), found
        assert found["cpu"] and found["cpu"]["verdict"] != "faster", found
