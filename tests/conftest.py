"""Shared by every test."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest


@pytest.fixture(autouse=True)
def english_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """The text for people follows the environment's language (LANGUAGE first): tests expect
    English, whatever the machine's locale; a test that wants another language says so."""
    monkeypatch.setenv("LANGUAGE", "en")


def pytest_configure(config: pytest.Config) -> None:
    """Ultralytics keeps its settings in the user's config folder (and reads them back): the
    tests, and the commands they run, keep theirs in a folder of their own."""
    os.environ["YOLO_CONFIG_DIR"] = tempfile.mkdtemp(prefix="blackcat-tests-ultralytics-")


@pytest.fixture(scope="session")
def card_art() -> None:
    """The Debian card art every drawn scene comes from, fetched once into the cache
    (BLACKCAT_CACHE, else ~/.cache/blackcat): a test that draws scenes skips, saying why, where
    it can't be had (no rsvg-convert, apt-get or dpkg; no network on a first run)."""
    for tool in ("rsvg-convert", "apt-get", "dpkg"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed (apt-get install librsvg2-bin): no card art")
    from blackcat.workshop.synth.cardart import CardArtError, package_root

    try:
        package_root()
    except CardArtError as error:
        pytest.skip(f"the card art can't be fetched: {error}")
