"""Points from the probes' data, decided in the grader's process where no student code ran."""

from tfdist_instructor.grading import codec


def judge(question, inputs, raw, delegated=()):
    """One result dict per case of ``question`` for the probe answer ``raw`` (JSON text or None).

    ``delegated``: course helpers the answer used in place of its own work (:mod:`ownwork`):
    every case then fails, saying so."""
    try:
        if delegated:
            raise AssertionError(f"answered with {', '.join(sorted(delegated))}: a course helper, not your own work")
        if raw is None:
            raise AssertionError("no answer: the notebook stopped before this question was probed")
        out, problem = codec.decode(raw), None
    except codec.ProbeFailed as error:
        out, problem = None, f"the grader could not call your code: {error}"
    except (AssertionError, ValueError, TypeError, RecursionError) as error:
        out, problem = None, str(error) or "the answer was not plain data"
    return [_run_case(c, question.name, inputs, out, problem) for c in question.cases]


def _run_case(case, question, inputs, out, problem):
    message = problem
    if message is None:
        try:
            case.check(inputs, out)
        except AssertionError as error:
            message = str(error) or "assertion failed"
        except Exception as error:  # noqa: BLE001 - answers of the wrong shape fail, they never crash
            message = f"unexpected answer ({type(error).__name__}: {error})"
    diagnosis = _diagnose(case, inputs, out) if message is not None and problem is None else None
    if problem and problem.startswith("answered with "):
        diagnosis = problem
    return {"question": question, "case": case.name, "hidden": not case.public, "passed": message is None,
            "points": case.points, "message": (message or "")[:500], "hint": case.hint, "diagnosis": diagnosis}


def _diagnose(case, inputs, out):
    """The failed case's diagnosis, or None; a diagnosis that cannot read the answer says nothing."""
    if case.diagnose is None:
        return None
    try:
        found = case.diagnose(inputs, out)
    except Exception:  # noqa: BLE001 - an answer of another shape has no known mistake's signature
        return None
    return str(found)[:400] if found else None


def score(results):
    """Points earned in ``results``."""
    return sum(r["points"] for r in results if r["passed"])
