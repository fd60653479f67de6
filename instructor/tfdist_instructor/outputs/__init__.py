"""Store one executed run's outputs in the lessons, so a student sees results before running.

``make outputs`` (``tfdist-instructor outputs``) copies the outputs of the normal-mode run that
``make test`` left in build/executed/ into notebooks/*.ipynb: text, tables and figures (PNGs
re-compressed, with the HTML ``<img alt=...>`` beside each rebuilt from the smaller PNG; widget
state dropped, and a widget's repr with it). It drops stderr and the lines TensorFlow, absl and
gRPC print by themselves into stdout (``noise.NOISE``), and refuses an executed copy whose code
differs from the lesson's, that ran in fast mode, or whose outputs carry noise only the lesson
can remove (a temporary path, a widget's repr in text). Each lesson records the hash of its code
cells, and tests/lessons/test_stored_outputs.py fails when a lesson's code changes without a refresh.

What ``make outputs`` needs lives in this package: ``noise`` (what a stored lesson must not show),
``run_checks`` (a quiet machine and true claims before a run is stored), ``lesson_time`` (each
lesson's Time line) and ``term_plan`` (the instructor guide's term plan, from the same measured
times; ``scripts/lesson_times.py`` writes it).
"""

import base64
import datetime
import hashlib
import io
import json
import re
from pathlib import Path

import nbformat

from tfdist_instructor import REPO_ROOT
from tfdist_instructor.machine import describe as describe_machine
from tfdist_instructor.outputs import noise, run_checks
from tfdist_instructor.outputs.lesson_time import rewrite_time_line

WIDGET = "application/vnd.jupyter.widget-view+json"
LABEL_PREFIX = "**Outputs shown**"
TIMES_FILE = "measured-times.json"  # in docs/: compute seconds of each lesson and solution
DATA_LINE = re.compile(r"^(Fashion-MNIST|SVHN): .*$", re.M)


def code_hash(nb):
    """The sha256 of a notebook's code cells, in order: what its stored outputs depend on."""
    sources = "\n\x1e\n".join(cell.source for cell in nb.cells if cell.cell_type == "code")
    return hashlib.sha256(sources.encode()).hexdigest()


def stale_reason(nb):
    """Return why a lesson's stored outputs are stale, or None when they match its code."""
    stored = nb.metadata.get("tfdist_edu", {}).get("stored_outputs")
    if not stored:
        return "it stores no outputs"
    if stored.get("code_sha256") != code_hash(nb):
        return f"its code changed after the outputs stored on {stored.get('date')} were made"
    return None


def store(executed="build/executed", notebooks=None, claims=None, only=()):
    """Copy every executed lesson's outputs into its notebook; return {name: bytes written}.

    ``only``: lesson stems (e.g. "04_performance") to store, the others keeping what they
    store; a lesson whose code changed is refreshed alone, without re-running the course.
    Refuses, before writing anything, a run made on a busy machine or one that fails the
    claims tests (``claims``: their folder, default tests/claims)."""
    notebooks = Path(notebooks or REPO_ROOT / "notebooks")
    lessons = sorted(notebooks.glob("[0-9][0-9]_*.ipynb"))
    unknown = sorted(set(only) - {path.stem for path in lessons})
    if unknown:
        raise ValueError(f"no lesson named {', '.join(unknown)}; the lessons are "
                         f"{', '.join(path.stem for path in lessons)}")
    if only:
        lessons = [path for path in lessons if path.stem in only]
    pairs = [(path, _executed_copy(Path(executed), path)) for path in lessons]
    for path, run in pairs:
        _refuse_lesson_noise(path.name, run)
    run_checks.check_quiet([(path.name, run) for path, run in pairs])
    run_checks.check_claims(executed, claims)
    machine, date = describe_machine(), datetime.date.today().isoformat()
    written = {}
    for path, run in pairs:  # every copy is checked above before any lesson is written
        nb = nbformat.read(path, as_version=4)
        seconds = 0.0
        for cell, done in zip(nb.cells, run.cells):
            if cell.cell_type == "code":
                cell.outputs = [out for out in map(_clean, done.outputs) if out is not None]
                cell.execution_count = done.execution_count
                seconds += done.metadata.get("tfdist_edu", {}).get("seconds", 0.0)
        data = "; ".join(dict.fromkeys(m.group(0) for m in DATA_LINE.finditer(_text(nb))))
        nb.metadata.pop("widgets", None)
        nb.metadata.setdefault("tfdist_edu", {})["stored_outputs"] = {
            "code_sha256": code_hash(nb), "date": date, "machine": machine,
            "compute_seconds": round(seconds), "data": data or "no dataset"}
        _label(nb, machine, date, data, run_checks.other_cores(run))
        rewrite_time_line(nb, round(seconds), machine)  # the value stored above, so they agree
        nbformat.write(nb, path)
        written[path.name] = path.stat().st_size
    _record_times(Path(executed), notebooks.parent / "docs" / TIMES_FILE, machine, date,
                  stored=[path.stem for path, _ in pairs])
    return written


