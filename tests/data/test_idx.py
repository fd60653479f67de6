"""Reading one IDX file: good files read back; each kind of broken file is named in one line."""

import gzip

import numpy as np
import pytest

from tfdist_edu.data import idx, specs
from idx_files import arrays, idx_bytes, small_spec


@pytest.fixture
def expected(tmp_path):
    """The small spec's train images and train labels files."""
    files = small_spec(tmp_path).idx_files
    return files[0], files[1]


def _read_error(path, expected_file):
    with pytest.raises(idx.IdxFileError) as caught:
        idx.read(path, expected_file)
    message = str(caught.value)
    assert message.startswith(f"{path}: ") and "\n" not in message
    return message


@pytest.mark.parametrize("compress", [True, False])
def test_a_good_file_reads_back_as_its_array(tmp_path, expected, compress):
    images = arrays()[0]
    path = tmp_path / ("images.gz" if compress else "images")
    raw = idx_bytes(images)
    path.write_bytes(gzip.compress(raw) if compress else raw)
    np.testing.assert_array_equal(idx.read(path, expected[0]), images)


def test_a_corrupt_gz_file_is_named_in_the_error(tmp_path, expected):
    path = tmp_path / "train-images-idx3-ubyte.gz"
    packed = bytearray(gzip.compress(idx_bytes(arrays()[0])))
    packed[len(packed) // 2:len(packed) // 2 + 64] = bytes(64)  # damage the deflate stream
    path.write_bytes(bytes(packed))
    assert "not a valid gzip file" in _read_error(path, expected[0])


def test_a_file_that_is_not_gzip_at_all_is_named_in_the_error(tmp_path, expected):
    path = tmp_path / "train-images-idx3-ubyte.gz"
    path.write_bytes(idx_bytes(arrays()[0]))  # plain IDX under a .gz name
    assert "not a valid gzip file" in _read_error(path, expected[0])


def test_a_truncated_gz_file_is_named_in_the_error(tmp_path, expected):
    path = tmp_path / "train-images-idx3-ubyte.gz"
    path.write_bytes(gzip.compress(idx_bytes(arrays()[0]))[:2000])
    assert "truncated: the compressed data ends early" in _read_error(path, expected[0])


def test_a_truncated_plain_file_says_how_many_bytes_were_expected(tmp_path, expected):
    path = tmp_path / "train-images-idx3-ubyte"
    path.write_bytes(idx_bytes(arrays()[0])[:-100])
    message = _read_error(path, expected[0])
    assert f"truncated: {60 * 784 - 100} bytes of data, expected {60 * 784}" in message


def test_a_wrong_magic_number_is_named_in_the_error(tmp_path, expected):
    path = tmp_path / "train-images-idx3-ubyte"
    path.write_bytes(idx_bytes(arrays()[0], magic=0x0D03))  # float32 data, 3 dimensions
    message = _read_error(path, expected[0])
    assert "magic number 0x00000D03 (not an unsigned-byte IDX file), expected 0x00000803" \
        in message


def test_a_wrong_count_is_named_in_the_error(tmp_path, expected):
    path = tmp_path / "train-labels-idx1-ubyte"
    path.write_bytes(idx_bytes(arrays()[1][:50]))
    assert "holds 50 labels, expected 60" in _read_error(path, expected[1])


def test_a_labels_file_in_place_of_an_images_file_is_named_in_the_error(tmp_path, expected):
    path = tmp_path / "train-images-idx3-ubyte.gz"
    path.write_bytes(gzip.compress(idx_bytes(arrays()[1])))
    message = _read_error(path, expected[0])
    assert "magic number 0x00000801 (a labels file), expected 0x00000803 (images)" in message


def test_images_of_the_wrong_size_are_named_in_the_error(tmp_path, expected):
    path = tmp_path / "train-images-idx3-ubyte"
    path.write_bytes(idx_bytes(np.zeros((60, 32, 32), np.uint8)))
    assert "images of 32 x 32 pixels, expected 28 x 28" in _read_error(path, expected[0])


def test_a_file_with_other_contents_fails_the_content_hash(tmp_path, expected):
    altered = arrays()[0].copy()
    altered[0, 0, 0] ^= 1  # one pixel, one bit
    path = tmp_path / "train-images-idx3-ubyte"
    path.write_bytes(idx_bytes(altered))
    message = _read_error(path, expected[0])
    assert "content hash" in message and "not the file train-images-idx3-ubyte.gz" in message


def test_a_missing_file_is_named_in_the_error(tmp_path, expected):
    assert "cannot be read" in _read_error(tmp_path / "nothing-here", expected[0])


def test_the_recorded_fashion_mnist_files_have_the_official_counts():
    shapes = [file.shape for file in specs.SPECS["fashion_mnist"].idx_files]
    assert shapes == [(60_000, 28, 28), (60_000,), (10_000, 28, 28), (10_000,)]
