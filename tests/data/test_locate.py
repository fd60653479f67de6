"""Which source ``load`` takes: the order, falling back past broken files, and forcing one."""

import gzip

import pytest

from tfdist_edu import data
from tfdist_edu.data import locate, specs, tfds_source
from idx_files import arrays, idx_bytes, write

BROKEN = {"t10k-images-idx3-ubyte.gz": idx_bytes(arrays()[2])[:-10]}  # truncated test images


def _choose(tmp_path, source="auto", **kwargs):
    return locate.choose(specs.SPECS["fashion_mnist"], source, f"source={source!r}",
                         data_dir=tmp_path / "tfds", **kwargs)


def test_a_prepared_tfds_copy_comes_before_the_idx_files(no_real_files, monkeypatch):
    write(no_real_files / "debian")
    monkeypatch.setattr(tfds_source, "prepared", lambda spec, data_dir: (True, "/prepared"))
    assert _choose(no_real_files) == locate.Choice("tfds", "prepared copy in /prepared")


def test_idx_files_come_before_a_tfds_download(no_real_files, monkeypatch):
    write(no_real_files / "debian")
    monkeypatch.setattr(locate.network, "available", pytest.fail)  # never asked
    choice = _choose(no_real_files)
    assert (choice.source, choice.location) == ("idx", str(no_real_files / "debian"))


def test_a_tfds_download_comes_before_the_stand_in(no_real_files, online):
    choice = _choose(no_real_files)
    assert choice.source == "tfds" and choice.reason.startswith("network reachable")


def test_nothing_real_offline_lists_what_was_looked_at(no_real_files, offline):
    choice = _choose(no_real_files)
    assert choice.source == "" and choice.reason.startswith("offline")
    assert f"no IDX files in {no_real_files / 'keras'}" in choice.reason
    assert f"or {no_real_files / 'debian'}" in choice.reason


def test_auto_falls_back_past_a_broken_folder_with_the_reason_printed(no_real_files, capsys,
                                                                       monkeypatch):
    broken = write(no_real_files / "mine", BROKEN)
    monkeypatch.setenv("TFDIST_EDU_FASHION_MNIST_DIR", str(broken))
    write(no_real_files / "debian")
    course = data.load("fashion_mnist", data_dir=no_real_files / "tfds")
    printed = capsys.readouterr().out
    assert f"{broken / 't10k-images-idx3-ubyte.gz'}: truncated" in printed
    assert course.source == "idx" and course.location == str(no_real_files / "debian")
    assert "TFDIST_EDU_FASHION_MNIST_DIR skipped" in course.reason


def test_auto_falls_back_to_the_stand_in_when_the_only_files_are_broken(no_real_files, offline,
                                                                         capsys):
    debian = write(no_real_files / "debian", {"train-labels-idx1-ubyte.gz": b"junk"})
    course = data.load("fashion_mnist", data_dir=no_real_files / "tfds", num_train=32,
                       num_test=16)
    printed = capsys.readouterr().out
    assert f"{debian / 'train-labels-idx1-ubyte.gz'}: magic number 0x6A756E6B" in printed
    assert "SYNTHETIC stand-in" in printed and course.source == "synthetic"
    assert "expected 0x00000801 (labels)" in course.describe()


def test_forced_idx_raises_on_a_broken_file_naming_it(no_real_files):
    debian = write(no_real_files / "debian", BROKEN)
    with pytest.raises(data.DataUnavailableError) as caught:
        data.load("fashion_mnist", source="idx")
    assert str(caught.value).startswith(f"{debian / 't10k-images-idx3-ubyte.gz'}: truncated")
    assert "source='idx' requires good IDX files" in str(caught.value)


def test_forced_idx_without_files_says_how_to_get_them(no_real_files, monkeypatch):
    monkeypatch.setenv("TFDIST_EDU_DATA", "idx")
    with pytest.raises(data.DataUnavailableError,
                       match="TFDIST_EDU_DATA=idx.*apt-get install dataset-fashion-mnist"):
        data.load("fashion_mnist")


def test_forced_idx_for_svhn_is_refused_in_one_line():
    with pytest.raises(data.DataUnavailableError, match="SVHN has no IDX files"):
        data.load("svhn", source="idx")


def test_forcing_synthetic_still_gives_the_stand_in_when_real_files_are_there(no_real_files,
                                                                             monkeypatch):
    write(no_real_files / "debian")
    monkeypatch.setenv("TFDIST_EDU_DATA", "synthetic")
    course = data.load("fashion_mnist", num_train=32, num_test=16)
    assert course.source == "synthetic" and "SYNTHETIC" in course.label


def test_the_split_caps_cut_the_real_splits(no_real_files):
    write(no_real_files / "debian")
    capped = data.load("fashion_mnist", source="idx", num_train=10, num_test=5)
    assert (capped.num_train, capped.num_test) == (10, 5)


def test_available_source_names_the_idx_folder_for_the_doctor(no_real_files):
    write(no_real_files / "debian", compress=False)
    line = data.available_source("fashion_mnist", data_dir=no_real_files / "tfds")
    assert line == (f"idx in {no_real_files / 'debian'} (Debian package dataset-fashion-mnist, "
                    "contents checked)")


def test_a_gz_file_that_fails_to_decompress_also_falls_back(no_real_files, offline, capsys):
    packed = gzip.compress(idx_bytes(arrays()[0]))
    debian = write(no_real_files / "debian")
    (debian / "train-images-idx3-ubyte.gz").write_bytes(packed[:100])
    course = data.load("fashion_mnist", data_dir=no_real_files / "tfds", num_train=8,
                       num_test=8)
    assert course.source == "synthetic" and "compressed data ends early" in capsys.readouterr().out
