"""The column of a score sheet a phone shows (a night's game, a Black Lady game's deal), kept
when another phone's change to the shared sheet arrives: one rule for both sheets."""

from __future__ import annotations

from collections.abc import Callable, Sized
from dataclasses import replace
from typing import Protocol, TypeVar


class Sheet(Protocol):
    """A frozen dataclass of a sheet (`Night`, `LadyGame`) with the column on screen."""

    current: int


S = TypeVar("S", bound=Sheet)


def seen_from(arrived: S, shown: S, columns: Callable[[S], Sized]) -> S:
    """A shared sheet as another phone left it (`arrived`), on this phone's column on screen
    (`shown`'s): one phone looking back at an earlier column takes no other there. A column
    added or taken away (the next game or deal, a new night or game) takes every phone to the
    column in play, the last: not to the one the phone that posted last looks at (a phone that
    slept through the next game, or opened an old link, landed on the earlier game another
    phone was correcting)."""
    count = len(columns(arrived))
    if count != len(columns(shown)):
        return on_column(arrived, count - 1)
    return on_column(arrived, shown.current)


def moved_on(arrived: S, shown: S, columns: Callable[[S], Sized]) -> bool:
    """Whether another phone's sheet (`arrived`) takes this phone to another column (`seen_from`:
    a column added or taken away), whose fields take the place of those on screen."""
    return len(columns(arrived)) != len(columns(shown))


def on_column(sheet: S, index: int) -> S:
    """The sheet with column `index` on screen (the same sheet where it is already)."""
    return sheet if sheet.current == index else replace(sheet, current=index)
