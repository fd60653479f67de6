"""Trouser, Dress, Sandal, Sneaker, Bag and Ankle boot, each drawn in the garment frame (see
``garments``) by rules of its own."""

import numpy as np

from tfdist_edu.synthetic.images import _chance, _uniform
from tfdist_edu.synthetic.tops import _sleeves


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
