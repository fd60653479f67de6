"""What one combination did: the matrix's two axes, the statuses and the Outcome record.

Both sides use it: the child process reports a status and an error line, the parent turns
them into an Outcome.
"""

import dataclasses
import re

from tfdist_edu import strategies

STRATEGIES = strategies.NAMES
PATHS = ("keras_fit", "keras_ctl", "tf_keras_fit")

WORKS, FAILS, NO_HARDWARE = "works", "fails", "no hardware"
WRONG_METRICS = "wrong metrics"  # trains, but the losses and metrics Keras reports are wrong


@dataclasses.dataclass
class Outcome:
    """What one strategy x path combination did.

    ``status`` is "works", "fails", "wrong metrics" (the weights match a replay of the same
    steps on one device, the loss reported does not) or "no hardware" (a TPU row without a TPU);
    ``error`` is the exception as one line, ``"Type: message"`` (None when it works); ``detail``
    says what ran, e.g. "2 replicas, loss 1.41". ``seconds`` is the wall time, start-up included.
    """

    strategy: str
    path: str
    status: str
    error: str | None = None
    detail: str = ""
    seconds: float = 0.0


def one_line(text, limit=200):
    """One stable line of an error message: whitespace collapsed, run-specific details masked."""
    text = " ".join(str(text).split())
    text = re.sub(r",\s*numpy=[^>]*>", ">", text)  # tensor values in a repr: long and run-specific
    text = re.sub(r"0x[0-9a-fA-F]+", "0x...", text)
    text = re.sub(r"(localhost|127\.0\.0\.1|\[::1\]):\d+", r"\1:PORT", text)
    text = re.sub(r"/tmp/\S+", "/tmp/...", text)
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."
