"""Learnable offline stand-ins for Fashion-MNIST and SVHN, drawn with numpy.

The real datasets cannot be downloaded everywhere the course runs (CI, offline laptops), so
``data.load`` falls back to these. They have the real datasets' shapes, dtypes and classes, and
they are hard in the real datasets' ways, calibrated so that the course CNNs learn them about as
they learn the real data: garments whose classes overlap where real garments do (Shirt looks like
a top, a pullover or a coat when its collar and buttons do not show), house numbers with clutter,
neighbouring digits, contrast spread and blur. ``benchmarks/stand_in_fidelity.py`` measures it
(latest results in ``docs/stand_in_fidelity.md``). Images are drawn in vectorised chunks,
deterministically from a seed; nothing is downloaded (SVHN digits are rasterised once from the
fonts bundled with matplotlib).
"""

import dataclasses
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


def _chance(rng, p, k):
    """A [k, 1, 1] mask, True for each image with probability ``p``."""
    return rng.random((k, 1, 1)) < p


def _sleeves(au, v, body_half_width, rng, end):
    """Sleeves hanging from the shoulders down to ``end`` (v at the cuff, [k, 1, 1])."""
    k = len(au)
    gap = _uniform(rng, 0.02, 0.07, k)  # the dark seam between arm and body
    out = au - body_half_width - gap
    width = _uniform(rng, 0.18, 0.26, k) + 0.08 * (v + 0.8)  # arms widen towards the cuff
    return (out > 0) & (out < width) & (v > -0.8 + 0.6 * out) & (v < end + 0.3 * out)


@dataclasses.dataclass(frozen=True)
class _TopStyle:
    """How one upper-body class varies: each cue is drawn per image with its probability.

    Tops, pullovers, coats and shirts share one drawing. A cue (collar, front opening, ribbed
    knit, chest print, pattern) only makes a class more likely, and the ranges overlap, so a
    shirt drawn without collar or buttons looks like a pullover, as real shirts do at 28x28.
    """

    sleeves: tuple  # probabilities of no, short and long sleeves
    width: tuple  # body half-width range
    hem: tuple  # range of v at the hem
    collar: float
    opening: float  # buttons, a zip or an open front down the middle
    pockets: float
    ribbing: float  # knitted bands at hem and cuffs
    chest_print: float
    pattern: float  # stripes or checks


_TSHIRT = _TopStyle(sleeves=(0.15, 0.8, 0.05), width=(0.40, 0.56), hem=(0.62, 0.95), collar=0.04,
                    opening=0.03, pockets=0.02, ribbing=0.05, chest_print=0.5, pattern=0.3)
_PULLOVER = _TopStyle(sleeves=(0.0, 0.04, 0.96), width=(0.42, 0.58), hem=(0.68, 0.95),
                      collar=0.05, opening=0.03, pockets=0.03, ribbing=0.75, chest_print=0.15,
                      pattern=0.3)
_COAT = _TopStyle(sleeves=(0.0, 0.0, 1.0), width=(0.48, 0.64), hem=(0.84, 1.0), collar=0.6,
                  opening=0.9, pockets=0.5, ribbing=0.05, chest_print=0.0, pattern=0.1)
_SHIRT = _TopStyle(sleeves=(0.05, 0.3, 0.65), width=(0.40, 0.56), hem=(0.7, 0.98), collar=0.85,
                   opening=0.8, pockets=0.2, ribbing=0.05, chest_print=0.1, pattern=0.5)


def _top(u, v, rng, style):
    """An upper-body garment in ``style``: torso, sleeves, neckline and the style's cues."""
    k = len(u)
    au = np.abs(u)
    half = _uniform(rng, *style.width, k)
    hem = _uniform(rng, *style.hem, k)
    kind = np.searchsorted(np.cumsum(style.sleeves), rng.random((k, 1, 1)))  # 0 none, 2 long
    cuff = np.where(kind == 2, _uniform(rng, 0.45, 0.95, k), _uniform(rng, -0.55, 0.0, k))
    arms = _sleeves(au, v, half, rng, cuff) & (kind > 0)
    torso = (au < half + 0.06 * (v + 0.8)) & (v > -0.8) & (v < hem)
    neck = (u / _uniform(rng, 0.12, 0.24, k)) ** 2 + ((v + 0.8) / _uniform(rng, 0.08, 0.22, k)) ** 2
    shape = (torso & (neck > 1) | arms).astype(np.float32)
    return shape * _top_details(u, au, v, rng, style, hem, cuff)


