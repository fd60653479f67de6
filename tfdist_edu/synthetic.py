"""Learnable offline stand-ins for Fashion-MNIST and SVHN, drawn with numpy.

The real datasets cannot be downloaded everywhere the course runs (CI, offline laptops), so
``data.load`` falls back to these. They have the real datasets' shapes, dtypes and classes, and
enough structure that the course CNNs learn them, while random size, position, rotation,
shade, clutter and noise keep them from being trivial. Images are drawn in vectorised chunks,
deterministically from a seed; nothing is downloaded (SVHN digits are rasterised once from the
fonts bundled with matplotlib).
"""

import functools
import operator
from pathlib import Path

import numpy as np

FASHION_CLASSES = ("T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                   "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot")
SVHN_CLASSES = tuple("0123456789")

_CHUNK = 1024  # images drawn at once: large enough to vectorise, small enough for the CPU cache


def fashion_mnist(n, seed=0):
    """Return ``(images, labels)``: ``n`` procedurally drawn garment silhouettes.

    ``images`` is uint8 [n, 28, 28, 1] (a light garment on black, like Fashion-MNIST) and
    ``labels`` int64 [n] indexes ``FASHION_CLASSES``, each class equally often. ``seed`` is
    an int (or a tuple of ints); the same seed gives the same images.
    """
    return _generate(n, seed, (28, 28, 1), _draw_garments)


def svhn(n, seed=0):
    """Return ``(images, labels)``: ``n`` house-number crops with the labelled digit centred.

    ``images`` is uint8 [n, 32, 32, 3]: a digit in one of several fonts and a random colour on a
    coloured, cluttered background, often with parts of neighbouring digits at its sides, as in
    SVHN's cropped digits. ``labels`` is int64 [n], the centre digit 0-9. Same seed, same images.
    """
    return _generate(n, seed, (32, 32, 3), _draw_house_numbers)


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


def _noise(rng, shape):
    """Zero-mean, unit-variance pixel noise (uniform: several times cheaper than normal)."""
    return (rng.random(shape, dtype=np.float32) - 0.5) * np.float32(12 ** 0.5)


def _blur(images):
    """Smooth [k, H, W, ...] images with a 3x3 binomial kernel (anti-aliases hard edges)."""
    padded = np.pad(images, ((0, 0), (1, 1), (1, 1)) + ((0, 0),) * (images.ndim - 3), mode="edge")
    rows = 0.25 * padded[:, :-2] + 0.5 * padded[:, 1:-1] + 0.25 * padded[:, 2:]
    return 0.25 * rows[:, :, :-2] + 0.5 * rows[:, :, 1:-1] + 0.25 * rows[:, :, 2:]


# ---------------------------------------------------------------- Fashion-MNIST garments
#
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


def _sleeves(au, v, body_half_width, rng, long):
    """Sleeves hanging from the shoulders: long ones reach the hem, short ones stop high.

    ``long`` is a bool, or a [k, 1, 1] mask choosing per image.
    """
    k = len(au)
    gap = _uniform(rng, 0.02, 0.07, k)  # the dark seam between arm and body
    out = au - body_half_width - gap
    width = _uniform(rng, 0.18, 0.26, k) + 0.08 * (v + 0.8)  # arms widen towards the cuff
    end = np.where(long, _uniform(rng, 0.55, 0.9, k), _uniform(rng, -0.45, -0.2, k) + 0.5 * out)
    return (out > 0) & (out < width) & (v > -0.8 + 0.6 * out) & (v < end)


def _upper_body(u, v, rng, width, bottom, long_sleeves):
    """A torso with sleeves: the shape that tops, pullovers, coats and shirts share."""
    k = len(u)
    au = np.abs(u)
    half = _uniform(rng, *width, k)
    torso = (au < half) & (v > -0.8) & (v < _uniform(rng, *bottom, k))
    return au, torso | _sleeves(au, v, half, rng, long_sleeves)


def _tshirt(u, v, rng):
    _, shape = _upper_body(u, v, rng, (0.42, 0.56), (0.7, 0.95), long_sleeves=False)
    neck = (u / 0.2) ** 2 + ((v + 0.8) / 0.16) ** 2 < 1
    return shape & ~neck


def _pullover(u, v, rng):
    k = len(u)
    _, shape = _upper_body(u, v, rng, (0.42, 0.54), (0.75, 0.92), long_sleeves=True)
    neck = (u / 0.16) ** 2 + ((v + 0.8) / 0.1) ** 2 < 1
    ribbing = 1 - 0.3 * ((v > _uniform(rng, 0.55, 0.7, k)) & (np.sin(14 * u) > 0))
    return (shape & ~neck) * ribbing


def _coat(u, v, rng):
    k = len(u)
    au, shape = _upper_body(u, v, rng, (0.48, 0.6), (0.88, 1.0), long_sleeves=True)
    opening = (au < 0.04) & (rng.random((k, 1, 1)) < 0.85)
    lapels = (au < 0.3 * (-0.3 - v) / 0.5) & (v > -0.8)
    pockets = (np.abs(v - 0.35) < 0.05) & (au > 0.18) & (au < 0.4) & (rng.random((k, 1, 1)) < 0.5)
    return shape * (1 - 0.7 * opening - 0.45 * lapels - 0.4 * pockets)


def _shirt(u, v, rng):
    k = len(u)
    long_sleeves = rng.random((k, 1, 1)) < 0.7
    au, shape = _upper_body(u, v, rng, (0.42, 0.52), (0.78, 0.95), long_sleeves)
    collar = (au < 0.16 * (v + 0.45) / -0.35) & (v > -0.8)
    buttons = (au < 0.06) & (np.cos(np.pi * v / _uniform(rng, 0.14, 0.2, k)) > 0.5) & (v > -0.4)
    checks = (np.sin(_uniform(rng, 9, 14, k) * u) * np.sin(_uniform(rng, 9, 14, k) * v) > 0)
    patterned = rng.random((k, 1, 1)) < 0.5
    return (shape & ~collar) * (1 - 0.6 * buttons) * (1 - 0.3 * (checks & patterned))


def _trouser(u, v, rng):
    k = len(u)
    au = np.abs(u)
    half = _uniform(rng, 0.3, 0.42, k)
    waist = _uniform(rng, -0.7, -0.5, k)
    t = np.clip((v - waist) / (0.95 - waist), 0, 1)  # 0 at the crotch, 1 at the hem
    inner = 0.02 + _uniform(rng, 0.03, 0.1, k) * t
    outer = half + _uniform(rng, -0.06, 0.08, k) * t
    legs = (v >= waist) & (v < 0.95) & (au > inner) & (au < outer)
    band = (v > -0.95) & (v < waist) & (au < half)
    return (legs | band) * (1 - 0.25 * ((v > -0.95) & (v < -0.83)))


def _dress(u, v, rng):
    k = len(u)
    au = np.abs(u)
    waist = _uniform(rng, -0.4, -0.15, k)
    chest = _uniform(rng, 0.2, 0.3, k)
    hem = _uniform(rng, 0.42, 0.72, k)
    bottom = _uniform(rng, 0.8, 0.98, k)
    skirt = chest - 0.04 + (hem - chest + 0.04) * np.clip((v - waist) / (bottom - waist), 0, 1)
    half = np.where(v < waist, chest, skirt)
    neckline = _uniform(rng, -0.9, -0.7, k)
    body = (au < half) & (v > neckline) & (v < bottom)
    neck = (u / 0.13) ** 2 + ((v - neckline) / 0.14) ** 2 < 1
    straps = (au > chest - 0.1) & (au < chest) & (v > -1.0) & (v <= neckline)
    return body & ~neck | straps & (rng.random((k, 1, 1)) < 0.6)


def _sandal(u, v, rng):
    k = len(u)
    sole = (np.abs(u) < 0.95) & (v > 0.3 + 0.06 * u ** 2) & (v < 0.46 + 0.06 * u ** 2)
    hull = (v > -0.3 + 0.28 * (u + 1)) & (v < 0.34) & (u > -0.9) & (u < 0.88)
    angle = _uniform(rng, 0.3, 1.2, k)
    wave = np.sin(_uniform(rng, 9, 14, k) * (u * np.cos(angle) + v * np.sin(angle))
                  + _uniform(rng, 0, 2 * np.pi, k))
    straps = hull & (wave > _uniform(rng, 0.1, 0.5, k))
    heel_strap = (u > -0.95) & (u < -0.75) & (v > -0.4) & (v < 0.34)
    return sole | straps | heel_strap


def _sneaker(u, v, rng):
    k = len(u)
    top = _uniform(rng, -0.35, -0.15, k) + _uniform(rng, 0.35, 0.5, k) * (u + 0.9) / 1.8
    toe = (u < 0.5) | (((u - 0.5) / 0.45) ** 2 + ((v - 0.32) / 0.5) ** 2 < 1)
    upper = (u > -0.92) & (u < 0.95) & (v > top) & (v < 0.32) & toe
    sole = (np.abs(u) < 0.95) & (v >= 0.3) & (v < 0.5)
    laces = (np.abs(v - top - 0.12) < 0.06) & (u > -0.35) & (u < 0.35) & (np.sin(22 * u) > 0.3)
    return upper * (0.75 - 0.4 * laces) + sole


def _bag(u, v, rng):
    k = len(u)
    au = np.abs(u)
    half = _uniform(rng, 0.6, 0.92, k)
    top = _uniform(rng, -0.45, -0.1, k)
    body = (au < half * (0.85 + 0.15 * (v - top) / (0.9 - top))) & (v > top) & (v < 0.9)
    radius = np.hypot(u / _uniform(rng, 0.3, 0.5, k), (v - top) / 0.5)
    handle = (v <= top) & (radius > 0.75) & (radius < 1) & (rng.random((k, 1, 1)) < 0.8)
    flap = (np.abs(v - top - _uniform(rng, 0.2, 0.35, k)) < 0.04) & (rng.random((k, 1, 1)) < 0.5)
    return (body | handle) * (1 - 0.5 * (flap & body))


def _ankle_boot(u, v, rng):
    k = len(u)
    shaft = (u > -0.75) & (u < _uniform(rng, -0.1, 0.1, k)) & (v > _uniform(rng, -0.95, -0.6, k))
    toe = (u < 0.45) | (((u - 0.45) / 0.45) ** 2 + ((v - 0.45) / 0.5) ** 2 < 1)
    foot = (u > -0.75) & (u < 0.9) & (v > _uniform(rng, -0.1, 0.1, k)) & toe
    boot = (shaft | foot) & (v < 0.45)
    heel = (u > -0.75) & (u < -0.42) & (v >= 0.45) & (v < 0.65)
    sole = boot & (v > 0.36)
    return boot * (1 - 0.4 * sole) + heel


_GARMENTS = (_tshirt, _trouser, _pullover, _dress, _coat,
             _sandal, _shirt, _sneaker, _bag, _ankle_boot)


def _draw_garments(labels, rng):
    """Return float [k, 28, 28] garment images in [0, 1] for ``labels``."""
    k = len(labels)
    u, v = _garment_frame(k, rng)
    shapes = np.zeros((k, 28, 28), np.float32)
    for label, draw in enumerate(_GARMENTS):
        index = np.flatnonzero(labels == label)
        if index.size:
            shapes[index] = draw(u[index], v[index], rng)
    # Shade, a top-to-bottom light gradient and fabric noise differ from garment to garment.
    shade = _uniform(rng, 0.35, 1.0, k) * (1 + _uniform(rng, -0.25, 0.25, k) * v)
    fabric = 1 + 0.12 * _noise(rng, shapes.shape)
    image = _blur(shapes * shade * fabric)
    return image + _noise(rng, image.shape) * _uniform(rng, 0.01, 0.07, k)


# ---------------------------------------------------------------- SVHN house numbers

# Fonts that matplotlib bundles, so the glyphs can be drawn offline on any machine.
_FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf",
          "DejaVuSansMono-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf",
          "STIXGeneral.ttf", "STIXGeneralBol.ttf")
