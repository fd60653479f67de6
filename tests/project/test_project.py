"""The repository's own promises: one dependency list, and the README's two commands."""

import pathlib
import re
import tomllib

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_environment_yml_installs_the_package_from_pyproject_and_lists_nothing_else():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    conda = [d for d in env["dependencies"] if isinstance(d, str)]
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert sorted(re.split("[=<>]", d)[0] for d in conda) == ["pip", "python"]
    assert len(pip) == 1 and pip[0].startswith("-e .[")
    extras = pip[0][len("-e .["):-1].split(",")
    assert set(extras) <= set(PYPROJECT["project"]["optional-dependencies"])


def test_environment_python_satisfies_requires_python():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    python = next(d for d in env["dependencies"] if isinstance(d, str) and d.startswith("python"))
    minor = int(python.split("=")[1].split(".")[1])
    floor = int(PYPROJECT["project"]["requires-python"].split(".")[1])
    assert minor >= floor


def test_tensorflow_is_not_pinned_above_what_colab_tpu_runtimes_offer():
    tf_spec = next(d for d in PYPROJECT["project"]["dependencies"] if d.startswith("tensorflow>"))
    assert "==" not in tf_spec and "<" not in tf_spec
    assert any(d.startswith("keras>=3.1") for d in PYPROJECT["project"]["dependencies"])
    assert any(d.startswith("importlib_resources") for d in PYPROJECT["project"]["dependencies"])


def test_readme_gives_the_two_commands_and_ci_runs_the_test_one():
    readme = (ROOT / "README.md").read_text()
    assert "make demo" in readme and "make test" in readme
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"^make test$", ci, re.M)


def test_student_package_never_imports_instructor_tooling():
    import ast

    forbidden = {"otter", "nbconvert", "nbclient", "nbformat", "tfdist_instructor"}
    for path in (ROOT / "tfdist_edu").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert name.split(".")[0] not in forbidden, f"{path.name} imports {name}"


def test_contributors_ci_runs_the_readme_test_command_and_a_weekly_upstream_canary():
    workflows = ROOT / ".github" / "workflows"
    test = (workflows / "test.yml").read_text()
    assert re.search(r"^\s+- run: make test\b", test, re.M) and "pull_request" in test
    canary = (workflows / "upstream-canary.yml").read_text()
    assert "schedule" in canary and "make upstream-canary" in canary
    assert "upstream-canary:" in (ROOT / "Makefile").read_text()
    sentinels = (ROOT / "tests" / "upstream" / "test_sentinels.py").read_text()
    for issue in ("62790", "19246", "22018", "11212"):
        assert f"_{issue}_" in sentinels and issue in (ROOT / "docs" / "upstream.md").read_text()


def _rule(target):
    """Return (prerequisites, recipe lines) of ``target``'s rule in the Makefile."""
    lines = (ROOT / "Makefile").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{target}:"))
    recipe = []
    for line in lines[start + 1:]:
        if not line.startswith("\t"):
            break
        recipe.append(line.strip())
    return lines[start].split(":", 1)[1].split(), recipe


def test_make_test_installs_the_real_fashion_mnist():
    from tfdist_edu.data import specs

    prerequisites, recipe = _rule("$(VENV)/.test-installed")
    assert "scripts/install_datasets.sh" in prerequisites and "scripts/install_datasets.sh" in recipe
    test_prerequisites, test_recipe = _rule("test")
    # make test makes the stamp first: a prerequisite, or its first run (beside the Colab root's)
    assert "$(VENV)/.test-installed" in test_prerequisites or any(
        "$(MAKE)" in line and "$(VENV)/.test-installed" in line for line in test_recipe[:3]), test_recipe
    script = (ROOT / "scripts" / "install_datasets.sh").read_text()
    assert "apt-get install -y -qq --no-install-recommends dataset-fashion-mnist" in script
    assert specs.SPECS["fashion_mnist"].idx_debian in script


def test_the_lessons_run_on_the_real_data_in_make_test_and_make_site():
    for target in ("test", "site"):
        recipe = " ".join(_rule(target)[1])
        assert "pytest notebooks" in recipe and "TFDIST_EDU_DATA=synthetic" not in recipe, target


def test_make_demo_installs_the_data_when_it_can_before_the_tour():
    recipe = _rule("demo")[1]
    assert recipe.index("scripts/install_datasets.sh --if-possible") < \
        next(i for i, line in enumerate(recipe) if "tfdist-edu tour" in line)


def _install(tmp_path, *args, files=()):
    import subprocess

    folder = tmp_path / "fashion-mnist"
    folder.mkdir()
    for name in files:
        (folder / name).touch()
    (tmp_path / "bin").mkdir()  # a PATH without apt-get (or anything else)
    return subprocess.run(["/bin/bash", str(ROOT / "scripts" / "install_datasets.sh"), *args],
                          capture_output=True, text=True, timeout=60,
                          env={"PATH": str(tmp_path / "bin"), "FASHION_MNIST_FOLDER": str(folder)})


def test_without_apt_make_demo_says_in_one_line_how_to_get_the_data(tmp_path):
    result = _install(tmp_path, "--if-possible")
    assert result.returncode == 0 and len(result.stdout.strip().splitlines()) == 1
    assert "no apt-get" in result.stdout and "apt-get install dataset-fashion-mnist" in result.stdout
    assert "tour uses the labelled SYNTHETIC stand-in" in result.stdout


def test_without_apt_make_test_stops_with_one_line(tmp_path):
    result = _install(tmp_path)
    assert result.returncode == 1 and len(result.stderr.strip().splitlines()) == 1
    assert "install_datasets.sh: no apt-get" in result.stderr


def test_the_install_does_nothing_when_the_files_are_there(tmp_path):
    result = _install(tmp_path, files=("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz",
                                       "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"))
    assert result.returncode == 0 and "already installed" in result.stdout


def test_test_files_have_unique_names_so_pytest_can_collect_them_all():
    # tests/ has no __init__.py files: two test_x.py in different folders stop collection.
    names = [p.name for p in (ROOT / "tests").rglob("test_*.py")]
    assert len(names) == len(set(names)), sorted(n for n in set(names) if names.count(n) > 1)


def test_the_test_environment_holds_tensorflows_compiled_bytecode():
    # uv writes no .pyc unless asked (--compile-bytecode); where PYTHONDONTWRITEBYTECODE is set,
    # as on CI's machines, every process would then compile TensorFlow's modules at import.
    import importlib.util

    origin = importlib.util.find_spec("tensorflow").origin
    assert pathlib.Path(importlib.util.cache_from_source(origin)).exists(), origin
