"""Tests for tfdist_edu.synthetic's garments (``garments``, ``tops``, ``other_garments``): the
Fashion-MNIST stand-in."""

import time

import numpy as np

from tfdist_edu import synthetic


def test_garments_are_light_on_a_dark_background_and_use_the_whole_range():
    images, _ = synthetic.fashion_mnist(500, seed=0)
    border = np.concatenate([images[:, 0], images[:, -1], images[:, :, 0], images[:, :, -1]], 1)
    centre = images[:, 10:18, 10:18]
    assert border.mean() < 20 < 80 < centre.mean()
    assert images.min() == 0 and images.max() == 255


def _nearest_centroid_confusion(images, labels):
    """Row-normalised confusion of a nearest-class-mean classifier on raw pixels."""
    flat = images.reshape(len(images), -1).astype(np.float32)
    means = np.stack([flat[labels == c].mean(0) for c in range(10)])
    distances = (means ** 2).sum(1) - 2 * flat @ means.T  # + |x|^2, the same for every class
    confusion = np.zeros((10, 10))
    np.add.at(confusion, (labels, distances.argmin(1)), 1)
    return confusion / confusion.sum(1, keepdims=True)


def test_garment_classes_differ_more_between_than_within():
    images, labels = synthetic.fashion_mnist(2000, seed=0)
    # A nearest-class-mean classifier (no learning at all) already beats chance by far,
    # so the classes carry shape information; it stays well below what a CNN reaches.
    accuracy = _nearest_centroid_confusion(images, labels).diagonal().mean()
    assert 0.3 < accuracy < 0.95


def test_shirt_and_its_lookalikes_overlap_far_more_than_trouser_and_bag():
    images, labels = synthetic.fashion_mnist(4000, seed=0)
    confusion = _nearest_centroid_confusion(images, labels)
    names = synthetic.FASHION_CLASSES
    tops = [names.index(name) for name in ("T-shirt/top", "Pullover", "Coat", "Shirt")]
    trouser, bag, shirt = (names.index(name) for name in ("Trouser", "Bag", "Shirt"))
    among_tops = confusion[np.ix_(tops, tops)].sum(1) - confusion[tops, tops]
    assert among_tops.min() > 0.15  # every top is often taken for another top...
    assert confusion[trouser, bag] + confusion[bag, trouser] < 0.02  # ...these two almost never
    assert confusion.diagonal().argmin() == shirt  # and Shirt, like the real one, is hardest


def test_the_full_fashion_mnist_stand_in_takes_seconds_of_cpu():
    start = time.process_time()  # CPU time: other processes on the machine do not count
    images, _ = synthetic.fashion_mnist(70_000, seed=0)
    assert len(images) == 70_000
    assert time.process_time() - start < 15
