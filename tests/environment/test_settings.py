import pytest

from tfdist_edu import settings


@pytest.mark.parametrize("value,expected", [("1", True), ("yes", True), ("0", False), ("", False)])
def test_fast_mode_reads_the_environment(monkeypatch, value, expected):
    monkeypatch.setenv("TFDIST_EDU_FAST", value)
    assert settings.fast_mode() is expected


def test_data_source_defaults_to_auto(monkeypatch):
    monkeypatch.delenv("TFDIST_EDU_DATA", raising=False)
    assert settings.data_source() == "auto"


def test_unknown_data_source_lists_the_valid_ones(monkeypatch):
    monkeypatch.setenv("TFDIST_EDU_DATA", "kaggle")
    with pytest.raises(ValueError, match="auto, idx, tfds, synthetic"):
        settings.data_source()
