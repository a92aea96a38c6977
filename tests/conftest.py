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


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(os.environ.get("YOLO_CONFIG_DIR", ""), ignore_errors=True)


@pytest.fixture(scope="session")
def card_packages() -> None:
    """The Debian card-art packages, fetched once into the cache (BLACKCAT_CACHE, else
    ~/.cache/blackcat): a test that needs them skips, saying why, where they can't be had (no
    apt-get or dpkg, no network on a first run, and nothing in the cache)."""
    from blackcat.workshop.synth.cardart import CardArtError, package_root

    try:
        package_root()
    except CardArtError as error:
        pytest.skip(f"the card art can't be fetched: {error}")


@pytest.fixture(scope="session")
def card_art(card_packages: None) -> None:
    """The card art every drawn scene comes from: the packages, and rsvg-convert to draw their
    SVG decks (`card_packages`' tests skip the same way without it)."""
    if shutil.which("rsvg-convert") is None:
        pytest.skip("rsvg-convert is not installed (apt-get install librsvg2-bin): no card art")
