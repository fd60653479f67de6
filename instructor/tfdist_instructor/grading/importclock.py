"""Kernel side, only when profiling: how long the import that brought TensorFlow in took.

Installed at kernel start (``runner``, job option ``clock``) by wrapping ``builtins.__import__``
for the outermost import statements until TensorFlow is loaded; then it writes the seconds to
a file and unwraps itself. A notebook can tamper with this: it changes a timing, not a grade.
"""

import builtins
import sys
import time


def install(path):
    """Time the first top-level import after which ``tensorflow`` is loaded; write it to ``path``."""
    original, busy = builtins.__import__, []

    def timed(name, *args, **kwargs):
        if busy or "tensorflow" in sys.modules:
            return original(name, *args, **kwargs)
        busy.append(name)
        started = time.monotonic()
        try:
            return original(name, *args, **kwargs)
        finally:
            busy.clear()
            if "tensorflow" in sys.modules:
                with open(path, "w") as f:
                    f.write(f"{time.monotonic() - started:.4f}")
                builtins.__import__ = original

    builtins.__import__ = timed
