"""The course's colours stay apart for readers with the common colour-vision deficiencies.

Each colour is passed through Machado, Oliveira and Fernandes's simulation of full protanopia,
deuteranopia and tritanopia ("A Physiologically-based Model for Simulation of Color Vision
Deficiency", IEEE TVCG 15(6), 2009; severity 1.0 matrices, applied to linear sRGB), and the
CIELAB distance (CIE76) between every pair must stay above a threshold.
"""

import itertools

import matplotlib.colors
import numpy as np
import pytest

from tfdist_edu.plots import style

SIMULATIONS = {
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                   [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                     [-0.011820, 0.042940, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602],
                   [0.004733, 0.691367, 0.303900]],
}
RUN_COLOURS_APART = 15  # CIE76 distance: clearly different lines and bars
RIGHT_WRONG_APART = 40  # the pair that carries the meaning of a figure


def _linear(hex_colour):
    c = np.array(matplotlib.colors.to_rgb(hex_colour))
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _lab(linear_rgb):
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722],
                    [0.0193, 0.1192, 0.9505]]) @ linear_rgb / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def _distance(a, b, simulation):
    seen = [np.clip(np.array(simulation) @ _linear(c), 0, 1) for c in (a, b)]
    return float(np.linalg.norm(_lab(seen[0]) - _lab(seen[1])))


@pytest.mark.parametrize("deficiency", SIMULATIONS)
def test_every_pair_of_run_colours_stays_apart(deficiency):
    closest = min((_distance(a, b, SIMULATIONS[deficiency]), a, b)
                  for a, b in itertools.combinations(style._PALETTE, 2))
    assert closest[0] > RUN_COLOURS_APART, f"{deficiency}: {closest[1]} and {closest[2]} look alike ({closest[0]:.1f})"


@pytest.mark.parametrize("deficiency", SIMULATIONS)
def test_right_and_wrong_are_told_apart(deficiency):
    assert _distance(style.RIGHT, style.WRONG, SIMULATIONS[deficiency]) > RIGHT_WRONG_APART


def test_the_old_green_red_pair_is_what_this_check_would_have_refused():
    # tab10's orange and green, two of the old run colours, merge for a protanope.
    assert _distance("#ff7f0e", "#2ca02c", SIMULATIONS["protanopia"]) < RUN_COLOURS_APART
