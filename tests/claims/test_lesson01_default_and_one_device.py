"""Lesson 1's claims about its results, checked on the normal-mode run that printed them."""

import math
import re

STEM = "01_default_and_one_device"


def test_every_strategy_gives_the_same_sum_and_mirrored_means_over_replicas(lesson):
    run = lesson(STEM)
    run.says("4668ef75", "Every strategy gives the same `SUM`: the partial sums change with the number "
                         "of replicas, their total does not. `MEAN` is different under "
                         "`MirroredStrategy`: it averages over *replicas*, not over examples")
    rows = {name: (partial, float(total), float(mean)) for name, partial, total, mean in re.findall(
        r"^(\w+)\s+partial sums \[([^\]]*)\]\s+SUM\s+([0-9.]+)\s+MEAN\s+([0-9.]+)$",
        run.text("d5fe1920"), re.M)}
    assert set(rows) == {"default", "one_device", "mirrored"}, rows
    squares = sum(n * n for n in range(1, 9))
    for name, (partial, total, mean) in rows.items():
        replicas = len(partial.split(","))
        assert total == squares and mean == total / replicas, (name, rows[name])
    assert len(rows["mirrored"][0].split(",")) == 2
    run.says("38602bc1", "SUM gives 204, MEAN gives 102.")


def test_the_printed_rule_is_keras_own_and_turns_xla_off_under_strategies_and_on_cpus(lesson):
    run = lesson(STEM)
    text = run.text("2a55c854")
    assert re.match(r"Keras \S+: keras\.src\.\S+\._resolve_auto_jit_compile\n", text), text[:200]
    run.says("ec15fefe", "With the TensorFlow backend the rule makes three tests, in order. A machine "
                         "with only CPUs gets no XLA. A model that Keras saw being created under a "
                         "strategy gets no XLA")
    assert text.index("Disable XLA on CPU-only machines") < text.index("Disable XLA with tf.distribute")


def test_only_models_created_in_a_strategys_scope_record_it_and_cpus_get_no_xla(lesson):
    run = lesson(STEM)
    text = run.text("23c65cf9")
    rows = dict((where.strip(), (recorded, jit)) for where, recorded, jit in re.findall(
        r"^(outside any scope|under tf\.device\(\S+\)|in \w+'s scope)\s+(True|False)\s+(True|False)\s+XLA",
        text, re.M))
    assert len(rows) == 4, text
    run.says("8cbe9331", "the same model created under `OneDeviceStrategy` or `MirroredStrategy` does not")
    recorded = {where: r == "True" for where, (r, _) in rows.items()}
    assert recorded == {where: where.startswith("in ") for where in rows}, recorded
    run.says("8cbe9331", "On a CPU-only machine the third column is all False")
    if "this machine: CPUs only" in text:
        assert all(jit == "False" for _, jit in rows.values()), rows


def test_a_strategy_with_more_replicas_takes_fewer_steps_of_one_global_batch_each(lesson):
    run = lesson(STEM)
    run.says("fb3a4976", "Each step consumes one *global* batch, so a strategy with more replicas takes "
                         "fewer steps per epoch.")
    rows = re.findall(r"^(\w+)\s+jit_compile=(\w+)\s+(\d+) replica\(s\) x \d+ = global batch\s+(\d+): "
                      r"(\d+) steps per epoch \((\d+) / \d+ rounded up: (\d+)\)$", run.text("a9a6b041"), re.M)
    assert len(rows) == 3, run.text("a9a6b041")
    for name, jit, replicas, batch, steps, examples, expected in rows:
        assert int(steps) == int(expected) == math.ceil(int(examples) / int(batch)), name
        assert jit == "False"
    steps = {name: int(s) for name, _, _, _, s, _, _ in rows}
    assert steps["mirrored"] < steps["default"] == steps["one_device"]


