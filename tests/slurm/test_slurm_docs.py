"""docs/multi-host.md shows the job scripts that ran, valid Kubernetes manifests, and the test
cluster explains what stops it from starting. None of these needs a running Slurm."""

import re
import subprocess
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

import minislurm

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "multi-host.md"
# The oldest and newest Kubernetes whose schemas kubernetes-validate 1.37 bundles (offline).
KUBERNETES_VERSIONS = ["1.25.0", "1.37.0"]


def code_blocks(language):
    return re.findall(rf"```{language}\n(.*?)```", DOC.read_text(), flags=re.DOTALL)


SCRIPTS = sorted(p.name for p in (ROOT / "docs" / "slurm").glob("*.sbatch"))


@pytest.mark.parametrize("script", SCRIPTS)
def test_docs_show_each_slurm_job_script_verbatim(script):
    text = (ROOT / "docs" / "slurm" / script).read_text()
    assert text in code_blocks("bash"), f"docs/multi-host.md does not show {script} as it is"


def test_recorded_run_shows_the_job_script_as_it_is_now():
    recorded = (ROOT / "docs" / "slurm-recorded-run.md").read_text()
    assert (ROOT / "docs" / "slurm" / "mwms_tf_config.sbatch").read_text() in recorded


def kubernetes_manifests():
    return [doc for block in code_blocks("yaml") for doc in yaml.safe_load_all(block) if doc]


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_kubernetes_manifests_in_docs_pass_strict_schema_validation(version):
    manifests = kubernetes_manifests()
    assert [m["kind"] for m in manifests] == ["Service", "Job"]
    for manifest in manifests:
        kubernetes_validate.validate(manifest, version, strict=True)


def test_schema_validation_rejects_a_misspelled_job_field():
    job = next(m for m in kubernetes_manifests() if m["kind"] == "Job")
    job["spec"]["paralelism"] = job["spec"].pop("parallelism")
    with pytest.raises(kubernetes_validate.ValidationError, match="paralelism"):
        kubernetes_validate.validate(job, KUBERNETES_VERSIONS[-1], strict=True)


def test_missing_slurm_commands_are_reported_with_the_install_command(monkeypatch):
    monkeypatch.setattr(minislurm.os, "geteuid", lambda: 0)
    monkeypatch.setattr(minislurm.shutil, "which",
                        lambda cmd: None if cmd in ("slurmctld", "munged") else f"/usr/bin/{cmd}")
    with pytest.raises(minislurm.SlurmUnavailable) as failure:
        minislurm.check_prerequisites()
    assert "missing: munged, slurmctld" in str(failure.value)
    assert "scripts/install_slurm.sh" in str(failure.value)


def test_a_failed_install_step_is_reported_with_its_output(monkeypatch, tmp_path):
    monkeypatch.setattr(minislurm.os, "geteuid", lambda: 0)
    monkeypatch.setattr(minislurm.shutil, "which", lambda cmd: None)
    script = tmp_path / "install.sh"
    script.write_text("echo 'E: Unable to locate package slurm-wlm' >&2\nexit 100\n")
    with pytest.raises(minislurm.SlurmUnavailable) as failure:
        minislurm.install_if_missing(script)
    assert "failed (exit 100)" in str(failure.value)
    assert "Unable to locate package slurm-wlm" in str(failure.value)


def test_non_root_is_told_the_cluster_needs_root(monkeypatch):
    monkeypatch.setattr(minislurm.os, "geteuid", lambda: 1000)
    with pytest.raises(minislurm.SlurmUnavailable, match="needs root"):
        minislurm.check_prerequisites()


@pytest.mark.slurm
def test_a_namespace_in_the_way_is_named_and_left_alone(tmp_path):
    cluster = minislurm.MiniSlurm(tmp_path, "busy01")
    subprocess.run(["ip", "netns", "add", cluster.ctl_ns], check=True)
    try:
        with pytest.raises(minislurm.SlurmUnavailable, match=f"{cluster.ctl_ns} exists already"):
            cluster.start()
        assert cluster.stop() == []
        listed = subprocess.run(["ip", "netns", "list"], check=True, capture_output=True,
                                text=True).stdout
        assert cluster.ctl_ns in listed  # not ours: stop() must not delete it
    finally:
        subprocess.run(["ip", "netns", "del", cluster.ctl_ns], check=True)
