"""tfdist_edu.keras_jax.arrays: Fashion-MNIST as NumPy arrays for a JAX kernel, without TensorFlow."""

import os
import subprocess
import sys

import numpy as np
import pytest

from tfdist_edu.data import specs
from tfdist_edu.keras_jax import arrays

DEBIAN = specs.get("fashion_mnist").idx_debian


def test_the_stand_in_has_the_real_shapes_scaled_to_0_1_and_is_labelled_synthetic():
    course = arrays.load(num_train=64, num_test=32, source="synthetic")
    assert course.x_train.shape == (64, 28, 28, 1) and course.x_test.shape == (32, 28, 28, 1)
    assert course.x_train.dtype == np.float32 and 0 <= course.x_train.min() <= course.x_train.max() <= 1
    assert course.y_train.dtype == np.int32 and set(np.unique(course.y_train)) <= set(range(10))
    assert "SYNTHETIC stand-in" in course.describe() and "64 train / 32 test, 28x28x1" in course.describe()


@pytest.mark.skipif(not os.path.isdir(DEBIAN), reason=f"no Fashion-MNIST IDX files in {DEBIAN}")
def test_the_real_files_are_read_with_their_contents_checked():
    course = arrays.load(num_train=100, num_test=10, source="idx")
    assert course.source == "idx" and "real (IDX files in" in course.describe()
    assert "contents checked" in course.reason
    assert course.x_train.shape == (100, 28, 28, 1) and course.y_train[:3].tolist() == [9, 0, 0]


def test_loading_never_starts_tensorflow():
    code = ("import sys; from tfdist_edu.keras_jax import arrays; "
            "arrays.load(num_train=8, num_test=8); print('tensorflow' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip().splitlines()[-1] == "False"


def test_a_source_the_numpy_loader_cannot_read_fails_in_one_line():
    with pytest.raises(ValueError, match="'auto', 'idx' or 'synthetic'") as caught:
        arrays.load(source="tfds")
    assert "\n" not in str(caught.value)
