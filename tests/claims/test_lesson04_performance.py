"""Lesson 4's claims about its own measurements, checked on the normal-mode run that printed them.

Each test quotes the sentence it checks (``lesson.says``) and asserts it on the numbers printed
beside it. Timings are compared only where the sentence makes a claim the physics makes
certain (a cache saves CPU time, a new iterator starts up, emulated float16 is slower); the
other verdicts are for the student to read, and the lesson says how. Every verdict must be the
one its printed 95% interval gives (``interval_verdict``).
"""

import re

import pytest

SETUP = re.compile(r"^\s+\[(?P<setup>[^\]]+); jit_compile (?P<a>\w+) and (?P<b>\w+)\]$", re.M)
REST = r"[.:;].*$"  # what follows the interval on a verdict's line: ".", ": no difference ...", "; about ..."
ROW = re.compile(r"^(?P<what>.+? vs .+?)\s+(?P<median>[\d.]+)x\s+(?:(?P<low>[\d.]+)-(?P<high>[\d.]+)x|too few)"
                 r"\s+(?P<n>\d+)\s+(?P<verdict>faster|slower|within|undecided)$", re.M)


@pytest.fixture
def l4(lesson):
    return lesson("04_performance")


def pairs(l4, cell_id):
    """The paired verdicts a cell printed: what, verdict, median, low, high, n, few, setup, jit,
    cpu (the CPU-time verdict of the same pair, where printed)."""
    text = l4.text(cell_id)
    cpu_line = re.compile(r"^    CPU time: the same pair: " + l4.VERDICT + REST, re.M)
    found = []
    for match in l4.paired_lines(cell_id, end=REST):
        after = SETUP.match(text, match.end() + 1)
        cpu = after and cpu_line.match(text, after.end() + 1)
        found.append({**match.groupdict(), "line": match[0], "setup": after and after["setup"],
                      "jit": after and (after["a"], after["b"]), "cpu": cpu and cpu.groupdict()})
    return found


def pair(l4, cell_id, what):
    matches = [p for p in pairs(l4, cell_id) if p["what"].startswith(what)]
    assert len(matches) == 1, f"cell {cell_id}: expected one verdict for {what!r}, got {matches}"
    return matches[0]


def repeats(l4):
    return int(l4.number("l04-timing-setup", r"timed blocks of \d+ examples, (\d+) per arm"))


def check_verdict(l4, found, where):
    """The verdict is the one the printed interval gives; undecided says what would decide it."""
    if found["few"]:
        assert found["verdict"] == "undecided", (where, found)
        return
    low, median, high = float(found["low"]), float(found["median"]), float(found["high"])
    assert low <= median <= high, (where, found)
    expected = l4.interval_verdict(low, high)
    if expected is not None:
        assert found["verdict"] == expected, (where, found)


COMPARING_CELLS = ["l04-grid-compare", "l04-step-parts", "l04-iterator-per-epoch",
                   "l04-iterator-starts", "l04-png-pipelines", "l04-cache-vs-decode",
                   "l04-steps-per-execution", "l04-ctl-per-call", "l04-mixed-precision-pair"]


def test_every_comparison_prints_its_global_batch_and_the_same_jit_compile_on_both_arms(l4):
    l4.says("l04-how-measured-md",
            "Every comparison prints the global batch and the `jit_compile` of both arms.")
    for cell_id in COMPARING_CELLS:
        for found in pairs(l4, cell_id):
            assert found["setup"], f"{cell_id}: {found['what']} printed no setup line"
            assert found["jit"][0] == found["jit"][1] == "False", (cell_id, found)
            if cell_id != "l04-png-pipelines":  # the pipeline passes train nothing
                assert re.search(r"global batch \d+(, [^;]+)? on both|examples per block on both",
                                 found["setup"]), (cell_id, found["setup"])


