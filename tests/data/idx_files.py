"""Small IDX files for the tests: write good ones from small arrays, or broken ones.

``small_spec`` is Fashion-MNIST's spec with a small set of expected files (60 train, 20 test
images), their hashes computed from the arrays here, so no test copies the real 30 MB.
"""

import dataclasses
import gzip
import hashlib
import struct

import numpy as np

from tfdist_edu.data import specs

SIZES = (60, 20)


def arrays(seed=0):
    """Train images, train labels, test images, test labels: small uint8 arrays."""
    rng = np.random.default_rng(seed)
    out = []
    for count in SIZES:
        out += [rng.integers(0, 256, (count, 28, 28), dtype=np.uint8),
                rng.integers(0, 10, count, dtype=np.uint8)]
    return out


def small_spec(tmp_path):
    """Fashion-MNIST's spec expecting ``arrays()``, with the Debian folder moved into tmp_path."""
    real = specs.SPECS["fashion_mnist"]
    files = tuple(specs.IdxFile(file.name, array.shape, hashlib.sha256(array.tobytes()).hexdigest())
                  for file, array in zip(real.idx_files, arrays()))
    return dataclasses.replace(real, idx_files=files, idx_debian=str(tmp_path / "debian"))


def idx_bytes(array, magic=None, dims=None):
    """The IDX encoding of a uint8 array; ``magic``/``dims`` override the header's values."""
    magic = 0x0800 | array.ndim if magic is None else magic
    dims = array.shape if dims is None else dims
    return struct.pack(f">I{len(dims)}I", magic, *dims) + array.tobytes()


def write(folder, contents=None, compress=True):
    """Write the four files of ``arrays()`` into ``folder``; ``contents`` maps a file's
    official name to the bytes to write instead (compressed like the rest). Returns folder."""
    folder.mkdir(parents=True, exist_ok=True)
    for file, array in zip(specs.SPECS["fashion_mnist"].idx_files, arrays()):
        raw = (contents or {}).get(file.name, idx_bytes(array))
        if compress:
            (folder / file.name).write_bytes(gzip.compress(raw))
        else:
            (folder / file.name[:-3]).write_bytes(raw)
    return folder
