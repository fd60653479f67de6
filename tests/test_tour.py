import json
import os
import subprocess
import sys

import pytest

from tfdist_edu import timing, tour


def _run(name, replicas, batch, seconds, acc):
    return timing.RunTiming(name=name, replicas=replicas, global_batch=batch,
                            epoch_seconds=seconds, examples_per_epoch=4096,
                            history={"val_accuracy": [acc]})


def _runs(mirrored_seconds):
    return [_run("default fit", 1, 64, [4.0, 2.0], 0.9),
            _run("default custom loop", 1, 64, [5.0, 1.5], 0.9),
            _run("mirrored fit", 2, 128, [9.0, mirrored_seconds], 0.85),
            _run("mirrored custom loop", 2, 128, [6.0, 5.0], 0.86)]


def test_reading_explains_a_slower_mirrored_run_on_simulated_devices():
    text = tour.reading(_runs(8.0), "2 logical CPU devices simulated on one CPU")
    assert "4.0x slower" in text and "share the same processor" in text
    assert "2x fewer optimizer steps" in text and "85.0% (mirrored fit)" in text
    assert "first epoch of default custom loop took 5.0s against 1.5s" in text


def test_reading_makes_no_tracing_claim_when_no_first_epoch_was_slower():
    runs = [_run(name, 1, 64, [1.0, 2.0], 0.9) for name in
            ("default fit", "default custom loop", "mirrored fit", "mirrored custom loop")]
    assert "tracing" not in tour.reading(runs, "2 GPUs")


def test_reading_reports_a_faster_mirrored_run_on_real_gpus():
    text = tour.reading(_runs(1.0), "2 GPUs")
    assert "2.0x faster" in text and "share the same processor" not in text


def test_reading_calls_throughputs_within_five_percent_about_as_fast():
    # 3,603 vs 3,767 examples/s was once printed as "1.0x slower".
    text = tour.reading(_runs(2.0 * 3767 / 3603), "2 logical CPU devices simulated on one CPU")
    assert "about as fast (0.96x)" in text
    assert "slower" not in text.split(".")[0] and "share the same processor" not in text


def test_prepare_devices_refuses_zero_replicas():
    with pytest.raises(ValueError, match="at least 1"):
        tour.prepare_devices(0)


def _cli(*args, env=None):
    return subprocess.run([sys.executable, "-m", "tfdist_edu.cli", *args], capture_output=True,
                          text=True, timeout=600, env={**os.environ, **(env or {})})


@pytest.mark.slow
def test_tour_writes_a_labelled_report_offline(tmp_path):
    out = tmp_path / "report"
    result = _cli("tour", "--epochs", "1", "--batch", "128", "--out", str(out),
                  env={"TFDIST_EDU_DATA": "synthetic"})
    assert result.returncode == 0, result.stderr[-3000:]
    assert "SYNTHETIC" in result.stdout and "Report written to" in result.stdout
    results = json.loads((out / "results.json").read_text())
    assert [r["name"] for r in results["runs"]] == [f"{s} {m}" for s, m in tour.RUNS]
    assert all(r["epoch_seconds"] and "SYNTHETIC" in r["data"] for r in results["runs"])
    assert {r["replicas"] for r in results["runs"]} == {1, 2}
    for name in ("report.md", "report.html", "epoch_times.png", "training_curves.png"):
        assert (out / name).stat().st_size > 1000
    assert results["reading"] in (out / "report.md").read_text()


def test_tour_with_impossible_replicas_says_so_without_a_traceback():
    result = _cli("tour", "--replicas", "0")
    assert result.returncode == 2
    assert "at least 1" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("args, message", [
    (["--epochs", "0"], "--epochs must be at least 1"),
    (["--batch", "0"], "--batch must be at least 1"),
    (["--out", "{file}/report"], "is not a folder this user can write to"),
])
def test_bad_arguments_are_refused_in_one_line_before_any_training(tmp_path, args, message):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    result = _cli("tour", *[a.format(file=blocker) for a in args])
    assert result.returncode == 2 and message in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "==" not in result.stdout  # no run started


def test_unknown_dataset_lists_the_choices():
    result = _cli("tour", "--dataset", "mnist")
    assert result.returncode == 2 and "fashion_mnist" in result.stderr


def test_doctor_reports_hardware_and_data_sources():
    result = _cli("doctor", env={"TFDIST_EDU_DATA": "synthetic"})
    assert result.returncode == 0, result.stderr[-2000:]
    assert "CPU" in result.stdout and "fashion_mnist" in result.stdout
