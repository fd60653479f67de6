"""One public address: pyproject.toml names it, every badge and setup cell agrees, and
``make retarget`` moves them all to a fork and branch at once."""

import shutil
import subprocess
import sys
from pathlib import Path

from tfdist_instructor import cli, masters, retarget

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK_FOLDERS = ("notebooks", "exercises", "solutions", "grading/masters")


def _copy(tmp_path):
    """The checkout's link-bearing files, copied (retarget only reads and writes these)."""
    copy = tmp_path / "course"
    for path in retarget.files(ROOT):
        target = copy / path.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
    return copy


def test_every_course_link_agrees_with_pyproject():
    repo, ref = retarget.current(ROOT)
    wrong = [f"{p.relative_to(ROOT)}: {kind} -> {r}@{b}" for p, kind, r, b in retarget.links(ROOT)
             if r not in (None, repo) or b not in (None, ref)]
    assert not wrong, "links disagree with pyproject.toml (run make retarget):\n" + "\n".join(wrong)


def test_every_notebook_has_a_badge_and_every_setup_cell_names_the_repository():
    found = list(retarget.links(ROOT))
    notebooks = [p for folder in NOTEBOOK_FOLDERS for p in (ROOT / folder).rglob("*.ipynb")]
    for notebook in notebooks:
        kinds = {kind for path, kind, _, _ in found if path == notebook}
        assert {"badge", "repository url", "cell branch"} <= kinds, f"{notebook.relative_to(ROOT)}: {kinds}"


def test_every_mention_of_the_course_repository_is_a_known_link_form():
    repo, _ = retarget.current(ROOT)
    found = list(retarget.links(ROOT))
    for path in retarget.files(ROOT):
        mentions = path.read_text(encoding="utf-8").count(repo)
        known = sum(1 for p, _, r, _ in found if p == path and r is not None)
        assert mentions == known, f"{path.relative_to(ROOT)}: {mentions} mentions, {known} known links"


def test_retarget_leaves_no_link_at_the_old_address(tmp_path):
    copy = _copy(tmp_path)
    old_repo, old_ref = retarget.current(copy)
    changed = retarget.retarget(copy, "acme-univ/dist-course", "spring-term")

    assert retarget.current(copy) == ("acme-univ/dist-course", "spring-term")
    assert len(changed) > 20
    for path in retarget.files(copy):
        assert old_repo not in path.read_text(encoding="utf-8"), path
    assert {(r, b) for _, _, r, b in retarget.links(copy)} <= {
        ("acme-univ/dist-course", "spring-term"), ("acme-univ/dist-course", None), (None, "spring-term")}
    badge = next(p for p in (copy / "notebooks").glob("01_*.ipynb"))
    assert ("colab.research.google.com/github/acme-univ/dist-course/blob/spring-term/notebooks/"
            f"{badge.name}") in badge.read_text()
    assert old_ref == "main"


def test_retargeted_masters_still_generate_the_retargeted_exercises_and_solutions(tmp_path):
    copy = _copy(tmp_path)
    retarget.retarget(copy, "acme-univ/dist-course", "spring-term")
    # Two masters (every setup cell has the same clone form); otter assign takes ~7 s a master.
    for master in (copy / "grading" / "masters").glob("0[235]_*.ipynb"):
        master.unlink()
    assert masters.regenerate(check=True, root=copy) == []


def test_retarget_refuses_a_malformed_repository_or_branch_with_one_line(capsys):
    assert cli.main(["retarget", "--repo", "no-slash", "--ref", "main"]) == 2
    assert "expected REPO=owner/name" in capsys.readouterr().err


def test_make_retarget_runs_without_the_course_installed(tmp_path):
    copy = _copy(tmp_path)
    shutil.copytree(ROOT / "instructor" / "tfdist_instructor", copy / "instructor" / "tfdist_instructor")
    shutil.copy2(ROOT / "Makefile", copy / "Makefile")
    done = subprocess.run(["make", "-s", "retarget", "REPO=acme-univ/dist-course", "REF=spring-term",
                           f"PYTHON={sys.executable}"], cwd=copy, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "-> acme-univ/dist-course@spring-term" in done.stdout
    assert retarget.current(copy) == ("acme-univ/dist-course", "spring-term")
