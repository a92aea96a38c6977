"""game_state: a page's game with its undo history."""

from __future__ import annotations

from typing import Any

import game_state
import pytest

from blackcat.i18n import ENGLISH, Translator
from blackcat.tables.black_cat_table import TableError


@pytest.fixture
def session(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Session State as a page sees it, with a game (a tuple of moves) and no history yet."""
    state: dict[str, Any] = {"game": (), "history": []}
    monkeypatch.setattr(game_state.st, "session_state", state)
    return state


def move(game: tuple[str, ...], name: str) -> tuple[str, ...]:
    if not name:
        raise TableError("name the move")
    return (*game, name)


def undone_move(now: tuple[str, ...], left: tuple[str, ...], tr: Translator) -> str:
    return tr.gettext("{move} is undone").format(move=left[len(now)])


def undoable() -> game_state.Undoable[tuple[str, ...]]:
    return game_state.Undoable("game", "history", undone_move)


def test_each_change_goes_to_the_history_and_undo_takes_it_back(
    session: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    said: list[str] = []
    monkeypatch.setattr(game_state.st, "toast", lambda text, icon: said.append(text))
    monkeypatch.setattr(game_state, "tr", lambda: ENGLISH)
    game = undoable()
    game.apply(move, "a")
    game.apply(move, "b")
    assert session["game"] == ("a", "b")
    assert session["history"] == [
        game_state.Change((), ("a",)),
        game_state.Change(("a",), ("a", "b")),
    ]
    game.undo()
    assert session["game"] == ("a",) and game_state.games_before(session["history"]) == [()]
    assert said == ["b is undone"]
    game.undo()
    game.undo()  # nothing left to undo: nothing happens, nothing is said
    assert session["game"] == () and session["history"] == []
    assert said == ["b is undone", "a is undone"]


def test_the_same_game_again_is_no_change(session: dict[str, Any]) -> None:
    game = undoable()
    game.commit(session["game"])
    assert session["history"] == []


def test_the_history_keeps_the_last_changes_only(session: dict[str, Any]) -> None:
    game = undoable()
    for number in range(game_state.UNDO_DEPTH + 5):
        game.apply(move, str(number))
    assert len(session["history"]) == game_state.UNDO_DEPTH
    assert session["history"][-1].before == tuple(str(n) for n in range(game_state.UNDO_DEPTH + 4))


def test_a_refused_change_is_a_toast_and_changes_nothing(
    session: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    refused: list[str] = []
    monkeypatch.setattr(game_state, "refuse", lambda error: refused.append(str(error)))
    after: list[str] = []
    game = undoable()
    game.apply(move, "", after=lambda: after.append("moved"))
    assert refused == ["name the move"] and after == []
    assert session["game"] == () and session["history"] == []
    game.apply(move, "a", after=lambda: after.append("moved"))
    assert after == ["moved"]
