"""What a stored lesson must not show: one list of patterns, used by ``make outputs`` and its test.

Each ``Noise`` is either printed by TensorFlow, absl or gRPC on their own (``strip``: storing
drops the line, from the match to its end, since the lesson did not write it), or written by
the lesson itself (a temporary path of the machine that ran it, a widget's repr where the widget
was): storing refuses those, naming lesson, cell and pattern, because only the lesson's code can
say something better. tests/lessons/test_stored_outputs_clean.py greps every stored output for all of
them. The causes are silenced in the package where there is one (tfdist_edu.quiet, the TFDS
probe in tfdist_edu.data.tfds_source, ``data.load`` kept from AutoGraph, the supervisor's filter);
this list is the net under them.
"""

import dataclasses
import re

_PREFIX = r"(?:^|\] )"  # a line start, or after the "[worker 0] " a supervisor puts in front


@dataclasses.dataclass(frozen=True)
class Noise:
    name: str
    pattern: re.Pattern
    strip: bool  # True: TensorFlow/absl/gRPC printed it by itself; False: the lesson did


NOISE = (
    Noise("TensorFlow C++ log line (I/W/E/F)",
          re.compile(_PREFIX + r"[IWEF]\d{4} [\d:.]+\s+\d+ \S+:\d+\] "), True),
    Noise("TensorFlow Python log line", re.compile(r"(?:INFO|WARNING|ERROR):tensorflow:"), True),
    Noise("absl log line", re.compile(r"(?:INFO|WARNING|ERROR):absl:|absl::InitializeLog"), True),
    Noise("AutoGraph warning", re.compile(
        r"AutoGraph could not transform|Cause: Unable to locate the source code|"
        r"decorate the function with @tf\.autograph\.experimental\.do_not_convert"), True),
    Noise("gRPC error", re.compile(
        r"Additional GRPC error information|(?::[A-Z_]+:)?Error received from peer|"
        r"grpc_status:\s*\d"), True),
    Noise("CUDA probe (cuInit)", re.compile(r"cuInit"), True),
    Noise("temporary path", re.compile(r"(?<![\w.])/tmp/|/var/folders/"), False),
    Noise("widget repr", re.compile(r"\b(?:VBox|HBox|Box|GridBox|Tab|Accordion)\(children="), False),
)


def found(text):
    """Every (noise, line) in ``text``: what a stored output must not contain."""
    return [(noise, line) for line in text.splitlines() for noise in NOISE
            if noise.pattern.search(line)]


def strip(text):
    """``text`` without what TensorFlow, absl and gRPC printed by themselves: each such line is
    cut where the noise starts (a lesson's words before it stay), and dropped if nothing is left."""
    kept = []
    for line in text.splitlines(keepends=True):
        cut = min((m.start() for n in NOISE if n.strip for m in [n.pattern.search(line)] if m),
                  default=None)
        if cut is None:
            kept.append(line)
        elif not _ONLY_A_NAME.fullmatch(line[:cut]):
            kept.append(line[:cut].rstrip() + "\n")
    return "".join(kept)


_ONLY_A_NAME = re.compile(r"\s*(?:\[[^\]]*\]?)?\s*")  # nothing, or only "[worker 0] " is left


def output_text(output):
    """The text a reader sees in one output: streams, plain text, HTML without inline images."""
    if output.get("output_type") == "stream":
        return output.get("text", "")
    if output.get("output_type") == "error":
        return "\n".join(output.get("traceback", []))
    data = output.get("data", {})
    html = re.sub(r"data:image/[\w+.-]+;base64,[A-Za-z0-9+/=\s]*", "", str(data.get("text/html", "")))
    return "\n".join(str(data.get(kind, "")) for kind in ("text/plain", "text/markdown")) + "\n" + html
