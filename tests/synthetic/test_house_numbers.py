"""Tests for tfdist_edu.synthetic.house_numbers (and its ``glyphs``): the SVHN stand-in."""

import numpy as np

from tfdist_edu import synthetic
from tfdist_edu.synthetic import house_numbers


def test_house_numbers_are_coloured_with_the_digit_in_the_centre():
    images, _ = synthetic.svhn(500, seed=0)
    images = images.astype(np.float32)
    colourfulness = np.abs(images - images.mean(-1, keepdims=True)).mean()
    assert colourfulness > 5  # not grey
    # Ink changes the centre columns more than the image edges: the labelled digit is there.
    column_spread = images.std(axis=(1, 3)).mean(0)
    assert column_spread[12:20].mean() > column_spread[:3].mean()


def _side_edges(images):
    """Mean horizontal change of brightness in the 7 columns at each side of [n, 32, 32, 3]."""
    grey = images.astype(np.float32).mean(-1)
    change = np.abs(np.diff(grey, axis=2))
    return np.concatenate([change[:, :, :7], change[:, :, -7:]], 2).mean()


def test_house_numbers_show_parts_of_neighbouring_digits_at_the_sides(monkeypatch):
    with_neighbours, _ = synthetic.svhn(500, seed=0)
    monkeypatch.setattr(house_numbers, "_NEIGHBOUR_CHANCE", 0.0)
    alone, _ = synthetic.svhn(500, seed=0)
    assert _side_edges(with_neighbours) > 1.3 * _side_edges(alone)


def test_house_numbers_spread_widely_in_contrast():
    images, _ = synthetic.svhn(1000, seed=0)
    centre = images[:, 8:24, 10:22].astype(np.float32).mean(-1)
    spread = centre.std(axis=(1, 2))  # how strongly each digit stands out from its background
    low, high = np.percentile(spread, [10, 90])
    assert high > 3 * low
