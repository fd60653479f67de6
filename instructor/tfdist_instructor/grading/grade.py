"""Grade one submission: read it, run it with the probes (sandboxed), judge the answers here."""

import datetime
import json
import time
from pathlib import Path

from tfdist_instructor.grading import (catalog, cells, codec, hints, job, launch, notebook, ownwork, phases, sandbox,
                                      seeds, structure, verdict)
from tfdist_instructor.grading.options import GradeOptions
from tfdist_instructor.grading.result import NOT_GRADED, GradeResult
from tfdist_instructor.grading.text import short

TRIES = 2  # runs of one submission when the grader's side fails (grader_failure) before it is "not graded"
RETRY_WAIT_S = 5  # between them: a machine short of processes or memory for a moment has them again
# The same environment sandboxed or trusted: fast mode and the synthetic data, offline.
RUN_ENV = {"TFDIST_EDU_FAST": "1", "TFDIST_EDU_DATA": "synthetic", "TF_CPP_MIN_LOG_LEVEL": "2",
           "PYTHONUNBUFFERED": "1", "PYTHONDONTWRITEBYTECODE": "1", "PATH": "/usr/bin:/bin"}


def grade_submission(path, options=GradeOptions(), student=None, named=None):
    """Grade one submitted file with the run's ``options`` and return its GradeResult (never raises for bad files).

    ``student``: the id its row and feedback carry (default: the file's name without ``.ipynb``).
    ``named``: the exercise the run's submissions all name (a folder's or a class's, settled beside the
    options), which a notebook that names none is graded as. The options say the rest: ``options.exercise``
    is the exercise every file is graded as (None: ``named``, else the one the notebook names),
    ``options.seed_for(student)`` the seed of the inputs the grader draws (None: a new one, from
    :func:`seeds.new_seed`); the seed is recorded in the result, and the same seed gives the same
    inputs. ``options.profile`` also times the kernel's TensorFlow import (``result.phases``, see :mod:`phases`).
    """
    exercise, path, started = options.exercise or named, Path(path), time.monotonic()
    student = student or (path.stem if path.suffix == ".ipynb" else path.name)
    seed = options.seed_for(student)
    result = GradeResult(student=student, file=path.name, seed=seeds.new_seed() if seed is None else seeds.check(seed))
    try:
        if exercise:
            _expect(result, exercise)
        exercise, nb, problems = notebook.read(path, exercise)
        _expect(result, exercise)
        result.problems += problems
        _run_and_judge(nb, result, options)
    except notebook.Rejected as why:
        result.status = "rejected"
        result.problems.append(str(why))
    except Exception as error:  # noqa: BLE001 - a grader bug costs this row, not the class's results
        result.status = "failed"
        result.problems.append(f"the grader could not handle this file: {type(error).__name__}: {short(error)}")
    result.seconds = round(time.monotonic() - started, 1)
    result.graded_at = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="microseconds")
    return result


def grader_failure(outcome):
    """Why the run broke for a reason outside the student's code, or None when it did not.

    A run that broke before the first of the student's cells started (the sandbox, the runner or
    the kernel could not start: out of processes, memory or time on this machine) ran no student
    code, so its 0 would be the grader's, not the student's. Once a student's cell has started,
    what happens is the notebook's result, as it always was (a fork bomb's own kernel included).
    """
    if outcome.killed:
        return None
    started = outcome.started or any(launch.CELL_STARTED in line for line in outcome.log)
    try:
        report = json.loads(outcome.result)
        clock = report.get("clock") or {}
        started = started or any(isinstance(c, dict) and not c.get("probe") for c in clock.get("cells") or [])
        error = report.get("error")
    except (ValueError, TypeError, AttributeError):
        return None if started else (f"the sandbox ended before the notebook started (exit {outcome.returncode}): "
                                     f"{short(' '.join(outcome.log[-5:])) or 'it said nothing'}")
    if error and not started:
        return f"the notebook's kernel could not start: {short(error)}"
    return None


def _expect(result, exercise):
    result.exercise = exercise
    result.possible_by_question = catalog.questions(exercise)


def _run_and_judge(nb, result, options):
    import nbformat

    asked = catalog.load(result.exercise)
    inputs = seeds.draw_inputs(asked, result.seed)  # a new seed every run unless replayed: hard-coding does not pass
    sent = job.make(notebook=nbformat.writes(nb), name=f"{result.exercise}.ipynb", timeout_s=options.timeout_s,
                    cell_limit_s=options.cell_limit_s, probe_reserve_s=options.probe_reserve_s,
                    output_limit=cells.OUTPUT_LIMIT_BYTES, clock=options.profile,
                    probes={q.name: job.Probe(source=q.probe_source, inputs=inputs[q.name], helpers=q.helpers)
                            for q in asked})
    for attempt in range(1, TRIES + 1):  # a run the grader's side broke is run again, then not graded
        spawned = time.time()
        try:
            outcome = launch.run(json.dumps(sent).encode(), RUN_ENV, options)
        except sandbox.NoSlot as error:
            outcome, failure = None, f"no sandbox could be had: {short(error)}"
        else:
            failure = grader_failure(outcome)
        returned = time.time()
        if failure is None:
            break
        if attempt < TRIES:
            result.retried = failure
            time.sleep(RETRY_WAIT_S)
    else:
        result.status = NOT_GRADED
        result.problems.insert(0, f"{failure} (tried {TRIES} times; a failure of the grader, not of the notebook: "
                                  "grade it again)")
        return
    if outcome.killed:
        result.status = "timed out"
        running = [ln.split("[grader] running ", 1)[1] for ln in outcome.log if "[grader] running " in ln]
        where = cells.where(running[-1] if running else "", nb)
        result.problems.insert(0, f"stopped after {options.timeout_s:g} s, the time limit: {where} was still running "
                                  "(an infinite loop, or a cell that ignores interrupts?)")
        return
    try:
        report = json.loads(outcome.result)
        probes = dict(report["probes"])
        ran = [c for c in report["cells"] if isinstance(c, dict) and isinstance(c.get("error") or {}, dict)]
    except (ValueError, KeyError, TypeError):
        result.status = "failed"
        result.problems.insert(0, f"the run ended without an answer (exit {outcome.returncode}): "
                                  f"{short(' '.join(outcome.log[-5:]))}")
        return
    if report.get("error"):
        result.problems.insert(0, f"the notebook's kernel broke down: {short(report['error'])}")
    result.problems += cells.problems(ran, nb)
    owners, called = structure.answer_questions(notebook.handed_out(result.exercise).cells), report.get("called") or {}
    for q in asked:
        used = ownwork.delegated(q, nb.cells, owners, called.get(q.name) if isinstance(called, dict) else None)
        if used:
            result.problems.append(ownwork.message(q.name, used))
        result.tests += verdict.judge(q, inputs[q.name], probes.get(q.name), used)
        if q.rubric:
            result.written[q.name] = (_written(probes.get(q.name)), q.rubric)
    hints.prune(result.tests, nb.cells, owners)
    result.phases = phases.phases(report.get("clock") or {}, spawned, returned, time.time() - returned,
                                  time.time() - spawned)


def _written(raw):
    try:
        answer = codec.decode(raw).get("written") if raw else None
    except (ValueError, TypeError, AttributeError, codec.ProbeFailed):
        answer = None
    return answer if isinstance(answer, str) else "(no written answer was found)"
