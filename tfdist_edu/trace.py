"""One profiled training step as per-replica events, through xprof's public converter.

``tf.profiler`` writes an XSpace file; xprof (the maintained TensorBoard profile plugin,
``pip install 'tfdist-edu[profile]'``) converts it into a Chrome trace. Its "trace_viewer" tool
keeps each op's full TensorFlow name (``long_name``), which says which replica ran it:
MirroredStrategy prefixes replica k's ops with ``replica_k/`` (replica 0 has no prefix), the
gradients come from ``gradient_tape/``, and the optimizer updates copy k in ``update_k``.
"""

import dataclasses
import glob
import importlib.util
import json
import os
import re

PHASES = ("forward", "backward", "all-reduce", "update")
# Op types that combine or copy values between devices: the all-reduce and its copies.
_REDUCE_TYPES = {"AddN", "CollectiveReduceV2", "CollectiveReduce", "NcclAllReduce",
                 "_Send", "_Recv", "_HostSend", "_HostRecv"}
_SKIPPED_TYPES = {"ReadVariableOp", "Assert", "NoOp", "Identity", "Const"}  # bookkeeping, ~0 s
INSTALL_HINT = "pip install 'tfdist-edu[profile]'  (installs xprof)"


@dataclasses.dataclass(frozen=True)
class Event:
    """One op of a traced step: which replica ran it, in which phase, when (ms from step start)."""

    replica: int
    phase: str
    name: str
    start_ms: float
    duration_ms: float


def available():
    """True when xprof, the converter, can be imported."""
    return importlib.util.find_spec("xprof") is not None


def profile(run_step, steps, logdir):
    """Profile ``run_step(i)`` for ``i`` in ``range(steps)``; return the XSpace file written.

    Each step is marked with ``tf.profiler.experimental.Trace("step", step_num=i)``.
    """
    import tensorflow as tf

    tf.profiler.experimental.start(logdir)
    try:
        for i in range(steps):
            with tf.profiler.experimental.Trace("step", step_num=i, _r=1):
                run_step(i)
    finally:
        tf.profiler.experimental.stop()
    return max(glob.glob(os.path.join(logdir, "plugins", "profile", "*", "*.xplane.pb")),
               key=os.path.getmtime)


def chrome_trace(xplane_path):
    """The Chrome trace (a dict with "traceEvents") xprof makes of one XSpace file."""
    from xprof.convert import raw_to_tool_data

    data, _ = raw_to_tool_data.xspace_to_tool_data([str(xplane_path)], "trace_viewer", {})
    return json.loads(data)


def classify(long_name):
    """``(replica, phase)`` of an op from its TensorFlow name ``"scope/op:Type"``, or None."""
    name, _, op_type = long_name.rpartition(":")
    if not name or op_type in _SKIPPED_TYPES or long_name.startswith("Iterator::"):
        return None
    match = re.search(r"(?:replica|update)_(\d+)(?:/|_|$)", name)
    replica = int(match.group(1)) if match else 0
    if op_type in _REDUCE_TYPES:
        return replica, "all-reduce"
    if re.search(r"(^|/)update_\d+", name) or op_type.startswith(("Assign", "ResourceApply")):
        return replica, "update"
    if name.startswith("gradient_tape/"):
        return replica, "backward"
    return replica, "forward"


def step_events(trace, step=1):
    """The classified ``Event`` list of step number ``step`` in a Chrome ``trace``."""
    events = [e for e in trace["traceEvents"] if e.get("ph") == "X"]
    marker = next((e for e in events if e.get("args", {}).get("step_num") == str(step)), None)
    if marker is None:
        raise ValueError(f"step {step} is not in this trace: profile more steps")
    start, end = marker["ts"], marker["ts"] + marker["dur"]
    found = []
    for e in events:
        kind = classify(e.get("args", {}).get("long_name", ""))
        if kind and start <= e["ts"] <= end:
            found.append(Event(kind[0], kind[1], e["args"]["long_name"],
                               (e["ts"] - start) / 1000, e["dur"] / 1000))
    return sorted(found, key=lambda ev: (ev.replica, ev.start_ms))
