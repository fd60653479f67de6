"""Tests for tfdist_edu.synthetic: the offline stand-ins for Fashion-MNIST and SVHN."""

import time

import numpy as np
import pytest

from tfdist_edu import synthetic

GENERATORS = [(synthetic.fashion_mnist, (28, 28, 1)), (synthetic.svhn, (32, 32, 3))]


@pytest.mark.parametrize("generate, shape", GENERATORS)
def test_images_and_labels_have_the_real_datasets_shapes_and_dtypes(generate, shape):
    images, labels = generate(300, seed=0)
    assert images.shape == (300, *shape) and images.dtype == np.uint8
    assert labels.shape == (300,) and labels.dtype == np.int64
    assert set(labels.tolist()) == set(range(10))


@pytest.mark.parametrize("generate, shape", GENERATORS)
def test_every_class_appears_equally_often(generate, shape):
    _, labels = generate(1000, seed=3)
    assert np.bincount(labels, minlength=10).tolist() == [100] * 10


@pytest.mark.parametrize("generate, shape", GENERATORS)
def test_the_same_seed_gives_the_same_images_and_another_seed_others(generate, shape):
    first, first_labels = generate(200, seed=7)
    again, again_labels = generate(200, seed=7)
    other, _ = generate(200, seed=8)
    np.testing.assert_array_equal(first, again)
    np.testing.assert_array_equal(first_labels, again_labels)
    assert np.mean(first != other) > 0.5


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
    monkeypatch.setattr(synthetic, "_NEIGHBOUR_CHANCE", 0.0)
    alone, _ = synthetic.svhn(500, seed=0)
    assert _side_edges(with_neighbours) > 1.3 * _side_edges(alone)


def test_house_numbers_spread_widely_in_contrast():
    images, _ = synthetic.svhn(1000, seed=0)
    centre = images[:, 8:24, 10:22].astype(np.float32).mean(-1)
    spread = centre.std(axis=(1, 2))  # how strongly each digit stands out from its background
    low, high = np.percentile(spread, [10, 90])
    assert high > 3 * low


@pytest.mark.parametrize("n", [-1, 2.5, "10"])
def test_a_bad_count_is_refused_with_a_clear_message(n):
    with pytest.raises((ValueError, TypeError), match="n must be"):
        synthetic.fashion_mnist(n)


def test_zero_images_is_an_empty_set():
    images, labels = synthetic.svhn(0)
    assert images.shape == (0, 32, 32, 3) and labels.shape == (0,)