_GLYPH = 64  # side of the square canvas each glyph is rasterised on


@functools.lru_cache(maxsize=None)
def _digit_glyphs():
    """Return (glyphs, heights): float32 [fonts * 10, 64, 64] ink in [0, 1], each digit centred
    on its ink box, and float32 [fonts] digit height in pixels per font. Rasterised once.
    """
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.font_manager import FontProperties

    font_dir = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    glyphs, heights = [], []
    for font in _FONTS:
        properties = FontProperties(fname=font_dir / font, size=52)
        font_height = 0
        for digit in SVHN_CLASSES:
            figure = Figure(figsize=(1, 1), dpi=_GLYPH)
            canvas = FigureCanvasAgg(figure)
            figure.text(0.5, 0.5, digit, fontproperties=properties, ha="center", va="center")
            canvas.draw()
            ink = 1 - np.asarray(canvas.buffer_rgba())[..., 0].astype(np.float32) / 255
            rows, cols = np.nonzero(ink > 0.05)
            font_height = max(font_height, rows.max() - rows.min() + 1)
            shift = (_GLYPH // 2 - (rows.min() + rows.max() + 1) // 2,
                     _GLYPH // 2 - (cols.min() + cols.max() + 1) // 2)
            glyphs.append(np.roll(ink, shift, axis=(0, 1)))
        heights.append(font_height)
    return np.stack(glyphs), np.asarray(heights, np.float32)


def _render_digits(glyph_ids, x, y, font_height, centre_x, centre_y, height, shear, angle,
                   squeeze):
    """Sample glyphs into [k, 32, 32] ink in [0, 1] through a per-image affine map (bilinear).

    ``glyph_ids`` [k] are rows of ``_digit_glyphs()``; each digit is centred at
    (``centre_x``, ``centre_y``), ``height`` pixels tall, sheared, rotated by ``angle`` and
    widened by ``squeeze``. All parameters are [k, 1, 1]; ``x``, ``y`` are the pixel grid.
    """
    glyphs, _ = _digit_glyphs()
    # Glyph coordinates are an affine function of the pixel coordinates: gx = ax*x + bx*y + cx.
    cos, sin = np.cos(angle), np.sin(angle)
    scale = font_height / height
    ax, bx = scale / squeeze * (cos + shear * sin), scale / squeeze * (sin - shear * cos)
    ay, by = -scale * sin, scale * cos
    gx = ax * x + bx * y + (_GLYPH / 2 - ax * centre_x - bx * centre_y)
    gy = ay * x + by * y + (_GLYPH / 2 - ay * centre_x - by * centre_y)
    x0, y0 = np.floor(gx), np.floor(gy)
    fx, fy = gx - x0, gy - y0
    # Clipping to the canvas edge reads its blank border: outside the glyph there is no ink.
    corner = (glyph_ids[:, None, None] * _GLYPH * _GLYPH
              + np.clip(y0.astype(np.intp), 0, _GLYPH - 2) * _GLYPH
              + np.clip(x0.astype(np.intp), 0, _GLYPH - 2))
    flat = glyphs.reshape(-1)
    top = (1 - fx) * flat.take(corner) + fx * flat.take(corner + 1)
    bottom = (1 - fx) * flat.take(corner + _GLYPH) + fx * flat.take(corner + _GLYPH + 1)
    return (1 - fy) * top + fy * bottom


def _colours(rng, luminance):
    """[k, 1, 1, 3] random tints around per-image grey levels ``luminance`` [k, 1, 1]."""
    tint = rng.uniform(-0.3, 0.3, (*luminance.shape, 3)).astype(np.float32)
    return np.clip(luminance[..., None] + tint, 0, 1)


def _draw_house_numbers(labels, rng):
    """Return float [k, 32, 32, 3] house-number crops in [0, 1] with ``labels`` centred."""
    k = len(labels)
    y, x = np.mgrid[0:32, 0:32].astype(np.float32)

    # Background: a colour, a gradient and a few rectangles of clutter (bricks, plates, edges).
    base = _uniform(rng, 0.1, 0.9, k)
    direction = _uniform(rng, 0, 2 * np.pi, k)
    slope = _uniform(rng, 0, 0.012, k)
    gradient = slope * (np.cos(direction) * (x - 16) + np.sin(direction) * (y - 16))
    image = _colours(rng, base) + gradient[..., None]
    for _ in range(3):
        left, top = _uniform(rng, -8, 32, k), _uniform(rng, -8, 32, k)
        columns = (x[:1] > left) & (x[:1] < left + _uniform(rng, 4, 24, k))  # [k, 1, 32]
        rows = (y[:, :1] > top) & (y[:, :1] < top + _uniform(rng, 4, 24, k))  # [k, 32, 1]
        box = rows & columns & (rng.random((k, 1, 1)) < 0.7)
        image = np.where(box[..., None], _colours(rng, base + _uniform(rng, -0.2, 0.2, k)), image)

    # Ink: the labelled digit in the centre and, often, its neighbours in the same style.
    font = rng.integers(0, len(_FONTS), k)
    style = dict(
        font_height=_digit_glyphs()[1][font][:, None, None],
        centre_x=16 + _uniform(rng, -2, 2, k), centre_y=16 + _uniform(rng, -2, 2, k),
        height=_uniform(rng, 14, 24, k), shear=_uniform(rng, -0.25, 0.25, k),
        angle=_uniform(rng, -0.15, 0.15, k), squeeze=_uniform(rng, 0.8, 1.2, k),
    )
    spacing = style["height"] * style["squeeze"] * _uniform(rng, 0.62, 0.85, k)
    ink = _render_digits(10 * font + labels, x, y, **style)
    for side in (-1, 1):
        rows = np.flatnonzero(rng.random(k) < 0.6)
        neighbour = {name: value[rows] for name, value in style.items()}
        neighbour["centre_x"] = neighbour["centre_x"] + side * spacing[rows]
        glyph_ids = 10 * font[rows] + rng.integers(0, 10, rows.size)
        ink[rows] = np.maximum(ink[rows], _render_digits(glyph_ids, x, y, **neighbour))

    # The digits contrast with the background: dark on light or light on dark.
    contrast = _uniform(rng, 0.3, 0.7, k) * np.where(base > 0.5, -1, 1).astype(np.float32)
    image = image + ink[..., None] * (_colours(rng, base + contrast) - image)

    # Camera: blur, brightness and contrast changes, sensor noise.
    image = 0.5 + _uniform(rng, 0.7, 1.1, k)[..., None] * (_blur(image) - 0.5)
    return image + _noise(rng, image.shape) * _uniform(rng, 0.01, 0.05, k)[..., None]
