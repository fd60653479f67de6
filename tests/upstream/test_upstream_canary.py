"""`make upstream-canary` and its NIGHTLY switch, read without the network: DRY_RUN=1 makes
scripts/upstream_canary.sh print the commands it would run (installs, then the tests)."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "upstream_canary.sh"
sys.path.insert(0, str(ROOT / "scripts"))
import canary_requirements  # noqa: E402

REPLACED = {"tensorflow", "keras", "tf-keras"}


def dry_run(**env):
    """The commands the canary would run, each split as the shell would."""
    result = subprocess.run(["bash", str(SCRIPT), "-x"], capture_output=True, text=True, timeout=60,
                            env={**os.environ, "DRY_RUN": "1", "PYTHON": sys.executable, **env})
    assert result.returncode == 0, result.stderr
    return [shlex.split(line) for line in result.stdout.splitlines()]


def installs(commands):
    """The arguments after `pip install` of each install command, in order."""
    return [c[c.index("install") + 1:] for c in commands if c[1:4] == ["-m", "pip", "install"]]


def names(arguments):
    return {canary_requirements.name_of(a) for a in arguments if not a.startswith("-")}


def test_by_default_the_canary_installs_the_newest_releases_and_runs_every_check():
    commands = dry_run()
    pip = installs(commands)
    assert ["--upgrade", "tensorflow", "keras", "tf-keras", "tensorflow-datasets"] == pip[1][-5:]
    assert not any("nightly" in a for args in pip for a in args)
    tests = [c for c in commands if "pytest" in c]
    assert [c[c.index("pytest") + 3] for c in tests] == [
        "tests/upstream", "tests/instructor/test_compat.py", "notebooks"]
    assert all(c[-1] == "-x" for c in tests)  # pytest's arguments are passed on
    assert "TFDIST_EDU_FAST=1" in tests[-1]


def test_nightly_1_installs_the_nightlies_and_no_release_they_replace():
    commands = dry_run(NIGHTLY="1")
    pip = installs(commands)
    assert pip[1] == ["--quiet", "--disable-pip-version-check", "--upgrade", "--pre",
                      "tf-nightly", "keras-nightly", "tf-keras-nightly"]
    requirements = names(pip[2])
    assert not requirements & REPLACED and "tfdist-edu" not in requirements
    assert {"tensorflow-datasets", "pytest", "nbval", "ipywidgets", "otter-grader", "jax",
            "xprof", "tensorboard"} <= requirements
    assert pip[3][-5:] == ["--no-deps", "-e", ".", "-e", "./instructor"]
    check = next(c for c in commands if "--absent" in c)
    assert set(check[check.index("--absent") + 1:]) == REPLACED
    assert commands.index(check) < next(i for i, c in enumerate(commands) if "pytest" in c)


def test_both_canaries_install_the_extras_make_test_installs():
    # Without the jax extra lesson 9 stops at its first cell (JaxMissingError), seen on the
    # nightly canary of 2026-11-26.
    makefile = (ROOT / "Makefile").read_text()
    tested = re.search(r'-e "\.\[([a-z,]+)\]"', makefile.split(".test-installed:", 1)[1]).group(1)
    assert set(canary_requirements.EXTRAS) == set(tested.split(","))
    release = installs(dry_run())[2]
    assert f".[{','.join(canary_requirements.EXTRAS)}]" in release


def test_a_nightly_value_other_than_0_or_1_stops_with_one_line_before_any_work():
    result = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, timeout=60,
                            env={**os.environ, "DRY_RUN": "1", "NIGHTLY": "yes"})
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == "NIGHTLY must be 0 or 1, got 'yes'\n"


def test_make_passes_the_switch_to_the_script():
    result = subprocess.run(["make", "-n", "upstream-canary", "NIGHTLY=1"], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert "NIGHTLY=1 scripts/upstream_canary.sh" in result.stdout


def test_the_absent_check_fails_on_an_installed_distribution_under_any_spelling():
    script = [sys.executable, str(ROOT / "scripts" / "canary_requirements.py"), "--absent"]
    found = subprocess.run([*script, "no-such-distribution", "PyYAML"], capture_output=True, text=True)
    assert found.returncode == 1 and "pyyaml" in found.stderr.lower()
    assert subprocess.run([*script, "no-such-distribution"]).returncode == 0


def test_the_workflow_runs_the_releases_weekly_and_the_nightlies_every_day():
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "upstream-canary.yml").read_text())
    crons = [entry["cron"] for entry in workflow[True]["schedule"]]  # YAML reads `on:` as True
    daily = next(c for c in crons if c.endswith("* * *"))
    job = workflow["jobs"]["canary"]
    assert f"github.event.schedule == '{daily}'" in job["env"]["NIGHTLY"]
    assert "inputs.nightly" in job["env"]["NIGHTLY"]
    assert job["steps"][-1]["run"] == "make upstream-canary NIGHTLY=$NIGHTLY"
