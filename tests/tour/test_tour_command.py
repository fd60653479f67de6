import json
import os
import subprocess
import sys

import pytest

from tfdist_edu import tour
from tfdist_edu.data import specs

REAL_FILES = specs.SPECS["fashion_mnist"].idx_debian


def test_prepare_devices_refuses_zero_replicas():
    with pytest.raises(ValueError, match="at least 1"):
        tour.prepare_devices(0)


def _cli(*args, env=None):
    return subprocess.run([sys.executable, "-m", "tfdist_edu.cli", *args], capture_output=True,
                          text=True, timeout=600, env={**os.environ, **(env or {})})


@pytest.fixture(scope="module")
def one_tour(course_tour):
    """The session's short tour (tests/conftest.py): its report folder, its finished run and
    its results.json."""
    result = course_tour.result()
    assert result.returncode == 0, result.stderr[-3000:]
    return course_tour.out, result, json.loads((course_tour.out / "results.json").read_text())


@pytest.mark.slow
def test_tour_writes_a_labelled_report_offline(one_tour):
    out, result, results = one_tour
    assert "Report written to" in result.stdout
    assert [r["name"] for r in results["runs"]] == [f"{s} {m}" for s, m in tour.RUNS]
    assert all(r["epoch_seconds"] and r["data"] for r in results["runs"])
    assert {r["replicas"] for r in results["runs"]} == {1, 2}
    # A fair race: one global batch and one jit_compile on every arm, alternated in blocks.
    assert {r["global_batch"] for r in results["runs"]} == {256}
    assert {r["jit_compile"] for r in results["runs"]} == {False}
    assert {len(r["block_seconds"]) for r in results["runs"]} == {tour.BLOCKS_PER_EPOCH}
    assert f"round {tour.BLOCKS_PER_EPOCH}/{tour.BLOCKS_PER_EPOCH}" in result.stdout
    assert "Mirrored vs default with fit: " in results["reading"] and "95% interval" in results["reading"]
    # The steadiness probes ran before the arms, and the memory probe after every round.
    assert "cache-resident probe:" in result.stdout and "memory-bound probe:" in results["reading"]
    assert len(results["steadiness"]["memory_gb_per_s_after_each_round"]) == tour.BLOCKS_PER_EPOCH
    for name in ("report.md", "report.html", "block_times.png", "training_curves.png"):
        assert (out / name).stat().st_size > 1000
    assert results["reading"] in (out / "report.md").read_text()


@pytest.mark.slow
def test_tour_report_names_its_data_real_fashion_mnist_when_its_files_are_installed_else_synthetic(one_tour):
    out, result, results = one_tour
    if os.path.isdir(REAL_FILES):
        assert all(f"real (IDX files in {REAL_FILES})" in r["data"] for r in results["runs"])
        assert f"Data: Fashion-MNIST: real (IDX files in {REAL_FILES})" in (out / "report.md").read_text()
        assert "SYNTHETIC" not in result.stdout
    else:
        assert "SYNTHETIC" in result.stdout
        assert all("SYNTHETIC" in r["data"] for r in results["runs"])


@pytest.mark.skipif(not os.path.isdir(REAL_FILES), reason=f"{REAL_FILES} is absent")
def test_doctor_names_the_folder_of_the_real_files():
    result = _cli("doctor", "--probe-seconds", "1", env={"TFDIST_EDU_DATA": "auto"})
    assert result.returncode == 0, result.stderr[-2000:]
    assert f"fashion_mnist: idx in {REAL_FILES} (Debian package" in result.stdout


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


def test_doctor_reports_hardware_data_sources_and_the_steadiness_probe():
    result = _cli("doctor", "--probe-seconds", "1", env={"TFDIST_EDU_DATA": "synthetic"})
    assert result.returncode == 0, result.stderr[-2000:]
    assert "CPU" in result.stdout and "fashion_mnist" in result.stdout
    assert "cache-resident probe: 1 one-second windows" in result.stdout
    assert "memory-bound probe: 1 one-second windows" in result.stdout


def test_doctor_refuses_a_probe_of_no_seconds_in_one_line():
    result = _cli("doctor", "--probe-seconds", "0")
    assert result.returncode == 2 and "must be at least 1, got 0" in result.stderr


@pytest.mark.slow
def test_a_competing_cpu_load_flags_the_tour_as_disturbed(tmp_path):
    # One busy process keeps up to a core busy, far over the quarter of a core above which the
    # tour says its numbers are not to be read (a second would only slow the test and whatever
    # runs beside it).
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"])]
    try:
        out = tmp_path / "report"
        result = _cli("tour", "--epochs", "1", "--batch", "128", "--out", str(out),
                      env={"TFDIST_EDU_DATA": "synthetic", "TFDIST_EDU_FAST": "1"})
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
    assert result.returncode == 0, result.stderr[-3000:]
    reading = json.loads((out / "results.json").read_text())["reading"]
    assert "Read this run with care (other processes used" in reading
    assert "it includes tracing" not in reading
