"""Environment switches shared by the package, the lessons and CI."""

import os

# "idx": real IDX files on disk only (Fashion-MNIST); "tfds": TensorFlow Datasets only.
DATA_SOURCES = ("auto", "idx", "tfds", "synthetic")


def fast_mode():
    """True when ``TFDIST_EDU_FAST`` is set to 1/true/yes: CI shrinks data and epochs."""
    return os.environ.get("TFDIST_EDU_FAST", "").strip().lower() in ("1", "true", "yes", "on")


def data_source():
    """The data source forced by ``TFDIST_EDU_DATA`` ("auto" when unset).

    Raises ValueError naming the valid choices for anything else.
    """
    value = os.environ.get("TFDIST_EDU_DATA", "auto").strip().lower() or "auto"
    if value not in DATA_SOURCES:
        raise ValueError(
            f"TFDIST_EDU_DATA={value!r} is not a data source; use one of {', '.join(DATA_SOURCES)}"
        )
    return value
