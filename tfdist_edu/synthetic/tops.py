"""The four upper-body classes, T-shirt/top, Pullover, Coat and Shirt: one drawing, four styles.

They are drawn in the garment frame (see ``garments``); ``_sleeves`` also serves the dress.
"""

import dataclasses

import numpy as np

from tfdist_edu.synthetic.images import _chance, _uniform


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