def _record_times(executed, target, machine, date, stored):
    """Write the compute seconds of every lesson just ``stored`` and of every executed solution,
    for the term plan; the other lessons keep their recorded seconds (an executed copy left from
    an earlier run is not what the lesson stores). The file's machine and date are those of the
    solutions' run (each lesson records its own), so a run of lessons alone keeps them."""
    runs = [executed / "notebooks" / f"{stem}.ipynb" for stem in stored]
    solutions = sorted((executed / "solutions").glob("[0-9][0-9]_*/*.ipynb"))
    recorded = json.loads(target.read_text()) if target.is_file() else {}
    seconds = recorded.get("compute_seconds", {})
    for path in runs + solutions:
        nb = nbformat.read(path, as_version=4)
        seconds[path.stem] = round(sum(cell.metadata.get("tfdist_edu", {}).get("seconds", 0.0)
                                       for cell in nb.cells if cell.cell_type == "code"))
    if not solutions and recorded:
        machine, date = recorded.get("machine", machine), recorded.get("date", date)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps({"machine": machine, "date": date, "mode": "normal",
                                  "compute_seconds": seconds}, indent=1) + "\n")


def _executed_copy(executed, lesson):
    copy = executed / "notebooks" / lesson.name
    if not copy.is_file():
        raise FileNotFoundError(f"no executed copy of {lesson.name} in {executed}/notebooks: "
                                f"run `make test` first (it leaves the executed lessons there)")
    run, nb = nbformat.read(copy, as_version=4), nbformat.read(lesson, as_version=4)
    if code_hash(run) != code_hash(nb):
        raise ValueError(f"{copy} ran different code than {lesson}: run `make test` again")
    if run.metadata.get("tfdist_edu", {}).get("run", {}).get("fast_mode", True):
        raise ValueError(f"{copy} ran in fast mode (or records no mode); store only a "
                         f"normal-mode run, as `make test` makes it")
    return run


def _refuse_lesson_noise(name, run):
    """Raise ValueError naming lesson, cell and pattern for noise only the lesson can remove."""
    for index, cell in enumerate(run.cells):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream":
                text = "" if output.get("name") == "stderr" else noise.strip(output.get("text", ""))
            elif WIDGET in output.get("data", {}) and _only_a_widget_repr(output["data"]):
                text = ""  # the repr a widget leaves is dropped with it (_clean)
            else:
                text = noise.output_text(output)
            for found, line in noise.found(text):
                raise ValueError(f"{name} cell {index}: {found.name} in its output "
                                 f"({line.strip()[:120]!r}): change the lesson so it does not "
                                 f"print it, run `make test`, then `make outputs`")


def _clean(output):
    """Drop stderr, TensorFlow's own lines in stdout and widget state (and the repr a widget
    leaves); re-compress figures, keeping their HTML the same PNG. None drops the output."""
    output = nbformat.from_dict(output)
    if output.output_type == "stream":
        if output.name == "stderr":
            return None  # TensorFlow's log chatter; the lesson's own messages go to stdout
        output.text = noise.strip(output.text)
        return output if output.text else None
    data = output.get("data")
    if data is not None:
        if data.pop(WIDGET, None) is not None and _only_a_widget_repr(data):
            return None  # nothing but the widget's repr is left: "VBox(children=(FloatLogSlider(..."
        if "image/png" in data:
            data["image/png"] = _smaller_png(data["image/png"])
            _same_png_in_html(data)
        if not data:
            return None
    return output


def _only_a_widget_repr(data):
    """True when a widget output's only text is the widget's repr (an Explorer's is its answer)."""
    kinds = set(data) - {WIDGET}
    return kinds <= {"text/plain"} and any(n.name == "widget repr" for n, _ in
                                           noise.found(str(data.get("text/plain", ""))))


def _same_png_in_html(data):
    """Rebuild a figure's ``<img alt=...>`` (tfdist_edu.plots.display) around the stored PNG."""
    from tfdist_edu.figure_html import figure_html, parse_figure_html

    shown = parse_figure_html(data.get("text/html"))
    if shown is not None:
        data["text/html"] = figure_html(data["image/png"], shown[0])


def _smaller_png(b64):
    from PIL import Image

    image = Image.open(io.BytesIO(base64.b64decode(b64)))
    buffer = io.BytesIO()
    image.convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT).save(
        buffer, format="PNG", optimize=True)
    smaller = base64.b64encode(buffer.getvalue()).decode()
    return smaller if len(smaller) < len(b64) else b64


def _text(nb):
    return "".join(out.get("text", "") for cell in nb.cells if cell.cell_type == "code"
                   for out in cell.outputs if out.output_type == "stream")


def _label(nb, machine, date, data, others=None):
    """Say in the lesson's first cell where the stored outputs come from."""
    quiet = "" if others is None else (f"; other processes used {others:.2f} of a core on "
                                       "average while it ran")
    line = (f"{LABEL_PREFIX}: one normal-mode run on {machine}, {date}{quiet}; data: "
            f"{data or 'none'}. Running the lesson replaces them with your own.")
    first = nb.cells[0]
    kept = [text for text in first.source.split("\n") if not text.startswith(LABEL_PREFIX)]
    while kept and not kept[-1].strip():
        kept.pop()
    first.source = "\n".join(kept + ["", line])


def add_cli(subparsers):
    """Register ``outputs [--executed DIR] [--only LESSON ...]``."""
    parser = subparsers.add_parser("outputs", help="store the executed lessons' outputs in notebooks/ "
                                   "(after `make test`), so students see results before running")
    parser.add_argument("--executed", default="build/executed", help="executed notebooks (make test leaves them)")
    parser.add_argument("--only", action="append", metavar="LESSON",
                        help="store this lesson only (e.g. 04_performance; repeatable): a lesson "
                        "whose code changed, run alone in normal mode")
    parser.set_defaults(func=run)
    return parser


def run(args):
    written = store(args.executed, only=args.only or ())
    for name, size in written.items():
        print(f"{name}: outputs stored, {size / 1024:.0f} KiB")
    print(f"{len(written)} lessons, {sum(written.values()) / 1024:.0f} KiB in all")
    return 0
