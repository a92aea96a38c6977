"""card_taps: a tap picks a card, lets it go, or moves the picked card; a card just fixed in
place (a new rank or suit) is not moved by the next tap, which picks the next card to fix."""

from __future__ import annotations

from typing import Any

import card_taps
import card_widgets
import pytest

from blackcat.games.cards import parse_pile
from blackcat.tables import black_cat_table as ts

PILE = ts.Pile(7, tuple(ts.Slot(card) for card in parse_pile("9D 6C 5H")))


@pytest.fixture
def session(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    state: dict[str, Any] = {}
    monkeypatch.setattr(card_taps.st, "session_state", state)
    return state


def tap(position: int, moves: list[tuple[int, int]]) -> None:
    card_taps.tap_card(
        [PILE], PILE.id, position, lambda pile_id: f"fix:{pile_id}",
        lambda pile, picked, target: moves.append((picked, target)),
    )  # fmt: skip


def test_a_tap_picks_a_second_lets_go_and_a_tap_elsewhere_moves(session: dict[str, Any]) -> None:
    moves: list[tuple[int, int]] = []
    tap(0, moves)
    assert session["sel:7"] == 0 and session["fix:7"] is True  # its tools open with it
    tap(0, moves)
    assert session["sel:7"] is None and moves == []
    tap(0, moves)
    tap(2, moves)
    assert moves == [(0, 2)]


def test_a_card_just_given_a_rank_is_not_moved_by_the_next_tap(session: dict[str, Any]) -> None:
    moves: list[tuple[int, int]] = []
    tap(0, moves)
    card_widgets.fixed_in_place(PILE.id, 0)()  # 9♦ made 10♦ by its row of ranks
    tap(1, moves)  # the next card to fix: picked, 10♦ stays where it is
    assert moves == [] and session["sel:7"] == 1
    tap(2, moves)  # a card picked anew moves as before
    assert moves == [(1, 2)]


def test_letting_go_of_every_card_forgets_the_fix_in_place(session: dict[str, Any]) -> None:
    moves: list[tuple[int, int]] = []
    tap(0, moves)
    card_widgets.fixed_in_place(PILE.id, 0)()
    card_taps.let_go_of_every_card()
    assert session["sel:7"] is None and session[card_taps.CHANGED_IN_PLACE] is None
