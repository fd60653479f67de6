"""A graded term run as exercises/README.md ("A graded term", "Regrades") tells an instructor to,
each documented command timed: the release, a roster class's downloads graded with a late policy,
two regrades of one student (every other row checked byte for byte), the Canvas and Moodle
gradebooks and the Gradescope autograder. A failed step exits 1.

    PYTHONPATH=.:instructor python benchmarks/term_walkthrough.py [--jobs N] [--timeout S] [--keep DIR]

The class is the term tests' (tfdist_instructor.sample_class.downloads: 8 students, Canvas, Moodle, Gradescope
and Colab names, an unmatched file, a duplicated student, a late one, a PDF beside a notebook), all
reference solutions but s1004's planted q3 mistake; exercise 05 has no hand points (no --hand).
Timings taken while other jobs share the machine are noisy: it prints the CPU others used.
"""

import argparse
import csv
import functools
import os
import platform
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from importlib import metadata
from pathlib import Path

from tfdist_instructor import REPO_ROOT
from tfdist_instructor.grading import sandbox
from tfdist_instructor.sample_class import planting
from tfdist_instructor.sample_class.downloads import EXERCISE, make_class
from tfdist_edu.other_load import SampledLoad

POLICY = "deadline = 2026-03-02T23:59:00Z\nlate_penalty = 0.10\nlate_limit_days = 5\n[extensions]\ns1005 = 2\n"
PLANTED = ("s1004", "q3-answer", "2 * (n - 1) / n * size_bytes / bandwidth", "size_bytes / bandwidth")
LATE_FILE = f"smithbob_LATE_23456_67891_{EXERCISE}.ipynb"  # s1002's, regraded from a folder of its own
TABLES = ("scores.csv", "totals.csv", "unmatched.csv")


def machine():
    return (f"{os.cpu_count()} cores ({platform.machine()}), Python {platform.python_version()}, "
            f"TensorFlow {metadata.version('tensorflow')}, Keras {metadata.version('keras')}")


def records(path):
    """``{first cell: the record's text, as stored}`` of a CSV file (a quoted cell may span lines)."""
    raw, out = [], {}
    with open(path, newline="") as f:
        for row in csv.reader(raw.append(line) or line for line in f):  # the reader pulls a line at a time
            out[row[0]], raw[:] = "".join(raw), []
    return out


def said(out, words, otherwise=None):
    """The line of a command's output that holds ``words``."""
    if (line := next((ln for ln in out.splitlines() if words in ln), otherwise)) is None:
        sys.exit(f"FAILED: expected a line with {words!r} in:\n{out}")
    return line


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def unchanged_but(report, before, student):
    """Fail unless every row of the report's tables but ``student``'s is as in ``before``, in order."""
    for name in TABLES:
        now, then = ({k: v for k, v in t.items() if k != student} for t in (records(report / name), before[name]))
        if list(now.items()) != list(then.items()):
            moved = [k for k in {**now, **then} if now.get(k) != then.get(k)]
            sys.exit(f"FAILED: the regrade of {student} changed other rows of {name}: {', '.join(moved) or 'order'}")
    total = {r["id"]: r["total"] for r in rows(report / "totals.csv")}[student]
    return f"every other row of {', '.join(TABLES)} byte-identical; {student}'s total {total}"


def totals_line(report):
    scores = rows(report / "scores.csv")
    if any(r["status"] != "graded" for r in scores) or len({r["score"] for r in scores}) < 2:
        sys.exit(f"FAILED: expected every matched notebook graded, with different scores: {report / 'scores.csv'}")
    held = sorted(r["problem"].split(":")[0] for r in rows(report / "unmatched.csv"))
    totals = ", ".join(f"{r['id']} {r['total'] if r['status'] == 'graded' else '-'}"
                       for r in rows(report / "totals.csv"))
    return f"{len(scores)} graded, {len(held)} held back ({', '.join(held)}); totals {totals}"


