"""card_tools' warm-up: what a starting server loads before the first page asks for it."""

from __future__ import annotations

from pathlib import Path

import card_tools
import pytest


def record_warm_up(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    monkeypatch.setattr(card_tools, "load_reader", lambda folder: calls.append(f"load {folder}"))
    monkeypatch.setattr(card_tools, "read_example", lambda: calls.append("read the example"))
    return calls


def test_warm_up_loads_the_reader_then_reads_the_example_once_the_server_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = record_warm_up(monkeypatch)
    card_tools.warm_up(lambda: True)
    assert calls == [f"load {card_tools.models_dir()}", "read the example"]


def test_warm_up_reads_nothing_when_the_server_never_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = record_warm_up(monkeypatch)
    card_tools.warm_up(lambda: False)
    assert calls == [f"load {card_tools.models_dir()}"]


def test_warm_up_without_models_loads_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    calls = record_warm_up(monkeypatch)
    monkeypatch.setenv("BLACKCAT_MODELS_DIR", str(tmp_path))
    card_tools.warm_up(lambda: True)
    assert calls == []