def test_a_verdict_names_a_difference_only_when_the_95_interval_lies_on_one_side_of_one(l4):
    l4.says("l04-how-measured-md",
            "**faster** or **slower** means the whole interval lies above or below 1.")
    l4.says("l04-how-measured-md",
            "**within 5%** means the whole interval lies inside 1/1.05x..1.05x")
    l4.says("l04-how-measured-md",
            "**undecided** means the interval still reaches 1 and, on at least one side, "
            "beyond 5%: the line says about how many pairs in all would likely decide it.")
    for cell_id in COMPARING_CELLS:
        for found in pairs(l4, cell_id):
            check_verdict(l4, found, (cell_id, found["line"]))
            if found["verdict"] == "undecided":
                assert re.search(r"about \d+ pairs in all would likely decide it|too close to the "
                                 r"threshold|too few", found["line"]), found["line"]
            if found["cpu"]:
                check_verdict(l4, found["cpu"], (cell_id, found["what"], "CPU time"))


def test_normal_mode_takes_enough_pairs_for_a_95_interval_in_every_comparison(l4):
    l4.says("l04-how-measured-md",
            "Fewer than 6 pairs always read undecided; the next cell prints how many "
            "pairs this run takes (`REPEATS`: 12, or 3 in fast mode).")
    n = repeats(l4)
    assert n == 12, n
    for cell_id in COMPARING_CELLS:
        for found in pairs(l4, cell_id):
            expected = 6 if found["what"].startswith("1 device, batch 128, mixed_float16") else n
            assert found["n"] and int(found["n"]) == expected, (cell_id, found["line"])


def test_the_summary_table_repeats_every_verdict_with_its_95_interval(l4):
    l4.says("l04-every-pair-md",
            "the typical ratio of their block times (above 1: the second arm is faster), "
            "its 95% interval, the number of pairs, and the verdict.")
    text = l4.text("l04-every-pair")
    assert re.search(r"^pair \(second arm vs first\)\s+ratio\s+95% interval\s+pairs\s+verdict$", text, re.M), text
    assert "middle half" not in text
    printed = {p["what"]: p for cell_id in COMPARING_CELLS for p in pairs(l4, cell_id)}
    rows = list(ROW.finditer(text))
    assert len(rows) == 18, text
    for row in rows:
        check_verdict(l4, {**row.groupdict(), "few": None if row["low"] else row["n"]}, row[0])
        earlier = printed[row["what"]]  # the same pair, printed with its verdict line
        assert (row["median"], row["low"], row["high"], row["verdict"]) == (
            earlier["median"], earlier["low"], earlier["high"], earlier["verdict"]), (row[0], earlier)


def test_on_this_cpu_auto_resolves_jit_compile_to_false_under_both_strategies(l4):
    l4.says("l34-jit-md3", 'On this CPU, "auto" resolves to False everywhere')
    text = l4.text("l34-jit-auto")
    assert "GPUs and TPUs here: none" in text
    assert text.count("model.jit_compile = False") == 2, text


def test_the_cache_pays_the_decoding_once_and_later_passes_read_from_memory(l4):
    l4.says("l04-cache-md",
            "The cache pays the decoding once, in the first pass; later passes read "
            "decoded images from memory.")
    first = l4.number("l04-png-pipelines", r"decode once: cache \+ prefetch: first pass ([\d.]+) s")
    later = l4.number("l04-png-pipelines", r"decode once: cache \+ prefetch: a later pass ([\d.]+) s")
    assert later < first / 5, (first, later)
    assert pair(l4, "l04-png-pipelines", "decode once: cache + prefetch vs")["verdict"] == "faster"


def test_the_cache_always_saves_cpu_time_in_training(l4):
    l4.says("l04-cache-after",
            "so the same training costs less CPU time: that verdict reads **faster** (less CPU time "
            "per block), or **undecided** on a machine too busy for these pairs to show it, never slower.")
    l4.says("l04-why-slower", "`cache` removes repeated input work, which always saves CPU time")
    cached = pair(l4, "l04-cache-vs-decode", "2 replicas, PNG decoded once, from the cache vs")
    # "faster" in every run so far (1.14x, 1.11x-1.17x stored; 1.23x, 1.07x-1.35x in CI), but
    # the low end came within 7% of 1.00x: the sentence allows "undecided", and the typical ratio
    # and the CPU seconds must still show the saving.
    assert cached["cpu"] and cached["cpu"]["verdict"] in ("faster", "undecided"), cached
    assert float(cached["cpu"]["median"]) > 1, cached
    decoding = l4.number("l04-cache-vs-decode",
                         r"PNG decoded every epoch: [\d.]+ s on the clock, ([\d.]+) s of CPU")
    from_cache = l4.number("l04-cache-vs-decode", r"from the cache: [\d.]+ s on the clock, ([\d.]+) s of CPU")
    assert from_cache < decoding, (from_cache, decoding)


