"""Fixtures shared by the instructor tooling's tests."""

import shutil

import pytest

from chromium import HeadlessChromium


@pytest.fixture(scope="module")
def browser():
    binary = shutil.which("chromium")
    if binary is None:
        pytest.fail("chromium not found: install it with `scripts/install_slide_deps.sh chromium`")
    chromium = HeadlessChromium(binary)
    yield chromium
    chromium.close()
