"""Student side of grading: run one notebook in a fresh kernel, then the probes; answer in JSON.

Started by ``launch`` (inside the sandbox unless grading is trusted) as
``python -m tfdist_instructor.grading.runner``. The job comes on stdin: the cleaned notebook,
the time limits and one probe per question. The answer goes to stdout: which cells raised or
were cut short, and each probe's data. It decides no points: the grader does, from this data.
"""

import json
import os
import sys
import tempfile
import time
from pathlib import Path

PROBE_CALL = """\
from tfdist_instructor.grading.probing import run_probe as _grader_run_probe
_grader_run_probe(get_ipython().user_ns, {source!r}, {inputs!r}, {out!r})"""
ANSWER_LIMIT = 32 << 20  # bytes of one probe's answer file read back


def main():
    job = json.loads(sys.stdin.buffer.read())
    answer = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # the kernel inherits stdout: its writes go to the log, not into the answer
    answer.write(json.dumps(run(job)))
    answer.flush()


def run(job):
    import nbformat

    nb = nbformat.reads(job["notebook"], as_version=4)
    Path(job["name"]).write_text(job["notebook"])
    probes = Path(tempfile.mkdtemp(prefix="probes-"))
    for question, probe in job["probes"].items():
        out = str(probes / f"{question}.json")
        cell = nbformat.v4.new_code_cell(PROBE_CALL.format(source=probe["source"], out=out,
                                                           inputs=json.dumps(probe["inputs"])))
        cell.metadata["grader_probe"] = question
        nb.cells.append(cell)
    report = {}
    try:
        _client(nb, job).execute(cwd=os.getcwd())
    except Exception as error:  # noqa: BLE001 - a dead kernel is a result, reported as such
        report["error"] = f"{type(error).__name__}: {str(error)[:300]}"
    report["cells"] = [_cell_report(c) for c in nb.cells if "grader_index" in c.metadata]
    report["probes"] = {q: _read(probes / f"{q}.json") for q in job["probes"]}
    return report


def _client(nb, job):
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

    return Client(nb, kernel_name="python3", allow_errors=True, interrupt_on_timeout=True,
                  timeout_func=cell_timeout, on_cell_execute=log, record_timing=False)


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
