"""SVHN's digits: glyphs rasterised once from fonts bundled with matplotlib, then sampled into
each crop through a per-image affine map."""

import functools
from pathlib import Path

import numpy as np

SVHN_CLASSES = tuple("0123456789")

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
