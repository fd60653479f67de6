"""Read one IDX file, gzip-compressed or plain, and check it is the file expected.

The IDX format (Yann LeCun's MNIST page, http://yann.lecun.com/exdb/mnist/, "THE IDX FILE
FORMAT"; restated in the Praat manual, https://www.fon.hum.uva.nl/praat/manual/IDX_file_format.html):
a 4-byte magic number, whose first two bytes are 0, third the type of the data (0x08: unsigned
byte) and fourth the number of dimensions; then the size of each dimension as a big-endian
4-byte integer; then the data in C order. Fashion-MNIST uses the MNIST files' layout: images
0x00000803 (count x 28 x 28), labels 0x00000801 (count).

Every problem raises ``IdxFileError`` with one line that names the file, what was found and
what was expected.
"""

import gzip
import hashlib
import struct
import zlib

import numpy as np

UNSIGNED_BYTE = 0x08
KINDS = {1: "labels", 3: "images"}  # what a course IDX file with that many dimensions holds


class IdxFileError(ValueError):
    """An IDX file is unreadable, truncated, or not the file expected (the message names it)."""


def read(path, expected):
    """Return the uint8 array in the IDX file at ``path``, checked against ``expected``.

    ``expected`` is a ``specs.IdxFile``: the magic number and sizes must match its shape and
    the SHA-256 of the array its hash. Files whose name ends in ".gz" are decompressed.
    """
    raw = _contents(path)
    shape = _checked_shape(path, raw, expected.shape)
    payload = memoryview(raw)[4 + 4 * len(shape):]
    size = int(np.prod(shape))
    if len(payload) != size:
        problem = "truncated" if len(payload) < size else "too long"
        raise _error(path, f"{problem}: {len(payload)} bytes of data, expected {size} "
                           f"({' x '.join(map(str, shape))} unsigned bytes)")
    digest = hashlib.sha256(payload).hexdigest()
    if digest != expected.sha256:
        raise _error(path, f"content hash {digest[:16]}... differs from the original's "
                           f"{expected.sha256[:16]}...: not the file {expected.name}")
    return np.frombuffer(payload, np.uint8).reshape(shape)


def magic_number(ndim):
    """The magic number of an unsigned-byte IDX file with ``ndim`` dimensions."""
    return UNSIGNED_BYTE << 8 | ndim


def _contents(path):
    try:
        if str(path).endswith(".gz"):
            with gzip.open(path, "rb") as file:
                return file.read()
        with open(path, "rb") as file:
            return file.read()
    except EOFError:
        raise _error(path, "truncated: the compressed data ends early") from None
    except (gzip.BadGzipFile, zlib.error) as error:
        raise _error(path, f"not a valid gzip file ({error})") from None
    except OSError as error:
        raise _error(path, f"cannot be read ({error.strerror or error})") from None


def _checked_shape(path, raw, want):
    kind = KINDS[len(want)]
    if len(raw) < 4:
        raise _error(path, f"truncated: {len(raw)} bytes, shorter than an IDX header")
    magic, = struct.unpack(">I", raw[:4])
    if magic != magic_number(len(want)):
        raise _error(path, f"magic number 0x{magic:08X} ({_looks_like(magic)}), expected "
                           f"0x{magic_number(len(want)):08X} ({kind})")
    if len(raw) < 4 + 4 * len(want):
        raise _error(path, f"truncated: {len(raw)} bytes, shorter than its header")
    shape = struct.unpack(f">{len(want)}I", raw[4:4 + 4 * len(want)])
    if shape[0] != want[0]:
        raise _error(path, f"holds {shape[0]} {kind}, expected {want[0]}")
    if shape != tuple(want):
        raise _error(path, f"{kind} of {' x '.join(map(str, shape[1:]))} pixels, expected "
                           f"{' x '.join(map(str, want[1:]))}")
    return shape


def _looks_like(magic):
    if magic >> 16 == 0 and (magic >> 8) & 0xFF == UNSIGNED_BYTE and magic & 0xFF in KINDS:
        return f"a {KINDS[magic & 0xFF]} file"
    return "not an unsigned-byte IDX file"


def _error(path, problem):
    return IdxFileError(f"{path}: {problem}")
