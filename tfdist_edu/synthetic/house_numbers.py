"""The SVHN stand-in: house-number crops, from clean shots through cluttered ones with
neighbouring digits to poor shots."""

import numpy as np

from tfdist_edu.synthetic.glyphs import _FONTS, _digit_glyphs, _render_digits
from tfdist_edu.synthetic.images import _blur, _chance, _generate, _noise, _uniform

_NEIGHBOUR_CHANCE = 0.6  # how often a neighbouring digit shows at each side of the centre one
_POOR_SHOT_CHANCE = 0.15  # chance that a crop which is not clean is a dim, washed-out, blurred one
_CLEAN_SHOT_CHANCE = 0.3  # share of clear digits alone on a plain plate


def svhn(n, seed=0):
    """Return ``(images, labels)``: ``n`` house-number crops with the labelled digit centred.

    ``images`` is uint8 [n, 32, 32, 3]: a digit in one of several fonts and a random colour on a
    coloured, cluttered background, often with parts of neighbouring digits at its sides, as in
    SVHN's cropped digits. ``labels`` is int64 [n], the centre digit 0-9. Same seed, same images.
    """
    return _generate(n, seed, (32, 32, 3), _draw_house_numbers)


def _colours(rng, luminance):
    """[k, 1, 1, 3] random tints around per-image grey levels ``luminance`` [k, 1, 1]."""
    tint = rng.uniform(-0.3, 0.3, (*luminance.shape, 3)).astype(np.float32)
    return np.clip(luminance[..., None] + tint, 0, 1)


def _draw_house_numbers(labels, rng):
    """Return float [k, 32, 32, 3] house-number crops in [0, 1] with ``labels`` centred.

    Crops range from clean shots (a clear digit alone on a plain plate: what a CNN learns
    first) through the usual ones (clutter, neighbouring digits, colour and contrast spread)
    to poor shots (dim, washed out, blurred: barely readable, what bounds the accuracy).
    """
    k = len(labels)
    y, x = np.mgrid[0:32, 0:32].astype(np.float32)
    clean = _chance(rng, _CLEAN_SHOT_CHANCE, k)
    poor = _chance(rng, _POOR_SHOT_CHANCE, k) & ~clean
    base = np.where(_chance(rng, 0.7, k), _uniform(rng, 0.1, 0.5, k), _uniform(rng, 0.5, 0.9, k))
    image = _house_background(base, ~clean, x, y, rng)
    ink = _house_digits(labels, ~clean, x, y, rng)

    # The digits contrast with the background: light on dark (more often here) or dark on light.
    strength = np.where(clean, _uniform(rng, 0.7, 0.85, k),
                        0.85 - 0.6 * _uniform(rng, 0, 1, k) ** 2)
    strength = np.where(poor, _uniform(rng, 0.01, 0.06, k), strength)
    contrast = strength * np.where(base > 0.5, -1, 1).astype(np.float32)
    image = image + ink[..., None] * (_colours(rng, base + contrast) - image)

    # Camera: blur, brightness and contrast, noise; poor shots are blurred and noisy too.
    image = _blur(image)
    image = np.where((poor | _chance(rng, 0.3, k))[..., None], _blur(image), image)
    image = 0.5 + _uniform(rng, 0.7, 1.1, k)[..., None] * (image - 0.5)
    noise = np.where(poor, _uniform(rng, 0.05, 0.1, k), _uniform(rng, 0.01, 0.06, k))
    return image + _noise(rng, image.shape) * noise[..., None]


def _house_background(base, cluttered, x, y, rng):
    """[k, 32, 32, 3]: colours around grey levels ``base``, a gradient and, where
    ``cluttered``, rectangles of clutter (bricks, plates, edges)."""
    k = len(base)
    direction = _uniform(rng, 0, 2 * np.pi, k)
    slope = _uniform(rng, 0, 0.012, k)
    gradient = slope * (np.cos(direction) * (x - 16) + np.sin(direction) * (y - 16))
    image = _colours(rng, base) + gradient[..., None]
    for _ in range(2):
        left, top = _uniform(rng, -8, 32, k), _uniform(rng, -8, 32, k)
        columns = (x[:1] > left) & (x[:1] < left + _uniform(rng, 4, 24, k))  # [k, 1, 32]
        rows = (y[:, :1] > top) & (y[:, :1] < top + _uniform(rng, 4, 24, k))  # [k, 32, 1]
        box = rows & columns & _chance(rng, 0.7, k) & cluttered
        image = np.where(box[..., None], _colours(rng, base + _uniform(rng, -0.2, 0.2, k)), image)
    return image


def _house_digits(labels, crowded, x, y, rng):
    """[k, 32, 32] ink: the labelled digit in the centre and, often where ``crowded``, parts
    of its neighbours at the sides, in the same font and style."""
    k = len(labels)
    font = rng.integers(0, len(_FONTS), k)
    style = dict(
        font_height=_digit_glyphs()[1][font][:, None, None],
        centre_x=16 + _uniform(rng, -2, 2, k), centre_y=16 + _uniform(rng, -2, 2, k),
        height=_uniform(rng, 16, 26, k), shear=_uniform(rng, -0.25, 0.25, k),
        angle=_uniform(rng, -0.15, 0.15, k), squeeze=_uniform(rng, 0.8, 1.2, k),
    )
    spacing = style["height"] * style["squeeze"] * _uniform(rng, 0.7, 0.9, k)
    ink = _render_digits(10 * font + labels, x, y, **style)
    for side in (-1, 1):
        rows = np.flatnonzero((rng.random(k) < _NEIGHBOUR_CHANCE) & crowded.reshape(k))
        neighbour = {name: value[rows] for name, value in style.items()}
        neighbour["centre_x"] = neighbour["centre_x"] + side * spacing[rows]
        glyph_ids = 10 * font[rows] + rng.integers(0, 10, rows.size)
        ink[rows] = np.maximum(ink[rows], _render_digits(glyph_ids, x, y, **neighbour))
    return ink
