"""A Gradescope autograder for one exercise, built from the same question files and grader.

``tfdist-instructor gradescope EXERCISE --out autograder.zip`` writes the zip Gradescope's
"Autograder Specifications" ask for (https://gradescope-autograders.readthedocs.io/en/latest/specs/):
``setup.sh`` and ``run_autograder`` at the root of the archive; Gradescope unpacks it into
/autograder/source, runs setup.sh once while building its image, then run_autograder for each
submission (in /autograder/submission), which must write /autograder/results/results.json with
``score``, ``execution_time``, ``output``, ``visibility``, ``stdout_visibility`` and ``tests``;
the text is Markdown, declared with ``"output_format": "md"`` at the top and in every test.
Here run_autograder grades the submitted notebook exactly as ``tfdist-instructor grade`` does:
its probes in the student's kernel, the points decided in this process, bubblewrap when the
container allows it; where it does not (no user namespaces), the results say so at the top of
their output, in bold, and run_autograder prints it. ``AUTOGRADER_ROOT`` moves /autograder (a local trial run), and
``AUTOGRADER_PYTHON`` picks the interpreter. Hand-graded points are left to Gradescope's manual
grading (add a question worth them next to the autograder).
"""

import json
import stat
import time
import zipfile
from pathlib import Path

from tfdist_instructor import REPO_ROOT
from tfdist_instructor.grading.options import DEFAULT_TIMEOUT_S

SETUP = """\
#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder's (Ubuntu) image.
set -euo pipefail
apt-get update
apt-get install -y --no-install-recommends python3 python3-venv python3-pip bubblewrap util-linux
python3 -m venv /autograder/venv
/autograder/venv/bin/python -m pip install --quiet -r /autograder/source/requirements.txt
"""
RUN = """\
#!/usr/bin/env bash
# Gradescope runs this for every submission; AUTOGRADER_ROOT and AUTOGRADER_PYTHON move it for a local run.
ROOT="${{AUTOGRADER_ROOT:-/autograder}}"
export PYTHONPATH="$ROOT/source/instructor:$ROOT/source"
exec "${{AUTOGRADER_PYTHON:-/autograder/venv/bin/python}}" -m tfdist_instructor.term.gradescope \\
    --root "$ROOT" --exercise {exercise} --timeout {timeout}
"""
REQUIREMENTS = ["tensorflow>=2.19", "keras>=3.10", "numpy", "matplotlib>=3.7", "portpicker", "ipykernel", "nbformat",
                "nbclient", "psutil", "pyyaml", "otter-grader>=7,<8"]
PINNED = ("tensorflow", "keras", "numpy")  # pinned to the versions installed where the zip is built


def requirements():
    """REQUIREMENTS with TensorFlow, Keras and NumPy pinned to the versions this machine grades with,
    so that Gradescope grades on the same ones (a range would install whatever is newest)."""
    from importlib import metadata

    pinned = []
    for line in REQUIREMENTS:
        name = line.split(">")[0].split("=")[0].split("<")[0]
        try:
            pinned.append(f"{name}=={metadata.version(name)}" if name in PINNED else line)
        except metadata.PackageNotFoundError:
            pinned.append(line)
    return pinned
SKIP = ("__pycache__", ".ipynb_checkpoints")


def build(exercise, out, timeout_s=DEFAULT_TIMEOUT_S, root=REPO_ROOT):
    """Write the autograder zip of ``exercise`` to ``out``; return its path."""
    from tfdist_instructor.grading import catalog

    catalog.load(exercise)  # an unknown exercise: ValueError naming the exercises
    root, out = Path(root), Path(out)
    sources = [*_files(root, "tfdist_edu"), *_files(root, "instructor/tfdist_instructor"),
               *_files(root, f"grading/questions/{exercise}"), root / f"exercises/{exercise}/{exercise}.ipynb"]
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        _add(z, "setup.sh", SETUP)
        _add(z, "run_autograder", RUN.format(exercise=exercise, timeout=timeout_s))
        _add(z, "requirements.txt", "\n".join(requirements()) + "\n", executable=False)
        for path in sources:
            z.write(path, str(path.relative_to(root)))
    return out


def _files(root, folder):
    return sorted(p for p in (root / folder).rglob("*") if p.is_file() and not set(p.parts) & set(SKIP))


def _add(z, name, text, executable=True):
    info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
    info.external_attr = ((0o755 if executable else 0o644) | stat.S_IFREG) << 16
    z.writestr(info, text)


