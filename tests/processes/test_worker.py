"""Tests for tfdist_edu.worker: how a worker script reports to the launcher."""


import json

import pytest

from tfdist_edu import worker


def test_worker_helpers_report_progress_and_results_through_the_launcher_files(
    tmp_path, monkeypatch
):
    monkeypatch.setenv(worker.PROGRESS_ENV, str(tmp_path / "progress"))
    monkeypatch.setenv(worker.RESULT_ENV, str(tmp_path / "result.json"))
    worker.report_start(2)
    worker.report_epoch(3)
    worker.write_result({"loss": [0.5]})
    marks = [json.loads(line) for line in (tmp_path / "progress").read_text().splitlines()]
    assert [(m["event"], m["epoch"]) for m in marks] == [("start", 2), ("epoch", 3)]
    assert json.loads((tmp_path / "result.json").read_text()) == {"loss": [0.5]}


def test_training_options_read_the_shared_options_and_require_the_state_folder(monkeypatch, capsys):
    monkeypatch.setattr("sys.argv", ["mwms_ctl.py", "--epochs", "5", "--checkpoint-dir", "ckpt"])
    args = worker.training_options("--checkpoint-dir")
    assert (args.epochs, args.steps_per_epoch, args.per_worker_batch, args.checkpoint_dir) == (5, 10, 64, "ckpt")
    monkeypatch.setattr("sys.argv", ["mwms_fit.py", "--epochs", "5"])
    with pytest.raises(SystemExit) as refused:
        worker.training_options("--backup-dir")
    assert refused.value.code == 2
    assert "the following arguments are required: --backup-dir" in capsys.readouterr().err


# --------------------------------------------------------------------------------------------
# Real clusters
