"""card_tools: the warm-up (what a starting server loads before the first page asks for it), the
cache key of the annotated photo, and a page's game with its undo history."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import card_tools
import pytest

from blackcat.games.cards import parse_card
from blackcat.tables.black_cat_table import PhotoMarks, Slot, TableError
from blackcat.vision.types import Guess, IndexRead, ReadCard


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

    monkeypatch.setattr(card_tools, "load_reader", load_reader)
    monkeypatch.setattr(card_tools, "read_example", lambda: calls.append("read the example"))
    monkeypatch.setattr(
        card_tools, "take_first_element_check", lambda: calls.append("first element")
    )
    return calls


def test_warm_up_loads_the_reader_then_reads_the_example(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = record_warm_up(monkeypatch)
    card_tools.warm_up()
    assert calls == [f"load {card_tools.models_dir()}", "first element", "read the example"]


def test_warm_up_without_the_example_photo_warms_the_reader_up_with_a_tiny_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    calls = record_warm_up(monkeypatch)
    monkeypatch.setattr(card_tools, "EXAMPLE_PHOTO", tmp_path / "missing.jpg")
    card_tools.warm_up()
    assert calls == [f"load {card_tools.models_dir()}", "first element", "tiny read"]


def test_warm_up_without_models_loads_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    calls = record_warm_up(monkeypatch)
    monkeypatch.setenv("BLACKCAT_MODELS_DIR", str(tmp_path))
    card_tools.warm_up()
    assert calls == ["first element"]


def test_warm_up_imports_the_pages_own_modules(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    record_warm_up(monkeypatch)
    (tmp_path / "page_part.py").write_text("PART = 1\n")
    (tmp_path / "page.py").write_text("import json\nimport page_part\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "page_part", raising=False)
    card_tools.warm_up(tmp_path / "page.py")
    assert "page_part" in sys.modules


def test_the_page_modules_are_the_scripts_imports_from_its_own_folder(tmp_path: Path) -> None:
    for name in ("pile_view", "sharing", "unused"):
        (tmp_path / f"{name}.py").write_text("")
    script = tmp_path / "page.py"
    script.write_text(
        "import json\nimport pile_view\nimport streamlit as st\n"
        "from sharing import admitted\nfrom blackcat.games import cards\n"
    )
    assert card_tools.page_modules(script) == ["pile_view", "sharing"]
    app_script = Path(card_tools.__file__).parent / "streamlit_app.py"
    assert {"black_lady_page", "card_tools", "pile_view"} <= set(
        card_tools.page_modules(app_script)
    )


def test_the_first_element_check_is_taken_outside_any_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Streamlit's once-a-process check (private, so this test notices when it changes)."""
    from streamlit import delta_generator, runtime

    monkeypatch.setattr(delta_generator, "_use_warning_has_been_displayed", False)
    monkeypatch.setattr(runtime, "exists", lambda: True)
    card_tools.take_first_element_check()
    assert delta_generator._use_warning_has_been_displayed


def read_slot(code: str, x: float, confidence: float = 0.9) -> Slot:
    card = parse_card(code)
    guesses = (Guess(card, confidence), Guess(parse_card("2C"), 1 - confidence))
    index = IndexRead((x, 10.0, x + 20.0, 40.0), 0.8, guesses)
    return Slot(card, read=ReadCard(card, (x, 10.0, x + 60.0, 90.0), confidence, guesses, (index,)))


MARKS = ((0, 0, read_slot("QS", 0.0)), (0, 1, read_slot("10H", 70.0, confidence=0.4)))


def test_the_drawing_key_is_the_same_for_the_same_drawing() -> None:
    again = ((0, 0, read_slot("QS", 0.0)), (0, 1, read_slot("10H", 70.0, confidence=0.4)))
    assert card_tools.drawing_key(MARKS) == card_tools.drawing_key(again)


def test_the_drawing_key_ignores_what_the_photo_does_not_show() -> None:
    slot = MARKS[0][2]
    assert slot.read is not None
    fewer_guesses = replace(slot, read=replace(slot.read, alternatives=slot.read.alternatives[:1]))
    assert card_tools.drawing_key(((0, 0, fewer_guesses), MARKS[1])) == card_tools.drawing_key(
        MARKS
    )


@pytest.mark.parametrize(
    "changed",
    [
        ((0, 0, replace(MARKS[0][2], card=parse_card("KS"))), MARKS[1]),  # a corrected card
        (MARKS[0], (0, 1, replace(MARKS[1][2], checked=True))),  # a doubtful card confirmed
        (MARKS[0], (0, 1, read_slot("10H", 75.0, confidence=0.4))),  # another box
        (MARKS[0], (1, 0, MARKS[1][2])),  # moved to another pile
        (MARKS[0], (0, 2, MARKS[1][2])),  # a typed card before it
        MARKS[:1],  # taken off
    ],
)
def test_the_drawing_key_changes_with_what_the_photo_shows(changed: PhotoMarks) -> None:
    assert card_tools.drawing_key(changed) != card_tools.drawing_key(MARKS)


@pytest.fixture
def session(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Session State as a page sees it, with a game (a tuple of moves) and no history yet."""
    state: dict[str, Any] = {"game": (), "history": []}
    monkeypatch.setattr(card_tools.st, "session_state", state)
    return state


def move(game: tuple[str, ...], name: str) -> tuple[str, ...]:
    if not name:
        raise TableError("name the move")
    return (*game, name)


def test_each_change_goes_to_the_history_and_undo_takes_it_back(session: dict[str, Any]) -> None:
    game = card_tools.Undoable("game", "history")
    game.apply(move, "a")
    game.apply(move, "b")
    assert session["game"] == ("a", "b") and session["history"] == [(), ("a",)]
    game.undo()
    assert session["game"] == ("a",) and session["history"] == [()]
    game.undo()
    game.undo()  # nothing left to undo: nothing happens
    assert session["game"] == () and session["history"] == []


def test_the_same_game_again_is_no_change(session: dict[str, Any]) -> None:
    game = card_tools.Undoable("game", "history")
    game.commit(session["game"])
    assert session["history"] == []


def test_the_history_keeps_the_last_changes_only(session: dict[str, Any]) -> None:
    game = card_tools.Undoable("game", "history")
    for number in range(card_tools.UNDO_DEPTH + 5):
        game.apply(move, str(number))
    assert len(session["history"]) == card_tools.UNDO_DEPTH
    assert session["history"][-1] == tuple(str(n) for n in range(card_tools.UNDO_DEPTH + 4))


def test_a_refused_change_is_a_toast_and_changes_nothing(
    session: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    refused: list[str] = []
    monkeypatch.setattr(card_tools, "refuse", lambda error: refused.append(str(error)))
    after: list[str] = []
    game = card_tools.Undoable("game", "history")
    game.apply(move, "", after=lambda: after.append("moved"))
    assert refused == ["name the move"] and after == []
    assert session["game"] == () and session["history"] == []
    game.apply(move, "a", after=lambda: after.append("moved"))
    assert after == ["moved"]
