"""Tests for tfdist_edu.synthetic.images: generation shared by both stand-ins (shapes, labels,
seeds, the count), through the public ``fashion_mnist`` and ``svhn``."""

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


@pytest.mark.parametrize("n", [-1, 2.5, "10"])
def test_a_bad_count_is_refused_with_a_clear_message(n):
    with pytest.raises((ValueError, TypeError), match="n must be"):
        synthetic.fashion_mnist(n)


def test_zero_images_is_an_empty_set():
    images, labels = synthetic.svhn(0)
    assert images.shape == (0, 32, 32, 3) and labels.shape == (0,)
