"""Tests for tfdist_instructor.compat: the strategy x training-path matrix, run for real, and its page.

The tests marked ``slow`` share one run of the whole matrix (21 combinations, each in fresh
processes, two at a time: about 2-4 minutes on two cores) and check docs/compatibility.md
against it, so the committed table cannot drift from what this machine measures.
"""

import difflib
import re

import psutil
import pytest

from tfdist_instructor import REPO_ROOT, compat

DOC = REPO_ROOT / "docs" / "compatibility.md"
REGENERATE = "make compat"


def accelerators(machine):
    """The GPU/TPU part of a machine label: "no GPU, no TPU" in "Linux x86_64, 2 CPU cores, no GPU, no TPU"."""
    return machine.split("CPU cores, ")[-1]


@pytest.fixture(scope="module")
def measured():
    """Every combination's Outcome, keyed by (strategy, path)."""
    outcomes = compat.run_matrix(parallel=compat.default_parallel(), echo=False)
    return {(o.strategy, o.path): o for o in outcomes}


# --------------------------------------------------------------------------------------------
# The whole matrix, for real


@pytest.mark.slow
def test_committed_page_matches_what_this_machine_measures(measured):
    committed = DOC.read_text()
    date = re.search(r"^Measured on (\S+) with", committed, re.M).group(1)
    machine = re.search(r"^Machine: (.*)\.$", committed, re.M).group(1)
    env = compat.environment()
    if accelerators(env["machine"]) != accelerators(machine):
        pytest.skip(f"the page was measured with {accelerators(machine)}; "
                    f"this machine has {accelerators(env['machine'])}")
    # The date, core count and versions say when and where the page was measured; the verdicts
    # must still hold on the versions installed now (a new TF release that changes one fails).
    versions = re.search(r"with TensorFlow (\S+), Keras (\S+), tf-keras (\S+), Python (\S+)\.$",
                         committed, re.M).groups()
    then = dict(zip(("tensorflow", "keras", "tf_keras", "python"), versions), machine=machine)
    expected = compat.render(list(measured.values()), {**env, **then}, date)
    diff = "\n".join(difflib.unified_diff(committed.splitlines(), expected.splitlines(), "committed", "measured now",
                                          lineterm=""))
    assert committed == expected, f"docs/compatibility.md no longer matches this machine; run `{REGENERATE}`:\n{diff}"


@pytest.mark.slow
def test_keras3_fit_fails_across_workers_where_the_custom_loop_and_tf_keras_fit_work(measured):
    for strategy in ("multi_worker", "parameter_server"):
        assert measured[strategy, "keras_fit"].status == compat.FAILS
        assert measured[strategy, "keras_fit"].error.startswith("ValueError")
        assert measured[strategy, "keras_ctl"].status == compat.WORKS
        assert measured[strategy, "tf_keras_fit"].status == compat.WORKS


@pytest.mark.slow
def test_multi_worker_runs_two_workers_that_end_with_the_same_weights(measured):
    detail = measured["multi_worker", "keras_ctl"].detail
    assert detail.startswith("2 workers, 2 replicas, same weights on both"), detail


@pytest.mark.slow
def test_single_machine_strategies_train_the_same_weights_as_one_device_on_every_path(measured):
    for strategy in ("default", "one_device", "mirrored", "central_storage"):
        for path in compat.PATHS:
            outcome = measured[strategy, path]
            # "wrong metrics" still means the weights matched the single-device replay
            assert outcome.status in (compat.WORKS, compat.WRONG_METRICS), f"{strategy} x {path}: {outcome.error}"
        assert measured[strategy, "keras_ctl"].status == compat.WORKS


@pytest.mark.slow
def test_tpu_row_records_the_no_tpu_error_on_a_machine_without_one(measured):
    if "no TPU" not in compat.environment()["machine"]:
        pytest.skip("this machine has a TPU")
    for path in compat.PATHS:
        outcome = measured["tpu", path]
        assert outcome.status == compat.NO_HARDWARE
        assert outcome.error.startswith("NoTPUError: No TPU found")


# --------------------------------------------------------------------------------------------
# Fast checks: no training


def test_a_combination_past_its_deadline_is_recorded_as_a_hang_and_leaves_no_process():
    outcome = compat.run_combination("mirrored", "keras_fit", deadline_s=1)
    assert outcome.status == compat.FAILS
    assert outcome.error == "TimeoutError: no result within 1 s (the run hung)"
    assert [p for p in psutil.Process().children(recursive=True) if p.status() != psutil.STATUS_ZOMBIE] == []


def test_unknown_strategy_or_path_is_refused_with_the_valid_choices():
    with pytest.raises(ValueError, match="choose one of: default, one_device"):
        compat.run_combination("horovod", "keras_fit")
    with pytest.raises(ValueError, match="choose one of keras_fit, keras_ctl, tf_keras_fit"):
        compat.run_combination("mirrored", "jax_fit")


