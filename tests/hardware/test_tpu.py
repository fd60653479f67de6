"""Tests for tfdist_edu.hardware.tpu: ``connect_tpu()`` on a machine without a TPU."""

import pytest

from tfdist_edu import hardware


def test_connect_tpu_without_a_tpu_says_how_to_get_one_on_colab():
    with pytest.raises(hardware.NoTPUError) as caught:
        hardware.connect_tpu()
    assert "Runtime > Change runtime type > TPU" in str(caught.value)
    assert "pip install tensorflow-tpu" in str(caught.value)
