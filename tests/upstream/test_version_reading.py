"""The sentinels and the instructor tooling read TensorFlow's and Keras' versions from what is
imported, not from a distribution named "tensorflow" or "keras": on the nightly canary those are
tf-nightly and keras-nightly, and ``importlib.metadata.version("keras")`` raises there."""

from importlib import metadata

import pytest
import test_sentinels
from packaging.version import Version
from tfdist_instructor import compat, machine

NIGHTLIES = {"tf-nightly": "2.23.0.dev20261026", "keras-nightly": "3.16.0.dev2026102704",
             "tf-keras-nightly": "2.23.0.dev20261026"}
MODULES = {"tensorflow": ["tf-nightly"], "keras": ["keras-nightly"], "tf_keras": ["tf-keras-nightly"]}


@pytest.fixture
def nightly_names(monkeypatch):
    """The installed distributions renamed as the nightlies name them; the modules stay."""
    real = metadata.version

    def version(name):
        if name in ("tensorflow", "keras", "tf-keras", "tf_keras"):
            raise metadata.PackageNotFoundError(name)
        return NIGHTLIES[name] if name in NIGHTLIES else real(name)

    monkeypatch.setattr(metadata, "version", version)
    monkeypatch.setattr(machine, "_providers", lambda: MODULES)


def test_a_sentinels_message_names_the_imported_keras_when_its_distribution_is_keras_nightly(nightly_names):
    import keras
    import tensorflow as tf

    with pytest.raises(metadata.PackageNotFoundError):
        metadata.version("keras")  # what the sentinels read before
    message = test_sentinels._fixed("keras-team/keras#0", "it trained", "lesson 0")
    assert f"TensorFlow {tf.__version__} / Keras {keras.__version__}: it trained" in message
    assert test_sentinels.versions() == (tf.__version__, keras.__version__)


def test_a_keras_nightly_is_expected_to_divide_the_penalty_as_the_newest_release_does():
    assert test_sentinels.divides_by_batch("3.16.0.dev2026102704") is True
    assert test_sentinels.divides_by_batch("3.13.2") is False


def test_the_machine_line_and_the_compatibility_page_read_the_nightlies_versions(nightly_names):
    assert machine.versions() == "TensorFlow 2.23.0.dev20261026, Keras 3.16.0.dev2026102704"
    env = compat.environment()
    assert (env["tensorflow"], env["keras"], env["tf_keras"]) == (
        "2.23.0.dev20261026", "3.16.0.dev2026102704", "2.23.0.dev20261026")


def test_installed_versions_are_those_of_the_modules_imported_here():
    import keras
    import tensorflow as tf

    # Compared as versions: tf-nightly's module says 2.23.0-dev20261026, its distribution 2.23.0.dev...
    assert Version(machine.installed_version("keras")) == Version(keras.__version__)
    assert Version(machine.installed_version("tensorflow")) == Version(tf.__version__)
    assert machine.installed_version("no_such_module_here") is None
