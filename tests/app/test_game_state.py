"""game_state: a page's game with its undo history."""

from __future__ import annotations

from typing import Any

import game_state
import live_table
import pytest

from blackcat.games.cards import parse_pile
from blackcat.i18n import ENGLISH, Translator
from blackcat.tables import black_cat_table as ts
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


# ---------------------------------------------------------------------------------------------
# A shared game: a change made on a page behind it


ROOM = "room-of-two"


@pytest.fixture
def said(session: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A shared game's page (`session`, in ROOM, of a fresh `Rooms`), showing a table of two
    players: what its toasts said."""
    rooms = live_table.Rooms()
    monkeypatch.setattr(live_table.st, "query_params", {live_table.LIVE_PARAM: ROOM})
    monkeypatch.setattr(live_table, "rooms", lambda: rooms)
    monkeypatch.setattr(game_state, "tr", lambda: ENGLISH)
    monkeypatch.setattr(game_state, "_", ENGLISH.gettext)
    toasts: list[str] = []
    monkeypatch.setattr(game_state.st, "toast", lambda text, **_: toasts.append(text))
    session["game"] = ts.new_table(
        ("Ann", "Ben"), piles=[[parse_pile("5C 6C")], [parse_pile("2S")]]
    )
    shared().catch_up()  # the page's first look: the room takes its game
    return toasts


def shared() -> game_state.Undoable[ts.Table]:
    return game_state.Undoable("game", "history", lambda now, left, tr: "undone")


def room_game() -> ts.Table:
    posted = live_table.rooms().latest(ROOM, "game")
    assert posted is not None
    return posted.game


def another_phone(change: Any, *args: Any) -> ts.Table:
    """Another phone's change to the room's game, unseen by this page yet."""
    latest = live_table.rooms().latest(ROOM, "game")
    assert latest is not None
    changed = change(latest.game, *args)
    assert live_table.rooms().post(ROOM, "game", changed, latest.version) is not None
    return changed


def piles(table: ts.Table) -> list[str]:
    return [ts.pile_text(pile) for player in table.players for pile in player.piles]


def test_a_change_on_a_page_behind_the_game_is_made_beside_the_other_phones(
    session: dict[str, Any], said: list[str]
) -> None:
    shown = session["game"]
    ann, ben = (player.piles[0].id for player in shown.players)
    theirs = another_phone(ts.set_cards, ben, parse_pile("2S 9H"))
    after: list[str] = []
    # typed on the page as it was: Ann's pile
    shared().apply(ts.set_cards, ann, parse_pile("5C 6C 7C"), after=lambda: after.append("done"))
    assert piles(room_game()) == ["5C 6C 7C", "2S 9H"]  # both phones' changes
    assert session["game"] is room_game()
    assert said == [game_state.CHANGED_ELSEWHERE] and after == ["done"]
    # Undo takes back this page's own change: the other phone's stays
    assert session["history"] == [game_state.Change(theirs, room_game())]
    shared().undo()
    assert piles(room_game()) == ["5C 6C", "2S 9H"]


def test_a_change_on_a_page_behind_the_game_to_what_another_phone_changed_is_not_made(
    session: dict[str, Any], said: list[str]
) -> None:
    pile = session["game"].players[0].piles[0].id
    theirs = another_phone(ts.set_cards, pile, parse_pile("5C 6C 9H"))
    after: list[str] = []
    shared().apply(ts.set_cards, pile, parse_pile("5C 6C 7C"), after=lambda: after.append("done"))
    assert room_game() is theirs  # made as typed, it would wipe the other phone's 9♥
    assert session["game"] is theirs and session["history"] == []
    assert said == [game_state.CHANGED_MEANWHILE] and after == []


def test_a_game_committed_on_a_page_behind_the_game_is_merged_too(
    session: dict[str, Any], said: list[str]
) -> None:
    shown = session["game"]
    ann, ben = (player.piles[0].id for player in shown.players)
    another_phone(ts.set_cards, ben, parse_pile("2S 9H"))
    assert shared().commit(ts.set_cards(shown, ann, parse_pile("KD")))
    assert piles(room_game()) == ["KD", "2S 9H"]
    renamed = ts.rename_player(room_game(), room_game().players[1].id, "Benjamin")
    another_phone(lambda _game: renamed)
    mine = ts.rename_player(session["game"], room_game().players[1].id, "Benny")
    assert not shared().commit(mine)  # both renamed Ben: the other phone's name stays
    assert room_game() is renamed and session["game"] is renamed


def beaten_to_the_room(monkeypatch: pytest.MonkeyPatch, *changes: Any) -> None:
    """Each of `changes` (a function of the room's game) is another phone's, posted just before
    one of this page's next posts: after its look at the room, before its post."""
    post = live_table.post
    waiting = list(changes)

    def post_after_another(key: str, game: Any) -> live_table.Posted | None:
        if waiting:
            another_phone(waiting.pop(0))
        return post(key, game)

    monkeypatch.setattr(live_table, "post", post_after_another)


def test_a_change_another_phones_beat_to_the_room_is_made_beside_it(
    session: dict[str, Any], said: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, ben = (player.piles[0].id for player in session["game"].players)
    beaten_to_the_room(monkeypatch, lambda game: ts.set_cards(game, ben, parse_pile("2S 9H")))
    after: list[str] = []
    shared().apply(ts.set_cards, ann, parse_pile("5C 6C 7C"), after=lambda: after.append("done"))
    assert piles(room_game()) == ["5C 6C 7C", "2S 9H"]  # both phones' changes
    assert session["game"] is room_game()
    assert said == [game_state.CHANGED_ELSEWHERE] and after == ["done"]
    theirs = ts.set_cards(room_game(), ann, parse_pile("5C 6C"))
    assert session["history"] == [game_state.Change(theirs, room_game())]
    shared().undo()  # this page's own change only
    assert piles(room_game()) == ["5C 6C", "2S 9H"] and said[-1] == "undone"


def test_a_change_another_phone_beat_to_the_room_in_the_same_part_is_not_made(
    session: dict[str, Any], said: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ann = session["game"].players[0].piles[0].id
    beaten_to_the_room(monkeypatch, lambda game: ts.set_cards(game, ann, parse_pile("5C 6C 9H")))
    after: list[str] = []
    shared().apply(ts.set_cards, ann, parse_pile("5C 6C 7C"), after=lambda: after.append("done"))
    assert piles(room_game()) == ["5C 6C 9H", "2S"]  # the other phone's 9♥ stays
    assert session["game"] is room_game() and session["history"] == []
    assert said == [game_state.CHANGED_MEANWHILE] and after == []


def test_a_change_beaten_to_the_room_again_and_again_is_not_made(
    session: dict[str, Any], said: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, ben = (player.piles[0].id for player in session["game"].players)
    shared().apply(ts.set_cards, ann, parse_pile("5C"))
    mine = session["history"]
    beaten_to_the_room(
        monkeypatch,
        lambda game: ts.set_cards(game, ben, parse_pile("2S 9H")),
        lambda game: ts.set_cards(game, ben, parse_pile("2S 9H 3H")),
        lambda game: ts.set_cards(game, ben, parse_pile("2S 9H 3H 4H")),
    )
    assert not shared().commit(ts.set_cards(session["game"], ann, parse_pile("5C 6C")))
    assert piles(room_game()) == ["5C", "2S 9H 3H"]  # tried twice, beaten twice: no third try
    assert session["game"] is room_game() and session["history"] == mine
    assert said[-1] == game_state.CHANGED_MEANWHILE


def test_a_change_the_room_never_took_leaves_a_full_history_as_it_was(
    session: dict[str, Any], said: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(game_state, "UNDO_DEPTH", 3)
    ann, ben = (player.piles[0].id for player in session["game"].players)
    for cards in ("5C", "5C 6C", "5C 6C 7C"):
        shared().apply(ts.set_cards, ann, parse_pile(cards))
    full = session["history"]
    assert len(full) == game_state.UNDO_DEPTH
    beaten_to_the_room(
        monkeypatch,
        lambda game: ts.set_cards(game, ben, parse_pile("2S 9H")),
        lambda game: ts.set_cards(game, ben, parse_pile("2S 9H 3H")),
    )
    assert not shared().commit(ts.set_cards(session["game"], ann, parse_pile("5C")))
    assert session["history"] == full  # beaten twice: each try's trim once cost the oldest
    beaten_to_the_room(monkeypatch, lambda game: ts.set_cards(game, ann, parse_pile("5C 6C 9H")))
    shared().apply(ts.set_cards, ann, parse_pile("5C 6C 8C"))  # the same pile: not made
    assert session["history"] == full and said[-1] == game_state.CHANGED_MEANWHILE
    shared().apply(ts.set_cards, ann, parse_pile("5C 6C 9H 8C"))  # made: the oldest goes
    assert session["history"][:-1] == full[1:] and len(session["history"]) == 3


def test_undo_on_a_page_behind_the_game_takes_this_pages_change_back_from_it(
    session: dict[str, Any], said: list[str]
) -> None:
    ann, ben = (player.piles[0].id for player in session["game"].players)
    shared().apply(ts.set_cards, ann, parse_pile("5C 6C 7C"))
    another_phone(ts.set_cards, ben, parse_pile("2S 9H"))
    shared().undo()  # once: the other phone's change taken in and said, this page's 7♣ gone
    assert piles(room_game()) == ["5C 6C", "2S 9H"] and session["game"] is room_game()
    assert said == [game_state.CHANGED_ELSEWHERE, "undone"] and session["history"] == []


def test_undo_on_a_page_behind_a_change_to_its_own_change_keeps_both(
    session: dict[str, Any], said: list[str]
) -> None:
    ann = session["game"].players[0].piles[0].id
    shared().apply(ts.set_cards, ann, parse_pile("5C 6C 7C"))
    theirs = another_phone(ts.set_cards, ann, parse_pile("5C 6C 7D"))  # the 7♣ made a 7♦
    shared().undo()
    assert room_game() is theirs and session["game"] is theirs
    assert said == [game_state.CHANGED_ELSEWHERE, game_state.CHANGED_SINCE]
    assert len(session["history"]) == 1  # once the other phone's 7♦ is undone, Undo can


def test_undo_another_phone_beat_to_the_room_is_made_beside_its_change(
    session: dict[str, Any], said: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, ben = (player.piles[0].id for player in session["game"].players)
    shared().apply(ts.set_cards, ann, parse_pile("5C 6C 7C"))
    beaten_to_the_room(monkeypatch, lambda game: ts.set_cards(game, ben, parse_pile("2S 9H")))
    shared().undo()
    assert piles(room_game()) == ["5C 6C", "2S 9H"] and session["game"] is room_game()
    assert said == [game_state.CHANGED_ELSEWHERE, "undone"] and session["history"] == []


def test_undo_beaten_to_the_room_again_and_again_is_not_made(
    session: dict[str, Any], said: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, ben = (player.piles[0].id for player in session["game"].players)
    shared().apply(ts.set_cards, ann, parse_pile("5C 6C 7C"))
    mine = session["history"]
    beaten_to_the_room(
        monkeypatch,
        lambda game: ts.set_cards(game, ben, parse_pile("2S 9H")),
        lambda game: ts.set_cards(game, ben, parse_pile("2S 9H 3H")),
    )
    shared().undo()
    assert piles(room_game()) == ["5C 6C 7C", "2S 9H 3H"] and session["game"] is room_game()
    assert session["history"] == mine  # still this page's to undo
    assert said == [game_state.CHANGED_ELSEWHERE, game_state.CHANGED_MEANWHILE]
