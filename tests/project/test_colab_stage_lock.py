"""Two runs of the Colab stage at once never build or install into the same root together: the
second one says it waits, and goes on only when the first has ended (scripts/colab_stack.sh)."""

import fcntl
import os
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "colab_stack.sh"
COLAB_ROOT = ROOT / ".colab-root" / "trixie"


def _prepared():
    """The lock file the stage takes, when the stage is ready here (so `prepare` costs seconds)."""
    if os.geteuid() == 0 and (COLAB_ROOT / ".made").exists():
        ready = (COLAB_ROOT / "opt" / "venv-colab" / ".deps-installed").exists()
        return Path(f"{COLAB_ROOT}.lock") if ready else None
    ready = (ROOT / ".venv-colab" / ".deps-installed").exists()
    return ROOT / ".venv-colab.lock" if ready else None


def test_a_second_run_waits_for_the_first_and_says_so():
    lock = _prepared()
    if lock is None:
        pytest.skip("the Colab stage is not prepared here (make colab-test, or make test, makes it)")
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # as a first run holds it
        second = subprocess.Popen(["bash", str(SCRIPT)], env={**os.environ, "COLAB_STAGE": "prepare"},
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        time.sleep(3)
        assert second.poll() is None, second.communicate()[0]  # still waiting
    out, _ = second.communicate(timeout=120)
    assert second.returncode == 0, out
    assert f"Colab stage: another run holds {lock}; waiting for it to end" in out, out
    assert "Colab stage: Python" in out, out
