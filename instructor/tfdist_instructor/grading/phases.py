"""Where one submission's grading time went, from the runner's clock and the grader's own.

Phases, in seconds: ``sandbox`` (bubblewrap and the runner's Python starting), ``kernel``
(the runner's imports and the notebook kernel starting until it answers), ``tensorflow``
(the import that brought TensorFlow into the kernel; only when profiled, else 0 and counted
in ``student``), ``student`` (the student's cells), ``checks`` (the probes in the kernel and
the verdict here), ``other`` (the rest: stopping the kernel and the sandbox, reading files).
"""

NAMES = ("sandbox", "kernel", "tensorflow", "student", "checks", "other")


def phases(clock, spawned, returned, verdict_s, total_s):
    """``{phase: seconds}`` for one run; ``{}`` when the runner's clock is missing or broken."""
    try:
        started, ready = float(clock["started"]), float(clock["kernel_ready"])
        cells = [c for c in clock["cells"] if "end" in c]
        tensorflow = float(clock.get("tensorflow_import_s") or 0.0)
        student = sum(float(c["end"]) - float(c["start"]) for c in cells if not c["probe"])
        probes = sum(float(c["end"]) - float(c["start"]) for c in cells if c["probe"])
    except (KeyError, TypeError, ValueError):
        return {}
    found = {"sandbox": started - spawned, "kernel": ready - started, "tensorflow": tensorflow,
             "student": max(0.0, student - tensorflow), "checks": probes + verdict_s}
    found["other"] = max(0.0, total_s - sum(found.values()))
    return {k: round(v, 3) for k, v in found.items()}
