"""A graded term run as exercises/README.md ("A graded term", "Regrades") tells an instructor to,
each documented command timed: the release, a roster class's downloads graded with a late policy,
then the habits of real instructors, each checked for every student's row:

- two grading runs of the class at once, each into a report folder of its own (a copy of the
  class's, regraded with --replay-seeds: the same inputs), while a third run grades a notebook that
  forks about 500 sleepers and waits: every row as graded alone (as root only, where each sandbox
  runs as the uid of a machine-wide slot; skipped otherwise, and the table says so);
- two regrades of one student, by --only and by one file copied into a folder of its own (every
  other row byte for byte);
- a Moodle file (its time is the file's) copied with a plain cp, which sets its time to now, and
  regraded with the seed its row recorded: its total kept, the moved time reported, not applied;
- a mistyped --policy-dir: refused in one line before any work, nothing written;

and the Canvas and Moodle gradebooks and the Gradescope autograder. A failed step exits 1.

    PYTHONPATH=.:instructor python benchmarks/term_walkthrough.py [--jobs N] [--timeout S] [--keep DIR]

(as root, e.g. under ``sudo env PYTHONPATH=.:instructor``, for the two runs at once).

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
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from importlib import metadata
from pathlib import Path

import nbformat

from tfdist_instructor import REPO_ROOT
from tfdist_instructor.grading import sandbox
from tfdist_instructor.sample_class import planting
from tfdist_instructor.sample_class.downloads import EXERCISE, FILES, make_class
from tfdist_edu.other_load import SampledLoad

POLICY = "deadline = 2026-03-02T23:59:00Z\nlate_penalty = 0.10\nlate_limit_days = 5\n[extensions]\ns1005 = 2\n"
PLANTED = ("s1004", "q3-answer", "2 * (n - 1) / n * size_bytes / bandwidth", "size_bytes / bandwidth")
LATE_FILE = f"smithbob_LATE_23456_67891_{EXERCISE}.ipynb"  # s1002's, regraded from a folder of its own
MOVED_FILE = f"Ana María López_501_assignsubmission_file_{EXERCISE}.ipynb"  # s1003's: Moodle, its time the file's
TYPO = "polcy/"  # policy/, as a hurried instructor types it
TABLES = ("scores.csv", "totals.csv", "unmatched.csv")
OURS = "tfdist-instructor"
SLEEPERS = 400  # the forker has spent its uid's processes once this many sleep
FORKER_TIMEOUT_S = 4000  # its cells may run 2000 s: its run is killed once the class's runs end
RUNS_LIMIT_S = 1800  # for the two class runs at once


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


def typed(argv):
    return " ".join(shlex.quote(str(a)) for a in argv)


def step(steps, root, tool, name, argv, outcome, cwd=None, typed_before="", refused=False):
    """Run ``argv`` where an instructor would, printing it, its seconds and ``outcome(stdout)``;
    ``refused``: the command must fail, and ``outcome`` gets the finished process."""
    print(f"\n[{len(steps) + 1}] {name}\n    $ {typed_before}{typed(argv)}", flush=True)
    started = time.monotonic()
    done = subprocess.run([tool if a == OURS else str(a) for a in argv], cwd=cwd or root,
                          capture_output=True, text=True)
    if bool(done.returncode) != refused:
        print(done.stdout[-3000:], done.stderr[-3000:], sep="\n")
        sys.exit(f"FAILED: step [{len(steps) + 1}] {name} "
                 f"{'was not refused' if refused else f'exited {done.returncode}'}: {typed(argv)}")
    steps.append((name, time.monotonic() - started, outcome(done if refused else done.stdout)))
    print(f"    {steps[-1][1]:.1f} s: {steps[-1][2]}", flush=True)


def sleepers(token):
    """``{pid: uid}`` of the processes running ``sleep <token>`` (the forker's), from /proc."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if token.encode() not in (Path("/proc") / entry / "cmdline").read_bytes().split(b"\0"):
                continue
            status = (Path("/proc") / entry / "status").read_text()
        except OSError:
            continue  # it ended while we looked
        found[int(entry)] = next(int(ln.split()[1]) for ln in status.splitlines() if ln.startswith("Uid:"))
    return found


def tail(path):
    return path.read_text(errors="replace")[-3000:]


def as_graded_alone(report, alone):
    """Fail unless every row of ``report``'s tables is ``alone``'s, in order: totals.csv and
    unmatched.csv byte for byte, scores.csv but for when each row was graded and how long it took."""
    for name in TABLES:
        if name == "scores.csv":
            now, then = ({r["student"]: [(k, v) for k, v in r.items() if k not in ("seconds", "graded_at")]
                          for r in rows(folder / name)} for folder in (report, alone))
        else:
            now, then = records(report / name), records(alone / name)
        if list(now.items()) != list(then.items()):
            moved = [k for k in {**now, **then} if now.get(k) != then.get(k)]
            sys.exit(f"FAILED: {report.name}/{name} differs from the class graded alone: {', '.join(moved) or 'order'}")


def launched(tool, argv, root, log):
    """``argv`` started in ``root`` as in a terminal of its own, its output into ``log``."""
    with open(log, "w") as f:
        return subprocess.Popen([tool if a == OURS else str(a) for a in argv], cwd=root, stdout=f,
                                stderr=subprocess.STDOUT)


def class_runs_at_once(steps, root, tool, common):
    """The class graded by two runs at once, each into a copy of its report with --replay-seeds (the
    same inputs), beside a third run grading a fork bomb; both runs' rows must be the class's as
    graded alone, in ``root/report``. As root only: skipped otherwise, saying so."""
    name = "two class runs at once, and a fork bomb"
    print(f"\n[{len(steps) + 1}] {name}", flush=True)
    if os.geteuid() != 0:
        steps.append((name, None, "skipped: needs root (only a root grader runs each sandbox as the uid of a "
                                  "machine-wide slot); run the walkthrough as root for this step"))
        print(f"    {steps[-1][2]}", flush=True)
        return
    token = f"{4000 + random.randrange(1000)}.{random.randrange(10**6)}"  # the sleepers' argv: sleep <token>
    (root / "forker").mkdir()
    nbformat.write(planting.fork_bomb(EXERCISE, token, wait_s=3600), root / "forker" / "forker.ipynb")
    forker = [OURS, "grade", "forker/", "--out", "forker-report/", "--timeout", FORKER_TIMEOUT_S]
    runs = {n: [OURS, "grade", "downloads/", "--out", f"report-{n}/", *common, "--replay-seeds"] for n in (1, 2)}
    print(f"    terminal 1 $ {typed(forker)}   # its notebook forks 500 sleepers and waits", flush=True)
    for n, argv in runs.items():
        print(f"    terminal {n + 1} $ cp -r report report-{n} && {typed(argv)}", flush=True)
    procs, ended = {}, {}
    try:
        procs[0] = launched(tool, forker, root, root / "forker.log")
        t0 = time.monotonic()
        while len(sleepers(token)) < SLEEPERS:
            if procs[0].poll() is not None or time.monotonic() - t0 > 180:
                sys.exit(f"FAILED: the fork bomb's {SLEEPERS} sleepers never ran:\n{tail(root / 'forker.log')}")
            time.sleep(0.2)
        ramp = time.monotonic() - t0
        for n in runs:
            shutil.copytree(root / "report", root / f"report-{n}")
        started = time.monotonic()
        for n, argv in runs.items():  # the second starts while the first runs, as in another terminal
            procs[n] = launched(tool, argv, root, root / f"report-{n}.log")
        while len(ended) < len(runs):
            for n in runs:
                if n not in ended and procs[n].poll() is not None:
                    ended[n] = time.monotonic() - started
            if time.monotonic() - started > RUNS_LIMIT_S:
                sys.exit(f"FAILED: the class runs at once took over {RUNS_LIMIT_S} s")
            time.sleep(0.2)
        seconds, alive = time.monotonic() - started, sleepers(token)
    finally:  # the forker's grader gone, bubblewrap (--die-with-parent) ends its sandbox and every sleeper
        for proc in procs.values():
            if proc.poll() is None:
                proc.kill()
            proc.wait()
    t1 = time.monotonic()
    while sleepers(token):
        if time.monotonic() - t1 > 30:
            sys.exit(f"FAILED: {len(sleepers(token))} of the fork bomb's sleepers outlived its grading run")
        time.sleep(0.2)
    if len(alive) < SLEEPERS:
        sys.exit(f"FAILED: the fork bomb's sleepers ended before the class runs did ({len(alive)} left): no overlap")
    slots = range(sandbox.FIRST_UID, sandbox.FIRST_UID + sandbox.SLOTS)
    if strangers := sorted({uid for uid in alive.values() if uid not in slots}):
        sys.exit(f"FAILED: the fork bomb's sleepers ran as uid(s) {strangers}, not a slot's")
    for n in runs:
        log = root / f"report-{n}.log"
        if procs[n].returncode or "graded on a second run" in log.read_text():
            sys.exit(f"FAILED: class run {n} exited {procs[n].returncode} or had a sandbox that broke:\n{tail(log)}")
        as_graded_alone(root / f"report-{n}", root / "report")
    alone = next(s for n, s, _ in steps if n == "grade the class")
    uids = ", ".join(map(str, sorted(set(alive.values()))))
    steps.append((name, seconds, f"both reports' rows as graded alone; {ended[1]:.0f} s and {ended[2]:.0f} s at once "
                                 f"(alone {alone:.0f} s); {len(alive)} sleepers (slot uid {uids}) up in {ramp:.0f} s, "
                                 f"alive throughout, gone {time.monotonic() - t1:.0f} s after their run"))
    print(f"    {seconds:.1f} s: {steps[-1][2]}", flush=True)


def copied_regrade(run, root, common):
    """s1003's Moodle file (its time is the file's) copied with a plain cp (the copy's time: now)
    into a folder of its own, regraded into the class's report with the seed its row recorded:
    the recorded time is used and the moved one reported, so no row changes, s1003's totals row
    included."""
    student, folder = FILES[MOVED_FILE][0], f"regrade-{FILES[MOVED_FILE][0]}"
    (root / folder).mkdir()
    shutil.copy(root / "downloads" / MOVED_FILE, root / folder / MOVED_FILE)  # as cp does: its time is now
    seed = {r["student"]: r["seed"] for r in rows(root / "report" / "scores.csv")}[student]
    before = {name: records(root / "report" / name) for name in TABLES}

    def kept_time(out):
        note = said(out, f"note: {student}: {MOVED_FILE}")
        line = unchanged_but(root / "report", before, student)
        if records(root / "report" / "totals.csv")[student] != before["totals.csv"][student]:
            sys.exit(f"FAILED: the copy's new time changed {student}'s row of totals.csv:\n"
                     f"{before['totals.csv'][student]}{records(root / 'report' / 'totals.csv')[student]}")
        return f"{line}, its totals row byte-identical too; said: {note}"

    run(f"regrade {student}: one cp'd file, --seed", [OURS, "grade", f"{folder}/", "--out", "report/", *common,
                                                       "--seed", seed], kept_time,
        typed_before=f"mkdir -p {folder} && cp {shlex.quote(f'downloads/{MOVED_FILE}')} {folder}/ && ")


def snapshot(root):
    """Every path under ``root`` with its modification time, and the bytes of the report's files."""
    return {str(p.relative_to(root)): (p.lstat().st_mtime_ns, p.read_bytes() if p.is_file()
                                       and p.is_relative_to(root / "report") else None) for p in root.rglob("*")}


def mistyped_policy(run, root, common):
    """The class's grade command with --policy-dir mistyped: refused in one line, before any work."""
    if (root / TYPO).exists():
        sys.exit(f"FAILED: {root / TYPO} exists; the step needs a folder that does not")
    before = snapshot(root)

    def refused_before_work(done):
        lines = [ln for ln in (done.stdout + done.stderr).splitlines() if ln.strip()]
        if len(lines) != 1 or TYPO.rstrip("/") not in lines[0]:
            sys.exit(f"FAILED: expected one line naming {TYPO}, got:\n{done.stdout}{done.stderr}")
        if (after := snapshot(root)) != before:
            changed = sorted(k for k in {**before, **after} if before.get(k) != after.get(k))
            sys.exit(f"FAILED: the refused command changed {', '.join(changed)}")
        return f"exit {done.returncode}, nothing under the term's folder written or touched: {lines[0]}"

    run("a mistyped --policy-dir: refused", [OURS, "grade", "downloads/", "--out", "report/",
                                            *[TYPO if a == "policy/" else a for a in common]],
        refused_before_work, refused=True)


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
    tool = shutil.which(OURS, path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
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
        run = functools.partial(step, steps, root, tool)
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
        run("grade the class", [OURS, "grade", "downloads/", "--out", "report/", *common],
            lambda out: totals_line(root / "report"))
        class_runs_at_once(steps, root, tool, common)
        before = {name: records(root / "report" / name) for name in TABLES}
        run(f"regrade {PLANTED[0]}: --only --replay-seeds", [OURS, "grade", "downloads/", "--out", "report/", *common,
            "--only", PLANTED[0], "--replay-seeds"], lambda out: unchanged_but(root / "report", before, PLANTED[0]))
        (root / "regrade").mkdir(exist_ok=True)  # the README's other route: the file copied into a folder of its own
        shutil.copy2(root / "downloads" / LATE_FILE, root / "regrade" / LATE_FILE)
        seed = {r["student"]: r["seed"] for r in rows(root / "report" / "scores.csv")}["s1002"]
        before = {name: records(root / "report" / name) for name in TABLES}
        run("regrade s1002: one file, --seed", [OURS, "grade", "regrade/", "--out", "report/", *common, "--seed", seed],
            lambda out: unchanged_but(root / "report", before, "s1002"),
            typed_before=f"mkdir -p regrade && cp downloads/{LATE_FILE} regrade/ && ")
        copied_regrade(run, root, common)
        mistyped_policy(run, root, common)
        for fmt, extra in (("canvas", ["--canvas-assignment", f"{EXERCISE}=4711"]), ("moodle", [])):
            run(f"{fmt} gradebook", [OURS, "gradebook", "report/", "--roster", "roster.csv", "--format", fmt,
                                     "--out", f"{fmt}.csv", *extra],
                lambda out: said(out, "no graded submission", "every student graded"))
        run("Gradescope autograder", [OURS, "gradescope", EXERCISE, "--out", "autograder.zip"],
            lambda out: f"autograder.zip, {len(zipfile.ZipFile(root / 'autograder.zip').namelist())} files, "
                        f"{(root / 'autograder.zip').stat().st_size / 1e6:.1f} MB")
    print(f"\n{'step':40}{'seconds':>9}  outcome")
    for name, seconds, outcome in steps:
        print(f"{name[:40]:40}{'-' if seconds is None else f'{seconds:.1f}':>9}  {outcome[:150]}")
    print(f"{'the whole term':40}{time.monotonic() - started:9.1f}\nother processes used {others.cores():.2f} of "
          f"the {os.cpu_count()} cores during the run; {machine()}", flush=True)

if __name__ == "__main__":
    main()
