"""The student release: distinctive lines planted in every solution, master, question file, rubric,
the instructor guide and every instructor module of a copy of the repository must reach none of
the release's files, its git history or objects, nor the site built from it."""

import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest

from tfdist_instructor import REPO_ROOT, retarget, site
from tfdist_instructor.term import release

REPO, REF = "acme-univ/dist-course", "spring-term"
PLANTED = ("solutions", "grading", "instructor")


def _plant(path, mark):
    """Add ``mark`` to the file: a line in every code cell (notebooks), the rubric, a comment."""
    if path.suffix == ".ipynb":
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.source += f"\n# {mark}"
        nbformat.write(nb, path)
        return
    text = path.read_text()
    text = text.replace('RUBRIC = """\\\n', f'RUBRIC = """\\\n{mark}-rubric\n')
    path.write_text(text + f"\n# {mark}\n")


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    """A copy of the repository's tracked files with a mark in every secret file; the marks."""
    source = tmp_path_factory.mktemp("course")
    tracked = subprocess.run(["git", "-C", str(REPO_ROOT), "ls-files"], capture_output=True, text=True,
                             check=True).stdout.split()
    marks = []
    for name in tracked:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO_ROOT / name, source / name)
        if (name.split("/")[0] in PLANTED and Path(name).suffix in (".py", ".ipynb", ".txt", ".toml", ".j2")
                or name in release.WITHHELD):
            marks.append(f"LEAKED-{len(marks):03d}-{Path(name).stem}")
            _plant(source / name, marks[-1])
    return source, marks


@pytest.fixture(scope="module")
def released(planted, tmp_path_factory):
    source, _ = planted
    out = tmp_path_factory.mktemp("release") / "course"
    release.release(out, REPO, REF, root=source, decks=True)
    return out


def _found(text, marks):
    return sorted({m for m in marks if m in text})


def test_the_marks_were_planted_in_every_kind_of_secret_file(planted):
    source, marks = planted
    kinds = {"solutions/01_global_batch/01_global_batch.ipynb", "grading/masters/03_svhn_capstone.ipynb",
             "grading/questions/01_global_batch/q4.py", "grading/questions/02_custom_loop/reference.py"}
    texts = {k: (source / k).read_text() for k in kinds}
    assert all("LEAKED-" in t for t in texts.values()), [k for k, t in texts.items() if "LEAKED-" not in t]
    assert "-rubric" in (source / "grading/questions/03_svhn_capstone/q3.py").read_text()
    assert "LEAKED-" in (source / "docs/instructor-guide.md").read_text()
    assert len(marks) > 40, len(marks)


def test_no_planted_line_reaches_a_released_file(planted, released):
    _, marks = planted
    leaks = {str(p.relative_to(released)): _found(p.read_text(errors="replace"), marks)
             for p in released.rglob("*") if p.is_file() and ".git" not in p.parts}
    assert {k: v for k, v in leaks.items() if v} == {}
    assert not any((released / name).exists() for name in release.NEVER)
    assert (released / "exercises/01_global_batch/01_global_batch.ipynb").exists()
    assert (released / "exercises/01_global_batch/tests/q1.py").exists()  # the public checks stay
    assert (released / "tfdist_edu/__init__.py").exists() and (released / "slides").is_dir()


def test_no_planted_line_reaches_the_git_history_or_any_object(planted, released):
    _, marks = planted

    def git(*args):
        return subprocess.run(["git", "-C", str(released), *args], capture_output=True, text=True,
                              check=True).stdout

    assert git("rev-list", "--all").split().__len__() == 1, "the release has one commit, no history"
    assert _found(git("log", "-p", "--all"), marks) == []
    objects = subprocess.run(["git", "-C", str(released), "cat-file", "--batch-all-objects", "--batch"],
                             capture_output=True, check=True).stdout.decode(errors="replace")
    assert "exercises" in objects and _found(objects, marks) == []
    assert git("status", "--porcelain") == ""


