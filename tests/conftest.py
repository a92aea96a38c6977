"""Shared by every test."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def english_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """The text for people follows the environment's language (LANGUAGE first): tests expect
    English, whatever the machine's locale; a test that wants another language says so."""
    monkeypatch.setenv("LANGUAGE", "en")