def test_page_numbers_each_distinct_error_once_and_cites_known_upstream_issues():
    outcomes = [
        compat.Outcome("tpu", "keras_fit", compat.NO_HARDWARE, "NoTPUError: No TPU found."),
        compat.Outcome("tpu", "keras_ctl", compat.NO_HARDWARE, "NoTPUError: No TPU found."),
        compat.Outcome("multi_worker", "keras_fit", compat.FAILS, "ValueError: PerReplica"),
        compat.Outcome("multi_worker", "keras_ctl", compat.WORKS, detail="2 workers"),
    ]
    env = {"tensorflow": "2.21.0", "keras": "3.15.1", "tf_keras": "2.21.0", "python": "3.11.7",
           "machine": "Linux x86_64, 2 CPU cores, no GPU, no TPU"}
    page = compat.render(outcomes, env, "2026-01-02")
    assert "Measured on 2026-01-02 with TensorFlow 2.21.0, Keras 3.15.1, tf-keras 2.21.0" in page
    assert "| `TPUStrategy` | no TPU here [1] | no TPU here [1] |" in page
    assert "| `MultiWorkerMirroredStrategy` (2 workers) | fails: `ValueError` [2] | works |" in page
    assert "2. `ValueError: PerReplica` Reported upstream: https://github.com/keras-team/keras/issues/20585." in page
    assert "Keras 3 `Model.fit` fails here; Keras 3 custom loop works." in page
    wrong = compat.render([compat.Outcome("central_storage", "keras_fit", compat.WRONG_METRICS, "AssertionError: x")],
                          env, "2026-01-02")
    assert "| `CentralStorageStrategy` | trains, wrong metrics [1] |" in wrong
    assert "Keras 3 `Model.fit` reports wrong metrics here" not in wrong  # no path that works: no advice


@pytest.mark.parametrize(
    "result, status",
    [
        (dict(loss=1.30, changed=True, expected=1.3001, same_weights=True), compat.WORKS),
        (dict(loss=1.36, changed=True, expected=1.30, same_weights=True), compat.WRONG_METRICS),
        (dict(loss=1.30, changed=True, expected=1.30, same_weights=False), compat.FAILS),
        (dict(loss=float("nan"), changed=True, expected=None, same_weights=None), compat.FAILS),
        (dict(loss=1.30, changed=False, expected=None, same_weights=None), compat.FAILS),
        (dict(loss=1.41, changed=True, expected=None, same_weights=None), compat.WORKS),  # async: no replay
    ],
)
def test_verdict_compares_a_run_with_its_single_device_replay(result, status):
    assert compat.probe._verdict(result, replicas=2)[0] == status


def test_error_lines_hide_what_changes_between_runs():
    raw = ("Attempt to convert (PerReplica:{ 0: <tf.Tensor: shape=(16, 8), dtype=float32, numpy=\n"
           "array([[0.1, 0.2]])> }) at 0x7f00ab on localhost:41234 in /tmp/tfdist-x/ckpt")
    assert compat.outcome.one_line(raw) == (
        "Attempt to convert (PerReplica:{ 0: <tf.Tensor: shape=(16, 8), dtype=float32> }) "
        "at 0x... on localhost:PORT in /tmp/...")
    assert len(compat.outcome.one_line("x" * 500)) == 200


# --------------------------------------------------------------------------------------------
# Sentinels: the upstream bugs the course works around, still there (docs/upstream.md)

SENTINELS = [
    ("multi_worker", compat.FAILS, "keras-team/keras#20585",
     "lesson 7 (the tf-keras detour), tfdist_edu/scripts/mwms_fit.py, deck 6"),
    ("parameter_server", compat.FAILS, "keras-team/keras#18624",
     "lesson 8 (the custom loop with ClusterCoordinator), deck 6"),
    ("central_storage", compat.WRONG_METRICS, "Keras 3 CentralStorage metrics (no upstream report yet)",
     "lesson 8 (CentralStorageStrategy with fit)"),
]


@pytest.mark.slow
@pytest.mark.parametrize("strategy, status, issue, where", SENTINELS, ids=[s[0] for s in SENTINELS])
def test_sentinel_keras3_fit_still_needs_the_courses_workaround(measured, strategy, status, issue, where):
    import keras  # keras.__version__: the nightly canary's distribution is named keras-nightly

    outcome = measured[strategy, "keras_fit"]
    assert outcome.status == status, (
        f"{issue} looks fixed on Keras {keras.__version__}: Keras 3 fit under {strategy} "
        f"now {outcome.status} ({outcome.error or outcome.detail}). Update {where}, "
        f"docs/compatibility.md (make compat) and docs/upstream.md, then this sentinel.")
