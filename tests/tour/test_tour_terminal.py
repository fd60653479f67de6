"""What the tour prints to a terminal carries none of TensorFlow's, absl's or gRPC's own lines:
no cuInit error on a machine without a GPU driver, no INFO/WARNING start-up banner, no cache or
rendezvous warnings (the patterns of tfdist_instructor.outputs.noise, which stored lessons are held to)."""

import os
import subprocess
import sys

import pytest

from tfdist_instructor.outputs import noise


@pytest.mark.slow
def test_the_tours_terminal_shows_the_tour_and_no_log_noise(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "TF_CPP_MIN_LOG_LEVEL"}  # as a student runs it
    result = subprocess.run(
        [sys.executable, "-m", "tfdist_edu.cli", "tour", "--epochs", "1", "--batch", "128",
         "--out", str(tmp_path / "report")], capture_output=True, text=True, timeout=900,
        env={**env, "TFDIST_EDU_DATA": "synthetic", "TFDIST_EDU_FAST": "1"})
    assert result.returncode == 0, result.stderr[-3000:]
    terminal = result.stdout + result.stderr
    log_noise = [(n.name, line) for n, line in noise.found(terminal) if n.strip]
    assert not log_noise, log_noise[:5]
    for warning in ("did not fully read the dataset being cached", "Local rendezvous is aborting"):
        assert warning not in terminal
    assert "Report written to" in result.stdout
