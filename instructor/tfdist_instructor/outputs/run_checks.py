"""What `make outputs` checks before it stores a run in the lessons: a quiet machine, true claims.

A stored lesson is what students read first, so the run behind it must be one whose numbers
mean something: other processes used at most ``QUIET_CORES`` of a core on average while each
lesson ran (measured by the root conftest as the tour measures it, from /proc/stat less the
run's own processes), and every claims test in tests/claims/ passes on the executed copies.
"""

import os
import subprocess
import sys
from pathlib import Path

from tfdist_instructor import REPO_ROOT

QUIET_CORES = 0.25


def other_cores(run_nb):
    """Other processes' average cores while this executed notebook ran, or None if unrecorded."""
    return run_nb.metadata.get("tfdist_edu", {}).get("run", {}).get("other_cores")


def check_quiet(runs):
    """Raise ValueError naming every lesson whose run was not quiet (or records no load)."""
    loud = []
    for name, nb in runs:
        cores = other_cores(nb)
        if cores is None:
            loud.append(f"{name}: the run records no load (run `make test` again)")
        elif cores > QUIET_CORES:
            loud.append(f"{name}: other processes used {cores:.2f} cores on average")
    if loud:
        raise ValueError("refusing to store a run made on a busy machine (the limit is "
                         f"{QUIET_CORES} of a core used by other processes): " + "; ".join(loud)
                         + ". Stop other jobs and run `make test` again.")


def check_claims(executed, claims=None):
    """Run the claims tests on the executed lessons; raise ValueError with their failures."""
    claims = Path(claims or REPO_ROOT / "tests" / "claims")
    env = {**os.environ, "TFDIST_EDU_CLAIMS_DIR": str(Path(executed).resolve() / "notebooks")}
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             "-rfE", str(claims)], cwd=REPO_ROOT, env=env,
                            capture_output=True, text=True)
    if result.returncode not in (0, 5):  # 5: pytest found no claims tests to run
        failed = [line for line in result.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
        raise ValueError("refusing to store lessons whose claims fail on this run:\n"
                         + "\n".join(failed or result.stdout.splitlines()[-20:]))
    return result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
