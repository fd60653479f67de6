"""Plain data between the student's process and the grader: JSON, with arrays as ``.npy`` bytes.

Never pickle: unpickling runs code the student's process chose. Decoding gives only JSON
values, tuples, ``numpy`` arrays of plain dtypes (``allow_pickle=False``) and
:class:`Unsupported` markers, so whatever the student's process sends, the grader only
ever compares data.
"""

import base64
import io
import json


class Unsupported(str):
    """A value that is not plain data, known by its type name only."""


class ProbeFailed(Exception):
    """The probe itself raised (or was interrupted) in the student's kernel."""


def encode(value):
    """``value`` (tensors, arrays, numbers, strings, lists, tuples, dicts) as JSON text."""
    return json.dumps(_plain(value))


def _plain(value):
    import numpy as np

    if isinstance(value, (str, bool, int, float)) or value is None:
        return value
    if isinstance(value, dict):
        return {"__dict__": [[_plain(k), _plain(v)] for k, v in value.items()]}
    if isinstance(value, (list, tuple)):
        return {"__tuple__" if isinstance(value, tuple) else "__list__": [_plain(v) for v in value]}
    if isinstance(value, np.generic):
        return value.item()
    if hasattr(value, "numpy") or isinstance(value, np.ndarray):
        buffer = io.BytesIO()
        np.save(buffer, np.asarray(value), allow_pickle=False)
        return {"__ndarray__": base64.b64encode(buffer.getvalue()).decode()}
    return {"__unsupported__": type(value).__name__}


def decode(text):
    """The data ``encode`` wrote; ValueError for anything else."""
    return _restore(json.loads(text))


def _restore(node):
    import numpy as np

    if not isinstance(node, dict):
        if isinstance(node, list):
            raise ValueError("bare JSON list")
        return node
    (kind, body), = node.items()
    if kind == "__dict__":
        return {_restore(k): _restore(v) for k, v in body}
    if kind in ("__list__", "__tuple__"):
        items = [_restore(v) for v in body]
        return tuple(items) if kind == "__tuple__" else items
    if kind == "__ndarray__":
        return np.load(io.BytesIO(base64.b64decode(body)), allow_pickle=False)
    if kind == "__unsupported__":
        return Unsupported(body)
    if kind == "__probe_error__":
        raise ProbeFailed(str(body))
    raise ValueError(f"unknown node {kind!r}")