def results(result, seconds, hand_points=0.0, unsandboxed=None):
    """results.json for a GradeResult: the score, the feedback, and one test per question;
    ``unsandboxed``: why the submission ran without the sandbox, said first in the output."""
    from tfdist_instructor.grading import feedback

    tests = []
    for number, (question, (score, possible)) in enumerate(result.questions.items(), start=1):
        cases = [t for t in result.tests if t["question"] == question]
        lines = [_case_line(t) for t in cases]
        tests.append({"name": question, "number": str(number), "score": score, "max_score": possible,
                      "status": "passed" if score == possible else "failed",
                      "output": "\n".join(lines) or "not graded: the notebook did not run this far",
                      "output_format": "md", "visibility": "visible"})
    note = f"\n\n{hand_points:g} more point(s) are graded by hand." if hand_points else ""
    warning = f"{unsandboxed_note(unsandboxed)}\n\n" if unsandboxed else ""
    return {"score": result.score, "execution_time": round(seconds), "output": warning + feedback(result) + note,
            "output_format": "md", "visibility": "visible", "stdout_visibility": "hidden", "tests": tests}


def unsandboxed_note(why):
    """The warning of a submission graded without bubblewrap."""
    return (f"**Warning: this submission was graded WITHOUT the sandbox ({why}).** The score is decided "
            "outside the notebook as always, but the notebook ran with the autograder's own rights.")


def _case_line(t):
    """One case, as the grader's feedback shows it: a hidden case never with its message."""
    line = f"{'hidden' if t['hidden'] else 'public'} test ({t['points']:g} pt) {'passed' if t['passed'] else 'failed'}"
    if t["passed"]:
        return line
    said = [s for s in (t.get("diagnosis"), t["hint"] if t["hidden"] else t["message"]) if s]
    return f"{line}: {'; '.join(said)}" if said else line


def run(root, exercise, timeout_s):
    """Grade the one notebook in ``root``/submission; write ``root``/results/results.json. A
    submission the grader failed on ("not graded") gets no results.json and a non-zero exit, which
    Gradescope shows as a failed autograder run to rerun, not as a score of 0."""
    from tfdist_instructor.grading import GradeOptions, GradeResult, grade_submission, sandbox
    from tfdist_instructor.term.totals import hand_possible

    root, started = Path(root), time.monotonic()
    notebooks = sorted((root / "submission").rglob("*.ipynb"))
    unsandboxed = sandbox.unavailable()
    if unsandboxed:
        print(unsandboxed_note(unsandboxed).replace("**", ""), flush=True)
    if len(notebooks) == 1:
        result = grade_submission(notebooks[0], GradeOptions(timeout_s=timeout_s, exercise=exercise,
                                                             sandboxed=unsandboxed is None))
    else:
        result = GradeResult(student="submission", file="", exercise=exercise, status="rejected",
                             problems=[f"submit exactly one .ipynb file; found {len(notebooks)}"])
    if not result.graded:  # the grader failed, twice: Gradescope shows "the autograder failed", never a 0
        raise SystemExit(f"not graded: {result.reason}; rerun the autograder on this submission")
    (root / "results").mkdir(parents=True, exist_ok=True)
    answer = results(result, time.monotonic() - started, hand_possible(exercise), unsandboxed)
    (root / "results" / "results.json").write_text(json.dumps(answer, indent=2))
    return answer


def add_cli(subparsers):
    parser = subparsers.add_parser("gradescope", help="a Gradescope autograder zip for one exercise")
    parser.add_argument("exercise", metavar="EXERCISE")
    parser.add_argument("--out", required=True, metavar="ZIP")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, metavar="S",
                        help=f"seconds per submission (default {DEFAULT_TIMEOUT_S})")
    parser.set_defaults(func=lambda a: print(f"Gradescope autograder: {build(a.exercise, a.out, a.timeout)}") or 0)


def autograder_cli():
    """The command line run_autograder calls inside Gradescope's container."""
    import argparse

    cli = argparse.ArgumentParser(prog="python -m tfdist_instructor.term.gradescope")
    cli.add_argument("--root", default="/autograder")
    cli.add_argument("--exercise", required=True)
    cli.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S)
    return cli


if __name__ == "__main__":
    args = autograder_cli().parse_args()
    run(args.root, args.exercise, args.timeout)
