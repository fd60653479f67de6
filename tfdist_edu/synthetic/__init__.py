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

Where each part lives:

- ``garments``: ``fashion_mnist`` and ``FASHION_CLASSES``; the garment frame, the drawings in
  label order, shading and fabric;
- ``tops``: T-shirt/top, Pullover, Coat and Shirt, one drawing with four styles of cues;
- ``other_garments``: Trouser, Dress, Sandal, Sneaker, Bag and Ankle boot;
- ``house_numbers``: ``svhn``; background, clutter, neighbouring digits, contrast and camera;
- ``glyphs``: ``SVHN_CLASSES`` and the digit glyphs, rasterised once and sampled into crops;
- ``images``: what both share: ``_generate`` (labels, then images chunk by chunk from the
  seed), per-image random parameters and chances, noise and blur.
"""

from tfdist_edu.synthetic.garments import FASHION_CLASSES, fashion_mnist
from tfdist_edu.synthetic.glyphs import SVHN_CLASSES
from tfdist_edu.synthetic.house_numbers import svhn

__all__ = ["FASHION_CLASSES", "SVHN_CLASSES", "fashion_mnist", "svhn"]
