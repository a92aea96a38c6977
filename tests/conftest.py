"""Shared by every test."""

from __future__ import annotations

import os
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