def step(steps, root, tool, name, argv, outcome, cwd=None, typed_before=""):
    """Run ``argv`` where an instructor would, printing it, its seconds and ``outcome(stdout)``."""
    shown = " ".join(shlex.quote(str(a)) for a in argv)
    print(f"\n[{len(steps) + 1}] {name}\n    $ {typed_before}{shown}", flush=True)
    started = time.monotonic()
    done = subprocess.run([tool if a == "tfdist-instructor" else str(a) for a in argv], cwd=cwd or root,
                          capture_output=True, text=True)
    if done.returncode:
        print(done.stdout[-3000:], done.stderr[-3000:], sep="\n")
        sys.exit(f"FAILED: step [{len(steps) + 1}] {name} exited {done.returncode}: {shown}")
    steps.append((name, time.monotonic() - started, outcome(done.stdout)))
    print(f"    {steps[-1][1]:.1f} s: {steps[-1][2]}", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description="A graded term run as an instructor runs it, each command timed.")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="--jobs of grade (default: the cores)")
    parser.add_argument("--timeout", type=float, default=None, help="--timeout of grade (default: grade's own)")
    parser.add_argument("--keep", type=Path, default=None, help="run in this new (or empty) folder and keep it")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {args.jobs}")
    if args.keep and args.keep.exists() and any(args.keep.iterdir()):
        parser.error(f"--keep {args.keep}: give a new or empty folder")
    tool = shutil.which("tfdist-instructor", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    if not tool:
        parser.error("tfdist-instructor is not installed beside this Python (make instructor)")
    if why := sandbox.unavailable():
        parser.error(f"cannot sandbox submissions here: {why}")
    print(f"term walkthrough of {EXERCISE} on {machine()}", flush=True)
    # Looked at every half second: the sandboxed kernels leave this process's tree of waited-for children.
    (others := SampledLoad()).start()
    started, steps = time.monotonic(), []
    with tempfile.TemporaryDirectory(prefix="tfdist-term-") as tmp:
        (root := (args.keep or Path(tmp)).resolve()).mkdir(parents=True, exist_ok=True)
        run, ours = functools.partial(step, steps, root, tool), "tfdist-instructor"
        run("release the course", ["make", "release", f"OUT={root / 'dist-course'}", "REPO=acme-univ/dist-course",
                                   "REF=spring-term"], lambda out: said(out, "files released").split(" (")[0],
            cwd=REPO_ROOT)
        t0 = time.monotonic()  # the roster and the downloads as the platforms name them: files, no command
        make_class(root / "downloads", lambda student: planting.planted(EXERCISE, *PLANTED[1:])
                   if student == PLANTED[0] else planting.solution(EXERCISE))
        (root / "policy").mkdir()  # the repository's grading/policy/ stays as it is: --policy-dir
        (root / "policy" / f"{EXERCISE}.toml").write_text(POLICY)
        files = [p for p in (root / "downloads").rglob("*") if p.suffix in (".ipynb", ".pdf")]
        steps.append(("roster, downloads, policy", time.monotonic() - t0, f"{len(files)} files, 8 students"))
        print(f"\n[2] roster.csv, downloads/ ({len(files)} files; {PLANTED[0]} with a planted mistake in q3), "
              f"policy/{EXERCISE}.toml (a deadline, 10% a day, s1005 +2 days)", flush=True)
        common = ["--roster", "roster.csv", "--policy-dir", "policy/", "--jobs", args.jobs,
                  *(["--timeout", f"{args.timeout:g}"] if args.timeout else [])]
        run("grade the class", [ours, "grade", "downloads/", "--out", "report/", *common],
            lambda out: totals_line(root / "report"))
        before = {name: records(root / "report" / name) for name in TABLES}
        run(f"regrade {PLANTED[0]}: --only --replay-seeds", [ours, "grade", "downloads/", "--out", "report/", *common,
            "--only", PLANTED[0], "--replay-seeds"], lambda out: unchanged_but(root / "report", before, PLANTED[0]))
        (root / "regrade").mkdir()  # the README's other route: the file copied into a folder of its own
        shutil.copy2(root / "downloads" / LATE_FILE, root / "regrade" / LATE_FILE)
        seed = {r["student"]: r["seed"] for r in rows(root / "report" / "scores.csv")}["s1002"]
        before = {name: records(root / "report" / name) for name in TABLES}
        run("regrade s1002: one file, --seed", [ours, "grade", "regrade/", "--out", "report/", *common, "--seed", seed],
            lambda out: unchanged_but(root / "report", before, "s1002"),
            typed_before=f"mkdir regrade && cp downloads/{LATE_FILE} regrade/ && ")
        for fmt, extra in (("canvas", ["--canvas-assignment", f"{EXERCISE}=4711"]), ("moodle", [])):
            run(f"{fmt} gradebook", [ours, "gradebook", "report/", "--roster", "roster.csv", "--format", fmt,
                                     "--out", f"{fmt}.csv", *extra],
                lambda out: said(out, "no graded submission", "every student graded"))
        run("Gradescope autograder", [ours, "gradescope", EXERCISE, "--out", "autograder.zip"],
            lambda out: f"autograder.zip, {len(zipfile.ZipFile(root / 'autograder.zip').namelist())} files, "
                        f"{(root / 'autograder.zip').stat().st_size / 1e6:.1f} MB")
    print(f"\n{'step':40}{'seconds':>9}  outcome")
    for name, seconds, outcome in steps:
        print(f"{name[:40]:40}{seconds:9.1f}  {outcome[:150]}")
    print(f"{'the whole term':40}{time.monotonic() - started:9.1f}\nother processes used {others.cores():.2f} of "
          f"the {os.cpu_count()} cores during the run; {machine()}", flush=True)

if __name__ == "__main__":
    main()
