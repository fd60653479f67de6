"""The Fashion-MNIST stand-in: the garment frame, the classes' drawings in label order, and the
shading and fabric every garment gets."""

import functools

import numpy as np

from tfdist_edu.synthetic.images import _blur, _generate, _noise, _uniform
from tfdist_edu.synthetic.other_garments import _ankle_boot, _bag, _dress, _sandal, _sneaker, _trouser
from tfdist_edu.synthetic.tops import _COAT, _PULLOVER, _SHIRT, _TSHIRT, _top

FASHION_CLASSES = ("T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                   "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot")


def fashion_mnist(n, seed=0):
    """Return ``(images, labels)``: ``n`` procedurally drawn garment silhouettes.

    ``images`` is uint8 [n, 28, 28, 1] (a light garment on black, like Fashion-MNIST) and
    ``labels`` int64 [n] indexes ``FASHION_CLASSES``, each class equally often. ``seed`` is
    an int (or a tuple of ints); the same seed gives the same images.
    """
    return _generate(n, seed, (28, 28, 1), _draw_garments)


# Each garment is drawn in its own frame: u runs left to right and v top to bottom, both
# about -1..1 over the object. The frame is placed with a random centre, size, aspect and
# small rotation, so the same shape rules give many different images. Each drawing function
# takes u, v of shape [k, 28, 28] and returns an intensity in [0, 1] of the same shape.


def _garment_frame(k, rng, size=28):
    """Return (u, v), each [k, size, size]: the pixel grid in k randomly placed garment frames."""
    y, x = np.mgrid[0:size, 0:size].astype(np.float32)
    centre = (size - 1) / 2
    dx = x - (centre + _uniform(rng, -1.5, 1.5, k))
    dy = y - (centre + _uniform(rng, -1.5, 1.5, k))
    half = _uniform(rng, 10.5, 13.0, k)
    angle = _uniform(rng, -0.12, 0.12, k)
    cos, sin = np.cos(angle), np.sin(angle)
    u = (cos * dx + sin * dy) / (half * _uniform(rng, 0.88, 1.12, k))
    v = (cos * dy - sin * dx) / (half * _uniform(rng, 0.88, 1.12, k))
    return u, v


_GARMENTS = (functools.partial(_top, style=_TSHIRT), _trouser, functools.partial(_top, style=_PULLOVER),
             _dress, functools.partial(_top, style=_COAT), _sandal,
             functools.partial(_top, style=_SHIRT), _sneaker, _bag, _ankle_boot)


def _draw_garments(labels, rng):
    """Return float [k, 28, 28] garment images in [0, 1] for ``labels``."""
    k = len(labels)
    u, v = _garment_frame(k, rng)
    shapes = np.zeros((k, 28, 28), np.float32)
    for label, draw in enumerate(_GARMENTS):
        index = np.flatnonzero(labels == label)
        if index.size:
            shapes[index] = draw(u[index], v[index], rng)
    # Shade, a top-to-bottom light gradient, folds and fabric noise differ from garment to
    # garment: dark garments show little but their outline, as in the real photographs.
    shade = _uniform(rng, 0.25, 1.0, k) * (1 + _uniform(rng, -0.25, 0.25, k) * v)
    folds = 1 + _uniform(rng, 0, 0.25, k) * np.sin(
        _uniform(rng, 3, 8, k) * u + _uniform(rng, -2, 2, k) * v + _uniform(rng, 0, 2 * np.pi, k))
    fabric = folds * (1 + 0.12 * _noise(rng, shapes.shape))
    image = _blur(shapes * shade * fabric)
    return image + _noise(rng, image.shape) * _uniform(rng, 0.01, 0.07, k)
