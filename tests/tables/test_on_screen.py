"""The column a phone shows of a shared sheet, kept as another phone's change arrives."""

from __future__ import annotations

from dataclasses import dataclass

from blackcat.tables.on_screen import moved_on, seen_from


@dataclass(frozen=True)
class Sheet:
    columns: tuple[str, ...]
    current: int = 0


def columns(sheet: Sheet) -> tuple[str, ...]:
    return sheet.columns


def test_a_change_to_the_column_in_play_keeps_a_phone_looking_back_where_it_looks() -> None:
    looking_back = Sheet(("9", "4"), current=0)
    arrived = Sheet(("9", "7"), current=1)  # the other phone changed the column in play
    assert seen_from(arrived, looking_back, columns) == Sheet(("9", "7"), current=0)


def test_a_column_added_or_taken_away_takes_every_phone_to_the_arrived_one() -> None:
    looking_back = Sheet(("9", "4"), current=0)
    following = Sheet(("9", "4", ""), current=2)
    assert seen_from(following, looking_back, columns) is following
    assert seen_from(Sheet(("",)), looking_back, columns) == Sheet(("",))


def test_the_same_column_on_screen_is_the_arrived_sheet_itself() -> None:
    arrived = Sheet(("9", "7"), current=1)
    assert seen_from(arrived, Sheet(("9", "4"), current=1), columns) is arrived


def test_a_column_added_takes_a_phone_to_the_column_in_play_not_to_the_posting_phones() -> None:
    """Ben's phone slept through games 2 and 3; Ann, the last to post, was correcting game 1:
    Ben wakes on game 3, the game in play (he landed on Ann's game 1)."""
    asleep = Sheet(("9",), current=0)
    correcting = Sheet(("8", "4", ""), current=0)
    assert seen_from(correcting, asleep, columns) == Sheet(("8", "4", ""), current=2)
    undone = Sheet(("9", "4"), current=0)  # Ann's Undo of game 3, made from game 1
    assert seen_from(undone, Sheet(("9", "4", ""), current=2), columns).current == 1


def test_only_a_column_added_or_taken_away_moves_a_phone_on() -> None:
    """What a phone's typing waits for: its fields give way to another column's."""
    shown = Sheet(("9", "4"), current=1)
    assert moved_on(Sheet(("9", "4", "")), shown, columns)  # the next game
    assert moved_on(Sheet(("",)), shown, columns)  # a new night
    assert not moved_on(Sheet(("9", "7"), current=0), shown, columns)  # a change, looked back
