"""The worker side of a local cluster: how a training script reports to the launcher.

The launcher (:mod:`tfdist_edu.cluster`) gives each worker a few environment variables; these
functions read them and are no-ops when a script runs on its own (or on a real cluster):
:func:`report_start` (the epoch it starts or resumes from), :func:`report_epoch` (after each
epoch) and :func:`write_result` (a JSON-able dict the launcher returns). :func:`training_options`
reads the command line lesson 7's two worker scripts share.
"""

import argparse
import json
import os
import time
from pathlib import Path

# Environment variables the launcher gives each worker.
RESULT_ENV = "TFDIST_EDU_RESULT"  # path of the JSON file write_result() fills
PROGRESS_ENV = "TFDIST_EDU_PROGRESS"  # path of the file report_start/report_epoch append to
RUN_DIR_ENV = "TFDIST_EDU_RUN_DIR"  # a directory shared by all workers of one run
KILL_EPOCH_ENV = "TFDIST_EDU_KILL_AT_EPOCH"  # set for the worker launch_workers(kill=...) will kill
HOLD_EPOCH_ENV = "TFDIST_EDU_HOLD_AT_EPOCH"  # set for a coordinator run_coordinator(kill=...) watches
RESUME_ENV = "TFDIST_EDU_RESUME"  # the file the runner creates once that kill has landed

SCRIPTS_DIR = Path(__file__).resolve().parent / "scripts"


def training_options(state_dir_option):
    """Parse a worker script's options: ``--epochs``, ``--steps-per-epoch``, ``--per-worker-batch``
    and ``state_dir_option``, the required folder for checkpoints or backups (on a real cluster,
    storage that every worker sees)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--steps-per-epoch", type=int, default=10)
    parser.add_argument("--per-worker-batch", type=int, default=64)
    parser.add_argument(state_dir_option, required=True)
    return parser.parse_args()


def _append_progress(event, epoch):
    path = os.environ.get(PROGRESS_ENV)
    if path:
        with open(path, "a") as f:
            f.write(json.dumps({"event": event, "epoch": int(epoch), "time": time.time()}) + "\n")


def report_start(initial_epoch):
    """Tell the launcher training starts at ``initial_epoch`` (> 0 after a restore)."""
    _append_progress("start", initial_epoch)


def report_epoch(epoch):
    """Tell the launcher ``epoch`` epochs are complete (call after each epoch and its checkpoint).

    In the worker that ``launch_workers(kill=(k, epoch))`` targets, this call then waits for the
    launcher's SIGKILL, so the kill lands right after that epoch however fast training runs. In a
    coordinator run with ``run_coordinator(kill=(k, epoch))`` it waits until worker k is dead, so
    the next round is scheduled after the kill, not racing it.
    """
    _append_progress("epoch", epoch)
    if os.environ.get(KILL_EPOCH_ENV) == str(int(epoch)):
        print(f"epoch {epoch} done: waiting for the launcher to kill this worker", flush=True)
        time.sleep(3600)
    if os.environ.get(HOLD_EPOCH_ENV) == str(int(epoch)):
        resume = Path(os.environ[RESUME_ENV])
        for _ in range(1200):  # the runner kills within 0.1 s; give up waiting after 2 minutes
            if resume.exists():
                break
            time.sleep(0.1)


def write_result(data):
    """Write ``data`` (a JSON-able dict) as this worker's result; the launcher returns it.

    Returns the path written, or None when the script runs outside the launcher.
    """
    path = os.environ.get(RESULT_ENV)
    if path:
        Path(path).write_text(json.dumps(data))
    return path


def reference_script(name):
    """Path of lesson 7's worker script as the package ships it: "mwms_ctl" or "mwms_fit".

    Both are generated from the lesson's cells (scripts/lesson_scripts.py). mwms_ctl: a Keras 3
    custom loop with tf.train.CheckpointManager (``--checkpoint-dir`` is required). mwms_fit:
    ``Model.fit`` with BackupAndRestore through tf-keras (``--backup-dir`` is required; launch it
    with ``legacy_keras=True``).
    """
    if name not in ("mwms_ctl", "mwms_fit"):
        raise ValueError(f"no reference script {name!r}; choose 'mwms_ctl' or 'mwms_fit'")
    return SCRIPTS_DIR / f"{name}.py"