def test_no_block_kept_more_cores_busy_than_the_machine_has(l4):
    l4.says("l04-timed-md", "CPU time divided by wall-clock time is how many cores the block kept "
                            "busy on average, at most 2 on this machine.")
    assert "2 CPU cores" in l4.text("l04-grid-timing")
    busy = (l4.numbers("l04-grid-timing", r"([\d.]+) cores busy")
            + l4.numbers("l04-cache-vs-decode", r"([\d.]+) cores busy"))
    assert len(busy) == 8 and all(0 < b <= 2.05 for b in busy), busy  # 2 + the clocks' rounding


def test_a_new_iterator_always_costs_more_than_the_next_batch_of_a_running_one(l4):
    l4.says("l04-iterator-after",
            "A new iterator's first batch is certain to read **slower** than the next "
            "batch of a running iterator: it does all of that work and starts up on top "
            "of it.")
    for label in ("1 device", "2 replicas"):
        start = pair(l4, "l04-iterator-starts", f"{label}: a new iterator's first batch vs {label}")
        assert start["verdict"] == "slower", start
        first = l4.number("l04-iterator-starts", rf"{label}: a new iterator's first batch:\s+([\d.]+) ms")
        running = l4.number("l04-iterator-starts",
                            rf"{label}: a running iterator's next batch:\s+([\d.]+) ms")
        assert first > running, (label, first, running)


def test_a_new_distributed_iterator_starts_slower_than_one_on_one_device(l4):
    l4.says("l04-iterator-after",
            "so its start costs more than on one device, and the last pair reads "
            "**slower** too.")
    both = pair(l4, "l04-iterator-starts", "2 replicas: a new iterator's first batch vs 1 device")
    assert both["verdict"] == "slower", both


# --- Why a new iterator per epoch is slower (issue 35: the 0.68x that the old rule could not
# explain): the pair's extra time, split by a clock inside fit, against an iterator's life.

def phase(l4, label, name):
    """(ms on the clock, ms of CPU time) of one phase of ``label``'s iterator, timed alone."""
    text = l4.text("l04-iterator-cost")
    block = text[text.index(f"{label}, a new iterator, each phase alone:"):]
    match = re.search(rf"^\s*{re.escape(name)}:\s+([\d.]+) ms on the clock,\s+([\d.]+) ms of CPU time$",
                      block, re.M)
    assert match, (label, name, block[:600])
    return float(match[1]), float(match[2])


def extra(l4, label):
    """What a new iterator per epoch added per block, part by part, as l04-epoch-extra printed it."""
    line = re.search(rf"^{label}: a new iterator per epoch adds, per block \(median of \d+ pairs\): (.*)$",
                     l4.text("l04-epoch-extra"), re.M)
    assert line, l4.text("l04-epoch-extra")
    parts = {part: float(ms) for ms, part in re.findall(r"([+-][\d.]+) ms ([^,]+)", line[1])}
    assert set(parts) == {"on the clock", "of CPU time", "at the epoch edges", "in the steps"}, parts
    return parts


def test_the_shutdown_is_read_by_its_two_clocks_and_is_all_work_on_a_quiet_machine(l4):
    l4.says("l04-iterator-after",
            "Where the clock and the CPU time are about equal, the phase was work, done at "
            "once; where the clock runs far ahead of the CPU time, the process waited")
    l4.says("l04-iterator-after", "On a quiet machine the shutdown alone is short and all work")
    load = l4.nb.metadata.get("tfdist_edu", {}).get("run", {}).get("other_cores")  # this run's
    for label in ("1 device", "2 replicas"):
        for name in ("its shutdown after a whole epoch", "the same shutdown, tf.data autotuning off"):
            wall, cpu = phase(l4, label, name)
            if load is not None and load <= 0.25:  # the stored run was quiet: short, and all work
                assert wall < 10 and wall <= 1.5 * cpu + 0.2, (label, name, wall, cpu)