def test_the_default_and_one_device_runs_reach_accuracies_a_little_apart(lesson):
    run = lesson(STEM)
    run.says("f171c808", "Their accuracies can differ a little")
    text = run.text("f7b8349c")
    finals = {}
    for name, block in re.findall(r"--- (\w+), jit_compile=\w+\n(.*?)(?=\n--- |\Z)", text, re.S):
        finals[name] = float(re.findall(r"val_accuracy: ([0-9.]+)", block)[-1])
    assert set(finals) == {"default", "one_device", "mirrored"}, finals
    assert abs(finals["default"] - finals["one_device"]) < 0.02, finals


def _verdicts(run):
    found = [(re.fullmatch(r"(\w+) vs default, (wall|CPU) time", m["what"]), m)
             for m in run.paired_lines("l01-fair-code")]
    return {arm.groups(): (m["verdict"], float(m["median"]), int(m["n"]), float(m["low"]), float(m["high"]))
            for arm, m in found if arm}


def _seconds_per_round(run):
    """{arm: (wall seconds, CPU seconds)} of each alternated round of the fair comparison."""
    text = run.text("l01-fair-code")
    table = re.findall(r"^ *(\w+) +wall seconds per round: (.*)\n +CPU seconds per round: +(.*)$", text, re.M)
    assert table, text
    return {arm: ([float(v) for v in wall.split(", ")], [float(v) for v in cpu.split(", ")])
            for arm, wall, cpu in table}


def test_the_fair_comparison_gives_every_arm_the_same_batch_steps_and_jit_compile(lesson):
    run = lesson(STEM)
    run.says("l01-fair-md", "the same global batch (here 128: one device takes it whole, "
                            "`MirroredStrategy` gives each replica 64), the same number of steps, "
                            "the same `jit_compile`, all printed")
    text = run.text("l01-fair-code")
    match = re.search(r"every arm: global batch (\d+), (\d+) steps a round, jit_compile=(\w+); "
                      r"1 untimed round, then (\d+) alternated rounds", text)
    assert match and int(match[1]) == 128 and int(match[2]) >= 100 and int(match[4]) >= 6, text
    rounds = _seconds_per_round(run)
    assert set(rounds) == {"default", "one_device", "mirrored"}, text
    assert {len(seconds) for both in rounds.values() for seconds in both} == {int(match[4])}
    assert "/tmp" not in text


def test_each_printed_verdict_follows_from_the_middle_half_of_its_paired_ratios(lesson):
    run = lesson(STEM)
    run.says("l01-fair-md", "*faster* or *slower* when the whole middle half lies above or below 1, and "
                            "*no measurable difference* when it includes 1")
    verdicts = _verdicts(run)
    assert set(verdicts) == {(n, c) for n in ("one_device", "mirrored") for c in ("wall", "CPU")}, verdicts
    for key, (verdict, median, n, low, high) in verdicts.items():
        assert low <= median <= high and n >= 6
        # the quartiles are printed to 0.01: a bound within rounding of 1 may read either way
        if min(abs(low - 1), abs(high - 1)) > 0.005:
            assert verdict == run.middle_half_verdict(low, high), (key, verdict, low, high)


def test_cpu_time_does_not_count_the_waits_that_other_processes_cause(lesson):
    run = lesson(STEM)
    run.says("l01-fair-md", "**CPU time** (`time.process_time()`) is the work this process did, added "
                            "up over all its threads: it does not grow while the process waits for a "
                            "core that another program holds.")
    text = run.text("l01-fair-code")
    cores = int(re.search(r"of the (\d+) cores", text)[1])
    both = [(w, c) for wall, cpu in _seconds_per_round(run).values() for w, c in zip(wall, cpu)]
    # CPU time is at most the wall time times the cores the process could use
    assert all(c <= w * cores * 1.05 for w, c in both), both


def test_the_reading_of_the_verdicts_names_every_outcome_instead_of_predicting_one(lesson):
    run = lesson(STEM)
    prose = run.cell("f171c808").source
    for outcome in ("*faster*", "*slower*", "*no measurable difference*"):
        assert outcome in prose, f"the reading does not say what {outcome!r} would mean"
    assert "expect their times to be close" not in prose
    run.says("f171c808", "Trust the CPU-time verdict for the cost of the strategy, and measure wall "
                         "time again on a quiet machine.")
