"""Tests for tfdist_edu.synthetic: the offline stand-ins for Fashion-MNIST and SVHN."""

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


def test_garment_classes_differ_more_between_than_within():
    images, labels = synthetic.fashion_mnist(2000, seed=0)
    flat = images.reshape(len(images), -1).astype(np.float32)
    means = np.stack([flat[labels == c].mean(0) for c in range(10)])
    # A nearest-class-mean classifier (no learning at all) already beats chance by far,
    # so the classes carry shape information; it stays well below what a CNN reaches.
    distances = ((flat[:, None, :] - means[None]) ** 2).sum(-1)
    accuracy = np.mean(distances.argmin(1) == labels)
    assert 0.3 < accuracy < 0.95


def test_house_numbers_are_coloured_with_the_digit_in_the_centre():
    images, _ = synthetic.svhn(500, seed=0)
    images = images.astype(np.float32)
    colourfulness = np.abs(images - images.mean(-1, keepdims=True)).mean()
    assert colourfulness > 5  # not grey
    # Ink changes the centre columns more than the image edges: the labelled digit is there.
    column_spread = images.std(axis=(1, 3)).mean(0)
    assert column_spread[12:20].mean() > column_spread[:3].mean()


@pytest.mark.parametrize("n", [-1, 2.5, "10"])
def test_a_bad_count_is_refused_with_a_clear_message(n):
    with pytest.raises((ValueError, TypeError), match="n must be"):
        synthetic.fashion_mnist(n)


def test_zero_images_is_an_empty_set():
    images, labels = synthetic.svhn(0)
    assert images.shape == (0, 32, 32, 3) and labels.shape == (0,)