def test_the_extra_time_at_the_epoch_edges_is_the_makes_and_shutdowns_of_the_new_iterators(l4):
    l4.says("l04-iterator-after",
            "Both arms cross three epoch edges per block; at each of them the finite arm "
            "drops its iterator and makes a new one, while the endless arm keeps its own.")
    text = l4.text("l04-iterator-cost")
    for label in ("1 device", "2 replicas"):
        edges = extra(l4, label)["at the epoch edges"]
        made, _ = phase(l4, label, "make it")
        shut, _ = phase(l4, label, "its shutdown after a whole epoch")
        worth = re.search(rf"{label}, a new iterator, each phase alone:.*?the epoch edges in fit, from "
                          r"above:\s+([+-][\d.]+) ms per block, the time of ([\d.]+) makes and shutdowns",
                          text, re.S)
        assert worth and abs(float(worth[1]) - edges) < 0.11, (label, edges, worth and worth[0])
        # printed to 0.1 ms and 0.01 ms: the ratio is known to within its inputs' rounding
        ratio = edges / (made + shut)
        rounding = 0.05 + ratio * (0.01 / (made + shut) + 0.05 / abs(edges))
        assert abs(float(worth[2]) - ratio) < rounding, (worth[0], ratio, rounding)
        # three edges, each at least one make and one shutdown more: at least two, with room for noise
        assert float(worth[2]) >= 2, (label, worth[0])


def test_the_epoch_pair_and_its_split_agree(l4):
    l4.says("l04-iterator-after",
            "The CPU time says how much of the extra was work: where it adds far less "
            "than the clock, the new iterators mostly waited.")
    for label in ("1 device", "2 replicas"):
        found = pair(l4, "l04-iterator-per-epoch",
                     f"{label}, a new iterator per epoch vs {label}, one iterator per block")
        parts = extra(l4, label)
        assert found["cpu"], found
        if found["verdict"] == "slower":
            assert parts["on the clock"] > 0, (label, parts)
        if found["verdict"] == "faster":
            assert parts["on the clock"] < 0, (label, parts)
        assert parts["at the epoch edges"] > 0, (label, parts)


def test_steps_per_execution_ran_every_step_sixteen_to_a_call_to_a_finite_loss(l4):
    l4.says("l04-spe-after",
            "both arms run the same steps on the same batches, so any difference is "
            "the calls saved, 15 of every 16.")
    text = l4.text("l04-steps-per-execution")
    match = re.search(r"steps_per_execution=16: (\d+) optimizer steps in (\d+) calls \((\d+) "
                      r"blocks of (\d+) steps\); loss afterwards ([\d.]+|nan|inf) on", text)
    assert match, text
    steps, calls, blocks, per_block = (int(g) for g in match.groups()[:4])
    assert steps == blocks * per_block == 16 * calls, match.groups()
    assert float(match[5]) < 2.3  # finite, and below chance's log(10) = 2.30: it trained


def test_the_per_step_line_gives_the_share_of_a_cpu_step_of_several_milliseconds_a_call_takes(l4):
    l4.says("l04-spe-after",
            "Next to a CPU step of several milliseconds a call weighs less than next to "
            "an accelerator's short step; the \"per step\" line gives its share here.")
    match = re.search(r"per step: ([\d.]+) ms with 1 step per call, ([\d.]+) ms with 16; the calls "
                      r"saved ([+-][\d.]+) ms per step, (-?\d+)% of a step",
                      l4.text("l04-steps-per-execution"))
    assert match, l4.text("l04-steps-per-execution")
    one, sixteen, saved, share = float(match[1]), float(match[2]), float(match[3]), int(match[4])
    assert sixteen >= 2, sixteen  # a CPU step, without the calls, of several milliseconds
    assert abs((one - sixteen) - saved) < 0.011 and abs(100 * saved / one - share) <= 0.6, match[0]
    if saved > 0:  # the verdict agrees in direction wherever it decides
        assert pair(l4, "l04-steps-per-execution",
                    "1 device, batch 32, 16 steps per call vs")["verdict"] != "slower"


