"""Shared drawing helpers: seeded generation in chunks, per-image parameters, noise and blur."""

import operator

import numpy as np

_CHUNK = 1024  # images drawn at once: large enough to vectorise, small enough for the CPU cache


def _generate(n, seed, shape, draw):
    """Draw ``n`` images of ``shape`` with ``draw(labels, rng)``, chunk by chunk."""
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"n must be an integer number of images, got {n!r}") from None
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    streams = np.random.SeedSequence(seed).spawn(1 + -(-n // _CHUNK))
    labels = np.random.default_rng(streams[0]).permutation(np.arange(n) % 10).astype(np.int64)
    images = np.empty((n, *shape), np.uint8)
    for start, stream in zip(range(0, n, _CHUNK), streams[1:]):
        chunk = labels[start:start + _CHUNK]
        pixels = draw(chunk, np.random.default_rng(stream))
        images[start:start + len(chunk)] = np.round(255 * np.clip(pixels, 0, 1)).reshape(
            len(chunk), *shape)
    return images, labels


def _uniform(rng, lo, hi, k):
    """``k`` per-image parameters shaped [k, 1, 1] to broadcast over the pixel grid."""
    return rng.uniform(lo, hi, (k, 1, 1)).astype(np.float32)


def _chance(rng, p, k):
    """A [k, 1, 1] mask, True for each image with probability ``p``."""
    return rng.random((k, 1, 1)) < p


def _noise(rng, shape):
    """Zero-mean, unit-variance pixel noise (uniform: several times cheaper than normal)."""
    return (rng.random(shape, dtype=np.float32) - 0.5) * np.float32(12 ** 0.5)


def _blur(images):
    """Smooth [k, H, W, ...] images with a 3x3 binomial kernel (anti-aliases hard edges)."""
    padded = np.pad(images, ((0, 0), (1, 1), (1, 1)) + ((0, 0),) * (images.ndim - 3), mode="edge")
    rows = 0.25 * padded[:, :-2] + 0.5 * padded[:, 1:-1] + 0.25 * padded[:, 2:]
    return 0.25 * rows[:, :, :-2] + 0.5 * rows[:, :, 1:-1] + 0.25 * rows[:, :, 2:]
