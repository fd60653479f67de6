"""Fixtures for the data tests: no network, no real files unless a test puts them there.

The network probe is pointed at TEST-NET-1 (192.0.2.1, an address reserved for documentation
that never answers), so "offline" holds on any machine.
"""

import pytest

from tfdist_edu.data import network, specs
from idx_files import small_spec

UNREACHABLE = "192.0.2.1"


@pytest.fixture
def offline(monkeypatch):
    monkeypatch.setattr(network, "PROBE_HOST", UNREACHABLE)


@pytest.fixture
def online(monkeypatch):
    """Pretend the network answers; use only with tfds.testing.mock_data (nothing downloads)."""
    monkeypatch.setattr(network, "available", lambda *args, **kwargs: True)


@pytest.fixture
def no_real_files(monkeypatch, tmp_path):
    """Fashion-MNIST expects the small files of ``idx_files``; no folder holds any yet.

    The Debian folder is ``tmp_path/debian`` and the Keras cache ``tmp_path/keras``; tests pass
    ``data_dir=tmp_path / "tfds"`` so no TFDS copy is prepared either. Returns tmp_path.
    """
    monkeypatch.setitem(specs.SPECS, "fashion_mnist", small_spec(tmp_path))
    monkeypatch.setenv("KERAS_HOME", str(tmp_path / "keras"))
    monkeypatch.delenv("TFDIST_EDU_FASHION_MNIST_DIR", raising=False)
    monkeypatch.delenv("TFDIST_EDU_DATA", raising=False)
    return tmp_path
