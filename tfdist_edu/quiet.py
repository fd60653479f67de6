"""What TensorFlow prints by itself, silenced where it starts.

**INFO lines in a notebook** (``import tfdist_edu`` applies this in IPython). In an interactive shell, Jupyter's kernel included, TensorFlow's Python logger sets itself to
INFO and writes to stdout (``tf_logging.get_logger``: "If we are in an interactive environment
(like Jupyter), set loglevel to INFO and pipe the output to stdout"). Every MirroredStrategy then
prints "INFO:tensorflow:Using MirroredStrategy with devices ..." and every cross-device reduce
"INFO:tensorflow:Reduce to ... then broadcast to ..." into the lesson, between the lines the
lesson prints: 92 such lines in one stored run. A filter on the "tensorflow" logger lets only
warnings and errors through; it is added before TensorFlow is imported or after, and TensorFlow
setting its level later does not remove it. ``show_tensorflow_info()`` takes it away again.
Each warning shows once, even after absl has given the root logger a handler of its own.

Elsewhere (scripts, workers, tests) TensorFlow logs at WARNING already, and nothing is changed.

**The device probe on a machine without a CUDA driver.** The TensorFlow wheel is a GPU build;
where no driver is installed its CUDA stub answers cuInit with error 303, and the first device
listing logs "E... cuda_platform.cc:52] failed call to cuInit: ... UNKNOWN ERROR (303)": an
error line for the normal state of a CPU machine (TensorFlow already said at import, at INFO
level, "Could not find cuda drivers on your machine, GPU will not be used"). The CPU-only wheel
(tensorflow-cpu) cannot replace it: tf-keras requires the ``tensorflow`` distribution, and
CUDA_VISIBLE_DEVICES="" does not stop the stub's call. So ``probe_devices()`` makes that first
listing itself, with file descriptor 2 captured, and writes back every line but that one (and
TensorFlow's INFO/WARNING start-up lines). ``tfdist_edu.hardware`` calls it when imported after
TensorFlow, as every lesson does, and before ``detect`` and ``simulate_devices``. Any other
cuInit error (a driver that is there but broken) is written back.

**Importing TensorFlow in a terminal** (``tfdist-edu tour``, ``doctor``): ``import_tensorflow()``
imports it the same way, so only its errors reach the terminal.
"""

import logging
import os
import re
import sys
import tempfile

_LOGGER = "tensorflow"


class _WhileRootIsBare(logging.Filter):
    """On TensorFlow's own handler: passes records while the root logger has no handler.

    In a notebook TensorFlow's logger has a handler of its own (to stdout). absl's first log call
    (TensorFlow's ``connect_to_cluster`` makes one) gives the root logger a handler as well
    (``logging.basicConfig``), and every record that propagates there showed twice, on stdout and
    on stderr; from then on the root's handler alone shows it."""

    def filter(self, record):
        return not logging.getLogger().handlers


class _WarningsAndUp(logging.Filter):
    """Lets records of level WARNING and above through, and puts ``_ONCE`` on TensorFlow's own
    handler, the stream it writes to (added when TensorFlow is imported, maybe after this filter)."""

    def filter(self, record):
        for handler in logging.getLogger(_LOGGER).handlers:
            if type(handler) is logging.StreamHandler and _ONCE not in handler.filters:
                handler.addFilter(_ONCE)
        return record.levelno >= logging.WARNING


_ONCE = _WhileRootIsBare()
_FILTER = _WarningsAndUp()


def hide_tensorflow_info():
    """Keep TensorFlow's INFO lines out of a notebook's output (warnings and errors still show)."""
    logger = logging.getLogger(_LOGGER)
    if _FILTER not in logger.filters:
        logger.addFilter(_FILTER)


def show_tensorflow_info():
    """Let TensorFlow's INFO lines through again (``tf.get_logger().setLevel("INFO")`` then works)."""
    logger = logging.getLogger(_LOGGER)
    logger.removeFilter(_FILTER)
    for handler in logger.handlers:
        handler.removeFilter(_ONCE)


def in_a_notebook():
    """Apply what a notebook needs: called by ``import tfdist_edu`` when IPython is running."""
    hide_tensorflow_info()


