"""Student side of grading: run one notebook in a fresh kernel, then the probes; answer in JSON.

Started by ``launch`` (inside the sandbox unless grading is trusted) as
``python -m tfdist_instructor.grading.runner``. The job comes on stdin (a ``job.Job``, the typed
contract ``grade.py`` writes): the cleaned notebook, the time limits and one probe per question.
The answer goes to stdout: which cells raised or were cut short, and each probe's data. It
decides no points: the grader does, from this data.
"""

import json
import os
import sys
import tempfile
import time
from pathlib import Path

PROBE_CALL = """\
from tfdist_instructor.grading.probing import run_probe as _grader_run_probe
_grader_run_probe(get_ipython().user_ns, {source!r}, {inputs!r}, {out!r}, {helpers!r})"""
ANSWER_LIMIT = 32 << 20  # bytes of one probe's answer file read back
# jsonschema (under nbformat) imports this optional IRI checker if it can; it builds a grammar at
# import, seconds per sandbox, for a format no notebook schema uses. The runner does without it;
# the student's kernel is left as it is.
UNNEEDED = ("rfc3987_syntax",)


def main():
    from tfdist_instructor.grading import job as contract

    started = time.time()
    job = dict(contract.read(sys.stdin.buffer.read()))  # the grader's job, checked key by key
    job["started"] = started
    answer = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # the kernel inherits stdout: its writes go to the log, not into the answer
    answer.write(json.dumps(run(job)))
    answer.flush()


def run(job):
    for name in UNNEEDED:
        sys.modules.setdefault(name, None)  # "import name" then raises ImportError, which jsonschema expects
    import nbformat

    nb = nbformat.reads(job["notebook"], as_version=4)
    Path(job["name"]).write_text(job["notebook"])
    probes = Path(tempfile.mkdtemp(prefix="probes-"))
    for question, probe in job["probes"].items():
        out = str(probes / f"{question}.json")
        cell = nbformat.v4.new_code_cell(PROBE_CALL.format(source=probe["source"], out=out,
                                                           inputs=json.dumps(probe["inputs"]),
                                                           helpers=json.dumps(probe.get("helpers", {}))))
        cell.metadata["grader_probe"] = question
        nb.cells.append(cell)
    report, clock = {}, {"started": job.get("started"), "cells": []}
    try:
        _client(nb, job, clock, probes / "tensorflow-import").execute(cwd=os.getcwd())
    except Exception as error:  # noqa: BLE001 - a dead kernel is a result, reported as such
        report["error"] = f"{type(error).__name__}: {str(error)[:300]}"
    clock["ended"], clock["tensorflow_import_s"] = time.time(), _read(probes / "tensorflow-import")
    report["clock"] = clock
    report["cells"] = [_cell_report(c) for c in nb.cells if "grader_index" in c.metadata]
    report["probes"] = {q: _read(probes / f"{q}.json") for q in job["probes"]}
    report["called"] = {q: _read(probes / f"{q}.json.called") for q in job["probes"]}
    return report


def _client(nb, job, clock, import_clock):
    """The notebook client; ``clock`` gets when the kernel was ready and each cell's start and end
    (``time.time()``), and with ``job["clock"]`` the kernel times its TensorFlow import."""
    from nbclient import NotebookClient

    deadline = time.monotonic() + job["timeout_s"]
    reserve = job["probe_reserve_s"]  # kept for the probes after the student's cells

    class Client(NotebookClient):
        """Per-cell time limits, an output budget, and a log line per cell."""

        output_bytes = 0

        def output(self, outs, msg, display_id, cell_index):
            self.output_bytes += len(json.dumps(msg.get("content", {})))
            if self.output_bytes <= job["output_limit"]:
                return super().output(outs, msg, display_id, cell_index)
            self.nb.cells[cell_index].metadata["grader_truncated"] = True
            return None

    def cell_timeout(cell):
        left = deadline - time.monotonic()
        if "grader_probe" in cell.metadata:
            return max(1, int(min(job["cell_limit_s"], left)))
        return max(1, int(min(job["cell_limit_s"], left - reserve)))

    def log(cell, cell_index):
        what = f"cell {cell.metadata['grader_index']}" if "grader_index" in cell.metadata \
            else f"probe {cell.metadata.get('grader_probe')}"
        print(f"[grader] running {what}", file=sys.stderr, flush=True)
        clock["cells"].append({"probe": "grader_probe" in cell.metadata, "start": time.time()})

    def executed(cell, cell_index, execute_reply):
        if clock["cells"]:
            clock["cells"][-1]["end"] = time.time()

    def ready(notebook):
        clock["kernel_ready"] = time.time()

    timer = [f"--IPKernelApp.exec_lines=__import__('tfdist_instructor.grading.importclock', fromlist=['_'])"
             f".install({str(import_clock)!r})"] if job.get("clock") else []
    return Client(nb, kernel_name="python3", allow_errors=True, interrupt_on_timeout=True,
                  timeout_func=cell_timeout, on_cell_execute=log, on_cell_executed=executed,
                  on_notebook_start=ready, record_timing=False, extra_arguments=timer,
                  shutdown_kernel="immediate")  # the answers are in files already; the sandbox ends next


def _cell_report(cell):
    errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
    error = {"ename": str(errors[0].get("ename", ""))[:100], "evalue": str(errors[0].get("evalue", ""))[:2000]} \
        if errors else None
    return {"index": cell.metadata["grader_index"], "error": error,
            "truncated": bool(cell.metadata.get("grader_truncated"))}


def _read(path):
    try:
        with open(path) as f:
            return f.read(ANSWER_LIMIT)
    except OSError:
        return None


if __name__ == "__main__":
    main()
