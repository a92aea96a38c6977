"""warm_up: what a starting server loads before the first page asks for it."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import pytest
import reader_access
import warm_up

from blackcat.vision import reader as vision_reader
from blackcat.vision.reader import ModelsMissingError


class RecordedReader:
    def __init__(self, calls: list[str]) -> None:
        self.calls = calls

    def warm_up(self) -> None:
        self.calls.append("tiny read")


def record_warm_up(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []

    def load_reader(folder: str) -> RecordedReader:
        calls.append(f"load {folder}")
        return RecordedReader(calls)

    monkeypatch.setattr(warm_up, "load_reader", load_reader)
    monkeypatch.setattr(warm_up, "read_example", lambda: calls.append("read the example"))
    monkeypatch.setattr(warm_up, "take_first_element_check", lambda: calls.append("first element"))
    return calls


def test_warm_up_loads_the_reader_then_reads_the_example(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = record_warm_up(monkeypatch)
    warm_up.warm_up()
    assert calls == [f"load {reader_access.models_dir()}", "first element", "read the example"]


def test_warm_up_without_the_example_photo_warms_the_reader_up_with_a_tiny_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    calls = record_warm_up(monkeypatch)
    monkeypatch.setattr(warm_up, "EXAMPLE_PHOTO", tmp_path / "missing.jpg")
    warm_up.warm_up()
    assert calls == [f"load {reader_access.models_dir()}", "first element", "tiny read"]


def test_warm_up_without_models_loads_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    calls = record_warm_up(monkeypatch)
    monkeypatch.setenv("BLACKCAT_MODELS_DIR", str(tmp_path))
    warm_up.warm_up()
    assert calls == ["first element"]


def test_warm_up_with_damaged_models_logs_one_line_saying_which_file(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    calls = record_warm_up(monkeypatch)
    damaged = ModelsMissingError(["models/index_detector.onnx"], vision_reader.MODELS_DAMAGED)

    def load_reader(folder: str) -> RecordedReader:
        raise damaged

    monkeypatch.setattr(warm_up, "load_reader", load_reader)
    with caplog.at_level(logging.ERROR, logger="blackcat.app"):
        warm_up.warm_up()
    assert calls == ["first element"]
    assert [(r.getMessage(), r.exc_info) for r in caplog.records] == [
        (f"the card reader couldn't start: {damaged}", None)
    ]


def test_warm_up_imports_the_pages_own_modules(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    record_warm_up(monkeypatch)
    (tmp_path / "page_part.py").write_text("PART = 1\n")
    (tmp_path / "page.py").write_text("import json\nimport page_part\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "page_part", raising=False)
    warm_up.warm_up(tmp_path / "page.py")
    assert "page_part" in sys.modules


def test_the_page_modules_are_the_scripts_imports_from_its_own_folder(tmp_path: Path) -> None:
    for name in ("pile_view", "sharing", "unused"):
        (tmp_path / f"{name}.py").write_text("")
    script = tmp_path / "page.py"
    script.write_text(
        "import json\nimport pile_view\nimport streamlit as st\n"
        "from sharing import admitted\nfrom blackcat.games import cards\n"
    )
    assert warm_up.page_modules(script) == ["pile_view", "sharing"]
    app_script = Path(warm_up.__file__).parent / "streamlit_app.py"
    assert {"black_lady_page", "card_widgets", "photo_store", "pile_view", "reader_access"} <= set(
        warm_up.page_modules(app_script)
    )


def test_the_first_element_check_is_taken_outside_any_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Streamlit's once-a-process check (private, so this test notices when it changes)."""
    from streamlit import delta_generator, runtime

    monkeypatch.setattr(delta_generator, "_use_warning_has_been_displayed", False)
    monkeypatch.setattr(runtime, "exists", lambda: True)
    warm_up.take_first_element_check()
    assert delta_generator._use_warning_has_been_displayed
