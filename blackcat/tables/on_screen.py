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
    arrived one's."""
    if len(columns(arrived)) != len(columns(shown)) or arrived.current == shown.current:
        return arrived
    return replace(arrived, current=shown.current)