# An absl log line from TensorFlow's C++ runtime: its level (I, W, E or F) and its source file.
ABSL_LINE = re.compile(r"^([IWEF])\d{4} [\d:.]+\s+\d+ (\S+?):\d+\] ")

# Lines TensorFlow's C++ runtime and gRPC write by themselves that tell a student nothing: absl
# INFO and WARNING lines (TF_CPP_MIN_LOG_LEVEL does not reach those written before absl is
# initialised), the CPU-feature banner, CUDA probing on machines without a GPU, and the errors a
# worker logs when a peer goes away (a collective aborted, a connection reset), with the gRPC
# detail lines that follow them, and gloo's line that a process connected to its peers. A
# worker that fails is reported with its full log, these included (Supervisor._failure); an
# error such as "Could not start gRPC server" stays visible.
_NOISE = re.compile(
    r"All log messages before absl::InitializeLog|To enable the following instructions:|"
    r"rebuild TensorFlow with the appropriate compiler flags|oneDNN custom operations|"
    r"Unable to register cu(DNN|FFT|BLAS) factory|TF-TRT Warning|"
    r"computation placer already registered|"
    r"^Additional GRPC error information from remote target|"
    r"^:?[A-Z_]*:?Error received from peer|"
    # The continuation lines TensorFlow adds under a collective's error when a peer went away.
    r"^The error could be from a previous operation\. Restart your program to reset\.$|"
    r"^\s*\[\[\{\{node [^}]*\}\}\]\]|^/job:\w+/replica:\d+/task:\d+$|"
    r"^The tasks have crashed\. Check the task logs|"
    # gloo (JAX's CPU collectives across processes) prints this on stdout when a process has
    # connected to its peers: every run prints it, and a failure to connect raises an error.
    r"^\[Gloo\] Rank \d+ is connected to \d+ peer ranks\."
)
_PEER_GONE = re.compile(
    r"Connection reset by peer|Socket closed|failed to connect to all addresses|"
    r"Aborting RingReduce|StartAbort|Cancelling all pending|Local rendezvous is aborting"
)


def is_log_noise(line):
    """True for TensorFlow log lines that tell a student nothing: hidden from a worker's streamed output
    (``supervisor``; they stay in its full log) and from what the device probe writes back."""
    match = ABSL_LINE.match(line)
    if match:
        level, source = match.groups()
        return (level in "IW" or source.startswith(("cuda", "cudart")) or bool(_NOISE.search(line))
                or (level == "E" and bool(_PEER_GONE.search(line))))
    return bool(_NOISE.search(line))


_NO_DRIVER = re.compile(r"failed call to cuInit: .*\(303\)")
_probed = False


def is_no_driver_line(line):
    """Whether ``line`` is TensorFlow's cuInit error 303: the normal state of a machine without a
    CUDA driver, not an error (a broken driver's other cuInit errors are not this line)."""
    return bool(_NO_DRIVER.search(line))


def _is_startup_noise(line):
    if is_no_driver_line(line):
        return True
    match = ABSL_LINE.match(line)
    return match.group(1) in "IW" if match else is_log_noise(line)


def without_startup_noise(call):
    """Run ``call()`` with file descriptor 2 captured; write back all but TensorFlow's start-up
    noise (``_is_startup_noise``); return what ``call`` returned."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as captured:
        os.dup2(captured.fileno(), 2)
        try:
            return call()
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            captured.seek(0)
            kept = [line for line in captured.read().decode("utf-8", "replace").splitlines(True)
                    if not _is_startup_noise(line)]
            if kept:
                os.write(2, "".join(kept).encode())


def probe_devices():
    """List TensorFlow's physical devices once, without the cuInit line of a driverless machine."""
    global _probed
    if not _probed:
        import tensorflow as tf

        without_startup_noise(tf.config.list_physical_devices)
        _probed = True


def import_tensorflow():
    """Import TensorFlow and list its devices with only its errors reaching the terminal."""
    if "tensorflow" not in sys.modules:
        without_startup_noise(lambda: __import__("tensorflow"))
    probe_devices()
