"""The photo reader's loading, as the page says it (`app/reader_access.py`)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest
import reader_access

from blackcat.i18n import translator


def test_the_reader_loading_is_said_in_the_pages_language_not_streamlits_english(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A page opened as the server starts waits for the warm-up's load of the reader: Streamlit's
    own spinner said "Loading the card reader…" there, in English on a Spanish page."""
    said: list[str] = []

    @contextlib.contextmanager
    def spinner(text: str) -> Iterator[None]:
        said.append(text)
        yield

    spanish = translator("es")
    reader = object()
    monkeypatch.setattr(reader_access, "_", lambda text: f"[{spanish.language}] {text}")
    monkeypatch.setattr(reader_access.st, "spinner", spinner)
    monkeypatch.setattr(reader_access, "models_present", lambda folder: True)
    monkeypatch.setattr(reader_access, "models_dir", lambda: Path("models"))
    monkeypatch.setattr(reader_access, "load_reader", lambda folder: reader)
    assert reader_access.get_reader() == (reader, None)
    assert said == ["[es] Loading the card reader…"]  # the page's words