def test_no_planted_line_reaches_the_site_built_from_the_release(planted, released, tmp_path, monkeypatch):
    _, marks = planted
    monkeypatch.setattr(site, "REPO_ROOT", released)
    lessons = sorted((released / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    src = tmp_path / "site-src"
    (src / "_static").mkdir(parents=True)
    site._stage(src, lessons, tmp_path / "no-slides", tmp_path / "no-tour")
    pages = [p for p in src.rglob("*") if p.is_file()]
    assert any(p.name == "public_checks.md" for p in pages)
    assert {str(p): _found(p.read_text(errors="replace"), marks) for p in pages if _found(p.read_text(), marks)} == {}


def test_every_link_of_the_release_points_at_the_students_address(released):
    found = {(repo, ref) for _, _, repo, ref in retarget.links(released)}
    assert found and all(repo in (REPO, None) and ref in (REF, None) for repo, ref in found), found
    branch = subprocess.run(["git", "-C", str(released), "branch", "--show-current"], capture_output=True,
                            text=True).stdout.strip()
    assert branch == REF


def test_a_release_into_a_folder_that_is_not_empty_is_refused_in_one_line(tmp_path, capsys):
    (tmp_path / "old.txt").write_text("keep me")
    assert release.main([str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip() == f"release: {tmp_path} is not empty: give a new folder for the release"
    assert [p.name for p in tmp_path.iterdir()] == ["old.txt"]


def _markdown_pages(folder):
    """(file, Markdown text) for every .md file and every Markdown cell of every notebook in ``folder``."""
    for path in sorted(folder.rglob("*")):
        if ".git" in path.parts or not path.is_file():
            continue
        if path.suffix == ".md":
            yield path, path.read_text(encoding="utf-8")
        elif path.suffix == ".ipynb":
            nb = nbformat.read(path, as_version=4)
            yield from ((path, c.source) for c in nb.cells if c.cell_type == "markdown")


def test_every_relative_link_in_the_release_resolves_inside_it(released):
    from tfdist_instructor.term import studentpages

    checked, dead = 0, []
    for path, text in _markdown_pages(released):
        for target in studentpages.links(text):
            checked += 1
            if not studentpages.resolves(path, target):
                dead.append(f"{path.relative_to(released)}: {target}")
    assert checked > 50 and dead == []


def test_the_release_readme_is_written_for_students(released):
    readme = (released / "README.md").read_text()
    for instructor_only in ("make test", "make grade", "make release", "tfdist-instructor", "private",
                            "instructor-guide", "solutions/", "slides/README.md", "Maintainers"):
        assert instructor_only not in readme, instructor_only
    lessons = sorted(p.name for p in (released / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert all(f"(notebooks/{name})" in readme for name in lessons) and "make demo" in readme
    assert f"colab.research.google.com/github/{REPO}/blob/{REF}/notebooks/" in readme  # retargeted
    assert "(exercises/README.md)" in readme
    exercises = (released / "exercises" / "README.md").read_text()
    assert "## For students" in exercises and "For instructors" not in exercises
    assert "tfdist-instructor" not in exercises


STUDENT_TOP_LEVEL = {"README.md", "Makefile", "pyproject.toml", "environment.yml", "notebooks", "exercises",
                     "tfdist_edu", "docs", "slides"}


def _released_names(out):
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file() and ".git" not in p.parts)


def _tracked(folder):
    return subprocess.run(["git", "-C", str(REPO_ROOT), "ls-files", folder], capture_output=True, text=True,
                          check=True).stdout.split()


def test_the_release_holds_only_what_students_need(released):
    names = _released_names(released)
    assert {n.split("/")[0] for n in names} <= STUDENT_TOP_LEVEL
    assert [n for n in names if not release.student_file(n)] == []
    assert {n for n in names if n.startswith("notebooks/")} == set(_tracked("notebooks"))
    assert all(n.endswith(".py") for n in names if n.startswith("tfdist_edu/"))
    assert {n for n in names if n.startswith("docs/")} == set(_tracked("docs")) - set(release.WITHHELD)
    assert [n for n in names if "note" in Path(n).name.lower() or "session" in Path(n).name.lower()] == []


def test_every_page_of_docs_is_named_for_students_or_withheld():
    tracked = _tracked("docs")
    undecided = [n for n in tracked if not release.student_file(n, release.STUDENT_DOCS) and n not in release.WITHHELD]
    assert undecided == [], "name each page in release.STUDENT_DOCS (students read it) or WITHHELD"
    assert "docs/instructor-guide.md" in tracked and "docs/multi-host.md" in tracked


def test_a_note_or_a_written_script_beside_the_course_stays_behind(planted, tmp_path):
    source, _ = planted
    root = tmp_path / "course"
    root.mkdir()
    for name in release.COPIED:
        (shutil.copytree if (source / name).is_dir() else shutil.copy2)(source / name, root / name)
    strays = ("docs/session-notes-2026-01-01.md", "docs/notes/what-i-ran.md", "notebooks/NOTES.md",
              "notebooks/jax_fit.py", "notebooks/checkpoints/ckpt-1.index", "tfdist_edu/TODO.md",
              "exercises/04_multi_worker/chief.py", "exercises/01_global_batch/notes.txt",
              "exercises/01_global_batch/.ipynb_checkpoints/01_global_batch-checkpoint.ipynb")
    for name in strays:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("a work note: who ran what, where\n")
    names = [p.as_posix() for p in release.release(tmp_path / "out", REPO, REF, root=root)]
    assert [n for n in strays if n in names] == []
    assert "notebooks/00_start_here.ipynb" in names and "exercises/01_global_batch/tests/q1.py" in names
    assert "docs/multi-host.md" in names and "docs/slurm/mwms_tf_config.sbatch" in names