def _top_details(u, au, v, rng, style, hem, cuff):
    """Multiplicative shading for the style's cues, each faint or strong at random."""
    k = len(u)

    def strength(p, lo=0.25, hi=0.6):
        return _chance(rng, p, k) * _uniform(rng, lo, hi, k)

    collar = (np.abs(au - 0.7 * (v + 0.78)) < 0.05) & (v < -0.5)
    opening = (au < 0.04) & (v > -0.7)
    buttons = opening & (np.cos(np.pi * v / _uniform(rng, 0.12, 0.2, k)) > 0.3)
    pockets = (np.abs(v - _uniform(rng, 0.1, 0.5, k)) < 0.06) & (au > 0.15) & (au < 0.38)
    ribbing = ((v > hem - 0.12) | (v > cuff - 0.1) & (au > 0.5)) & (np.sin(18 * u) > 0)
    chest_print = (np.abs(u - _uniform(rng, -0.1, 0.1, k)) < _uniform(rng, 0.1, 0.25, k)) & (
        np.abs(v + _uniform(rng, 0.1, 0.35, k)) < _uniform(rng, 0.08, 0.22, k))
    frequency = _uniform(rng, 8, 16, k)
    checks = _chance(rng, 0.5, k)
    pattern = (np.sin(frequency * v) > 0) & (~checks | (np.sin(frequency * u) > 0))
    darken = (strength(style.collar) * collar + strength(style.opening) * (opening | buttons)
              + strength(style.pockets) * pockets + strength(style.ribbing, 0.2, 0.45) * ribbing
              + strength(style.chest_print, -0.5, 0.6) * chest_print
              + strength(style.pattern, 0.1, 0.4) * pattern)
    return np.clip(1 - darken, 0, 1.5)


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
    chest = _uniform(rng, 0.2, 0.38, k)
    hem = _uniform(rng, 0.42, 0.72, k)
    bottom = _uniform(rng, 0.8, 0.98, k)
    skirt = chest - 0.04 + (hem - chest + 0.04) * np.clip((v - waist) / (bottom - waist), 0, 1)
    half = np.where(v < waist, chest, skirt)
    neckline = _uniform(rng, -0.9, -0.7, k)
    body = (au < half) & (v > neckline) & (v < bottom)
    neck = (u / 0.13) ** 2 + ((v - neckline) / 0.14) ** 2 < 1
    straps = (au > chest - 0.1) & (au < chest) & (v > -1.0) & (v <= neckline)
    # Some dresses have sleeves, which brings them close to tops, shirts and coats.
    cuff = np.where(_chance(rng, 0.5, k), _uniform(rng, -0.5, -0.1, k), _uniform(rng, 0.3, 0.8, k))
    arms = _sleeves(au, v, chest, rng, cuff) & _chance(rng, 0.45, k)
    return body & ~neck | straps & _chance(rng, 0.6, k) | arms


def _sandal(u, v, rng):
    k = len(u)
    sole = (np.abs(u) < 0.95) & (v > 0.3 + 0.06 * u ** 2) & (v < 0.46 + 0.06 * u ** 2)
    # A few sandals are strapped high up the ankle (boot-like) or closed (sneaker-like).
    ankle = np.where(_chance(rng, 0.15, k), _uniform(rng, -0.9, -0.6, k), -0.3)
    hull = (v > ankle + 0.28 * (u + 1)) & (v < 0.34) & (u > -0.9) & (u < 0.88)
    angle = _uniform(rng, 0.3, 1.2, k)
    wave = np.sin(_uniform(rng, 9, 14, k) * (u * np.cos(angle) + v * np.sin(angle))
                  + _uniform(rng, 0, 2 * np.pi, k))
    openwork = np.where(_chance(rng, 0.15, k), _uniform(rng, -0.7, -0.2, k), _uniform(rng, 0.1, 0.5, k))
    straps = hull & (wave > openwork)
    heel_strap = (u > -0.95) & (u < -0.75) & (v > -0.4) & (v < 0.34)
    return sole | straps | heel_strap


def _sneaker(u, v, rng):
    k = len(u)
    collar = _uniform(rng, -0.35, -0.15, k) - 0.4 * _chance(rng, 0.15, k)  # some are high-tops
    top = collar + _uniform(rng, 0.35, 0.5, k) * (u + 0.9) / 1.8
    toe = (u < 0.5) | (((u - 0.5) / 0.45) ** 2 + ((v - 0.32) / 0.5) ** 2 < 1)
    upper = (u > -0.92) & (u < 0.95) & (v > top) & (v < 0.32) & toe
    sole = (np.abs(u) < 0.95) & (v >= 0.3) & (v < 0.5)
    laces = (np.abs(v - top - 0.12) < 0.06) & (u > -0.35) & (u < 0.35) & (np.sin(22 * u) > 0.3)
    laces &= _chance(rng, 0.75, k)  # slip-ons have none
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
    # Most shafts reach above the ankle; a few stop low, like a high-top sneaker.
    shaft_top = np.where(_chance(rng, 0.15, k), _uniform(rng, -0.6, -0.4, k),
                         _uniform(rng, -0.95, -0.6, k))
    shaft = (u > -0.75) & (u < _uniform(rng, -0.1, 0.1, k)) & (v > shaft_top)
    toe = (u < 0.45) | (((u - 0.45) / 0.45) ** 2 + ((v - 0.45) / 0.5) ** 2 < 1)
    foot = (u > -0.75) & (u < 0.9) & (v > _uniform(rng, -0.1, 0.1, k)) & toe
    boot = (shaft | foot) & (v < 0.45)
    heel = (u > -0.75) & (u < -0.42) & (v >= 0.45) & (v < 0.65) & _chance(rng, 0.7, k)
    sole = boot & (v > 0.36)
    return boot * (1 - 0.4 * sole) + heel


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


# ---------------------------------------------------------------- SVHN house numbers

# Fonts that matplotlib bundles, so the glyphs can be drawn offline on any machine.
_FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf",
          "DejaVuSansMono-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf",
          "STIXGeneral.ttf", "STIXGeneralBol.ttf")
_GLYPH = 64  # side of the square canvas each glyph is rasterised on
_NEIGHBOUR_CHANCE = 0.6  # how often a neighbouring digit shows at each side of the centre one
_POOR_SHOT_CHANCE = 0.15  # chance that a crop which is not clean is a dim, washed-out, blurred one
_CLEAN_SHOT_CHANCE = 0.3  # share of clear digits alone on a plain plate


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
