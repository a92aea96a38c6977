"""The column a phone shows of a shared sheet, kept as another phone's change arrives."""

from __future__ import annotations

from dataclasses import dataclass

from blackcat.tables.on_screen import seen_from


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
