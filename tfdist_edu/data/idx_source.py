"""The real data from IDX files on disk: where to look, reading all four, the course data.

Folders are tried in this order, the ones the user names first:

1. ``manual_dir``, when ``load`` is given one;
2. the folder in the spec's environment variable (``TFDIST_EDU_FASHION_MNIST_DIR``);
3. Keras's download cache, ``$KERAS_HOME`` (default ``~/.keras``) then ``datasets/fashion-mnist``,
   filled by ``keras.datasets.fashion_mnist.load_data()``;
4. the Debian package's folder (``apt-get install dataset-fashion-mnist``).

A folder may hold each file compressed (official name) or plain (the name without ".gz").
A folder the user named that lacks the files is a problem to report; a missing cache or
package folder is not.
"""

import os

from tfdist_edu.data import idx
from tfdist_edu.data.course import build


class NoIdxFiles(LookupError):
    """A folder that was not named by the user holds none of the files: nothing to report."""


def folders(spec, manual_dir=None):
    """Return ``[(folder, where, named_by_user)]`` in the order they are tried."""
    found = []
    if manual_dir is not None:
        found.append((str(manual_dir), "manual_dir", True))
    if os.environ.get(spec.idx_env, "").strip():
        found.append((os.environ[spec.idx_env].strip(), spec.idx_env, True))
    keras_home = os.environ.get("KERAS_HOME") or os.path.join("~", ".keras")
    found.append((os.path.expanduser(os.path.join(keras_home, spec.idx_keras)), "Keras cache",
                  False))
    found.append((spec.idx_debian, f"Debian package {spec.idx_package}", False))
    return found


def paths(spec, folder, named_by_user):
    """Return the four files' paths in ``folder``, preferring the compressed ones.

    Raises ``NoIdxFiles`` (none there, folder not named by the user) or ``idx.IdxFileError``.
    """
    found, missing = [], []
    for file in spec.idx_files:
        candidates = [os.path.join(folder, name) for name in (file.name, file.name[:-3])]
        present = [path for path in candidates if os.path.isfile(path)]
        found.append(present[0] if present else None)
        if not present:
            missing.append(file.name)
    if len(missing) == len(spec.idx_files) and not named_by_user:
        raise NoIdxFiles(folder)
    if not os.path.isdir(folder):
        raise idx.IdxFileError(f"{folder}: not a folder; expected one holding "
                               f"{', '.join(f.name for f in spec.idx_files)}")
    if missing:
        raise idx.IdxFileError(f"{folder}: lacks {', '.join(missing)} (compressed or not); "
                               f"expected all of {', '.join(f.name for f in spec.idx_files)}")
    return found


def read(spec, folder, named_by_user=True):
    """Return the four checked arrays in ``folder``: train images, labels, test images, labels."""
    return [idx.read(path, expected)
            for path, expected in zip(paths(spec, folder, named_by_user), spec.idx_files)]


def load(name, spec, arrays, sizes, reason, folder):
    """Return ``CourseData`` from the four arrays, each split cut to its size (None: whole)."""
    import tensorflow as tf

    splits = []
    for (images, labels), size in zip((arrays[:2], arrays[2:]), sizes):
        images, labels = images[:size, ..., None], labels[:size].astype("int64")
        splits.append(tf.data.Dataset.from_tensor_slices((images, labels)))
    return build(name, spec, *splits, source="idx", reason=reason, location=folder)
