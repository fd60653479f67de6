import json
import dataclasses
import time

import keras
import numpy as np
import pytest

from tfdist_edu import timing


def _run(name, epochs, examples=1000, **kw):
    return timing.RunTiming(name=name, epoch_seconds=epochs, examples_per_epoch=examples,
                            hardware="2 CPU cores", data="synthetic", **kw)


def test_timer_records_each_lap():
    timer = timing.Timer()
    for _ in range(2):
        with timer:
            time.sleep(0.01)
    assert len(timer.times) == 2 and timer.sum() >= 0.02


def test_steady_state_leaves_out_the_tracing_epoch():
    run = _run("a", [5.0, 1.0, 1.2, 1.1], steps_per_epoch=10)
    assert run.first_epoch_s == 5.0
    assert run.steady_epoch_s == pytest.approx(1.1)
    assert run.examples_per_s == pytest.approx(1000 / 1.1)
    assert run.steady_step_s == pytest.approx(0.11)


def test_single_epoch_run_uses_that_epoch():
    assert _run("a", [2.0]).steady_epoch_s == 2.0


def test_run_timing_is_json_serialisable():
    run = _run("a", [1.0], history={"loss": [0.5]})
    assert json.loads(json.dumps(dataclasses.asdict(run)))["history"]["loss"] == [0.5]


def test_callback_times_every_epoch_of_fit_and_keeps_metrics():
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
    model.compile("sgd", keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    run = timing.RunTiming(name="fit")
    x, y = np.random.rand(64, 4).astype("float32"), np.random.randint(0, 2, 64)
    model.fit(x, y, batch_size=16, epochs=3, verbose=0, callbacks=[timing.TimingCallback(run)])
    assert len(run.epoch_seconds) == 3 and all(t > 0 for t in run.epoch_seconds)
    assert len(run.history["loss"]) == 3 and "accuracy" in run.history
    assert run.steps_per_epoch == 4


def test_epoch_context_manager_appends_one_time():
    run = timing.RunTiming(name="ctl")
    with timing.epoch(run):
        time.sleep(0.01)
    assert len(run.epoch_seconds) == 1 and run.epoch_seconds[0] >= 0.01


def test_compare_reports_speedup_against_the_baseline_and_labels_the_source():
    table = timing.compare([_run("default", [3, 1.0]), _run("mirrored", [4, 2.0])])
    assert table.speedup("mirrored") == pytest.approx(0.5)
    text = str(table)
    assert "0.50x" in text and "measured on 2 CPU cores | synthetic" in text
    assert "<table>" in table._repr_html_()
    assert [row["run"] for row in table.rows] == ["default", "mirrored"]


@pytest.mark.parametrize("jit_compile", [False, True])
def test_callback_records_whether_fit_ran_with_xla(jit_compile):
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
    model.compile("sgd", keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  jit_compile=jit_compile)
    run = timing.RunTiming(name="fit")
    x, y = np.random.rand(32, 4).astype("float32"), np.random.randint(0, 2, 32)
    model.fit(x, y, batch_size=16, epochs=1, verbose=0, callbacks=[timing.TimingCallback(run)])
    assert run.jit_compile is jit_compile


def test_the_comparison_table_prints_each_runs_jit_compile():
    fast, plain = _run("default", [3, 1.0]), _run("mirrored", [4, 2.0])
    fast.jit_compile, plain.jit_compile = True, False
    rows = timing.compare([fast, plain]).rows
    assert [row["jit_compile"] for row in rows] == ["True", "False"]


def test_the_labels_say_jit_compile_once_when_every_run_agrees_and_run_by_run_when_not():
    same = timing.compare([_run("a", [1.0], jit_compile=False), _run("b", [1.0], jit_compile=False)])
    assert same.labels() == ["measured on 2 CPU cores | synthetic", "jit_compile=False on every run"]
    mixed = timing.compare([_run("gpu", [1.0], jit_compile=True), _run("mirrored", [1.0], jit_compile=False),
                            _run("loop", [1.0])])
    assert mixed.labels()[1] == "jit_compile differs: gpu True, mirrored False, loop not recorded"
    assert timing.compare([_run("a", [1.0])]).labels() == ["measured on 2 CPU cores | synthetic"]


def test_alternate_reverses_the_order_each_round_after_an_untimed_warmup():
    calls = []
    times = timing.alternate({"a": lambda: calls.append("a"), "b": lambda: calls.append("b")},
                             repeats=3, warmup=1)
    assert calls == ["a", "b", "a", "b", "b", "a", "a", "b"]
    assert [len(v) for v in times.values()] == [3, 3]


def test_step_clock_times_the_steps_after_the_first_and_their_median():
    clock = timing.StepClock()
    for pause in (0.05, 0.01, 0.01, 0.03):
        time.sleep(pause)
        clock.tick()
    wall, cpu = clock.steady()
    assert 0.045 <= wall < 0.2 and cpu >= 0
    assert 0.009 <= clock.median_step() < 0.03  # the 30 ms step does not move the median


def test_step_clock_refuses_a_block_of_one_step():
    clock = timing.StepClock()
    clock.tick()
    with pytest.raises(ValueError, match="at least 2 steps"):
        clock.steady()
