"""What the tour prints to a terminal carries none of TensorFlow's, absl's or gRPC's own lines:
no cuInit error on a machine without a GPU driver, no INFO/WARNING start-up banner, no cache or
rendezvous warnings (the patterns of tfdist_instructor.outputs.noise, which stored lessons are held to).
The run read is the session's tour (tests/conftest.py), started as a student starts it, with
TensorFlow's log level unset."""

import pytest

from tfdist_instructor.outputs import noise


@pytest.mark.slow
def test_the_tours_terminal_shows_the_tour_and_no_log_noise(course_tour):
    result = course_tour.result()
    assert result.returncode == 0, result.stderr[-3000:]
    terminal = result.stdout + result.stderr
    log_noise = [(n.name, line) for n, line in noise.found(terminal) if n.strip]
    assert not log_noise, log_noise[:5]
    for warning in ("did not fully read the dataset being cached", "Local rendezvous is aborting"):
        assert warning not in terminal
    assert "Report written to" in result.stdout
