"""The job the grader sends the runner has one typed definition both sides import."""

import json

import pytest

from tfdist_instructor.grading import job

FIELDS = {"notebook": "{}", "name": "05_ring_allreduce.ipynb", "timeout_s": 60.0, "cell_limit_s": 30.0,
          "probe_reserve_s": 15.0, "output_limit": 1000, "clock": False,
          "probes": {"q1": {"source": "def probe(inputs):\n    return 1\n", "inputs": {"n": 4}, "helpers": {}}}}


def test_a_job_made_by_the_grader_reads_back_the_same_in_the_runner():
    made = job.make(**FIELDS)
    assert job.read(json.dumps(made).encode()) == made == FIELDS


@pytest.mark.parametrize("change, said", [
    ({"cell_limit_s": None}, "missing: cell_limit_s; unknown: none"),
    ({"timeout": 60}, "missing: none; unknown: timeout"),
])
def test_a_job_with_a_missing_or_unknown_key_is_refused_naming_it(change, said):
    fields = {k: v for k, v in {**FIELDS, **change}.items() if v is not None}
    with pytest.raises(TypeError, match=f"a grading job must have exactly .*; {said}"):
        job.make(**fields)


def test_a_probe_without_its_helpers_is_refused():
    probes = {"q2": {"source": "", "inputs": {}}}
    with pytest.raises(TypeError, match="a grading probe q2 must have exactly helpers, inputs, source; "
                                        "missing: helpers"):
        job.make(**{**FIELDS, "probes": probes})


def test_the_runner_refuses_a_job_off_the_contract_naming_the_key():
    """The runner as launch starts it: a job with a renamed key stops it before any kernel, saying which."""
    import os
    import subprocess
    import sys

    renamed = {**{k: v for k, v in FIELDS.items() if k != "timeout_s"}, "timeout": 60}
    done = subprocess.run([sys.executable, "-m", "tfdist_instructor.grading.runner"], input=json.dumps(renamed),
                          capture_output=True, text=True, timeout=120, env=os.environ)
    assert done.returncode != 0 and done.stdout == ""
    assert "TypeError: a grading job must have exactly" in done.stderr
    assert "missing: timeout_s; unknown: timeout" in done.stderr