def test_no_sentence_blames_a_busy_machine_when_the_recorded_load_was_quiet(l4):
    l4.says("l04-spe-after", "The verdict says what these pairs can tell about it")
    recorded = re.search(r"other processes used ([\d.]+) of a core", l4.cell("l04-title").source)
    if recorded is None or float(recorded[1]) > 0.25:
        pytest.skip("no quiet load recorded for these outputs")
    for cell in l4.nb.cells:
        if cell.cell_type == "markdown":
            assert "busy machine" not in cell.source, (cell.get("id"), float(recorded[1]))


def test_steps_per_execution_under_mirrored_fails_only_with_the_default_cross_device_ops(l4):
    l4.says("l04-spe-after",
            "With Keras 3.15.1 and TensorFlow 2.21, `fit` with `steps_per_execution` "
            "above 1 fails under `MirroredStrategy()` with its default cross-device "
            "ops (on CPUs, a `CollectiveAllReduce`)")
    l4.says("l04-spe-after",
            "With `cross_device_ops=tf.distribute.ReductionToOneDevice()` the same "
            "`fit` runs.")
    text = l4.text("l04-spe-under-strategies")
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
    assert "no GPU" in l4.text("l04-mixed-precision-pair")
    l4.says("l34-mixed-md2", "when two arms differ this much, six pairs that all point the same way "
                             "are enough to decide")
    mixed = pair(l4, "l04-mixed-precision-pair", "1 device, batch 128, mixed_float16 vs")
    assert mixed["verdict"] == "slower", mixed
    assert int(mixed["n"]) == 6 and float(mixed["high"]) < 0.5, mixed
    assert mixed["setup"].startswith("global batch 128 on both"), mixed


def test_every_overflowing_step_is_skipped_and_halves_the_scale(l4):
    l4.says("l04-loss-scale-md",
            "when a step's gradients overflow to inf or NaN, the optimizer skips that "
            "step and halves the scale.")
    text = l4.text("l04-loss-scale-overflows")
    injected = re.findall(r"step (\d+): inf gradients injected -> step skipped: (\w+), scale "
                          r"halved: (\w+)", text)
    assert injected and all(s == h == "True" for _, s, h in injected), text
    assert "injected inf gradients that were applied anyway: none" in l4.text("l04-loss-scale-figure")


def test_two_simulated_replicas_add_cpu_work_that_shows_at_batch_32_and_fades_by_512(l4):
    l4.says("l04-grid-after",
            "Simulated devices are the *same* hardware: splitting the batch adds no "
            "computing power. It adds work: splitting every batch, an all-reduce of the "
            "gradients, and an update of every copy of the variables. That extra work is fixed "
            "per step, so it shows at small batches and fades as the batch grows: at batch 512, "
            "where a step is mostly the model's arithmetic, the interval of the CPU ratio lies "
            "wholly above batch 32's and reaches into 0.95x-1.05x")
    for batch in (32, 128, 512):
        found = pair(l4, "l04-grid-compare", f"2 replicas, batch {batch} vs 1 device, batch {batch}")
        assert found["setup"].startswith(f"global batch {batch} on both"), found
        assert found["cpu"], found
    small = pair(l4, "l04-grid-compare", "2 replicas, batch 32 vs 1 device, batch 32")["cpu"]
    assert small["verdict"] == "slower", small
    middle = pair(l4, "l04-grid-compare", "2 replicas, batch 128 vs 1 device, batch 128")["cpu"]
    assert middle["verdict"] != "faster", middle
    large = pair(l4, "l04-grid-compare", "2 replicas, batch 512 vs 1 device, batch 512")["cpu"]
    assert float(large["low"]) > float(small["high"]), (small, large)
    assert float(large["low"]) <= 1.05 and float(large["high"]) >= 1 / 1.05, large
