"""One change taken back from a game others changed since: a phone's Undo in a shared game.

`take_back(now, before, after)` is `now` with the change `before -> after` undone where nothing
changed since touches what that change touched (another phone's card in another pile stays), and
None where it does (taking it back would undo the other phone's work too). Pure functions of the
frozen games: dataclasses are compared field by field, players and piles by their ids, other
tuples item by item where their lengths allow, sets by what went in and out.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

Game = TypeVar("Game")

COUNTERS = frozenset({"next_id", "serial"})
"""Fields that count the ids given out so far: a merge keeps the larger, so that no id is given
twice (a pile added on another phone keeps its id after this phone's pile is taken back)."""


class _Conflict(Exception):
    """Both sides changed the same part."""


def take_back(now: Game, before: Game, after: Game) -> Game | None:
    """`now` with the change from `before` to `after` taken back, or None where a change made
    since (`after` -> `now`) touched a part of the game that change touched."""
    try:
        return merge(after, now, before)
    except _Conflict:
        return None


def merge(base: Any, ours: Any, theirs: Any) -> Any:
    """`ours` with `theirs`' changes from `base` made too; _Conflict where both changed the same
    part differently."""
    if theirs is base or ours is theirs:
        return ours
    if ours is base:
        return theirs
    if theirs == base or ours == theirs:
        return ours
    if ours == base:
        return theirs
    if _same_dataclass(base, ours, theirs):
        return _merge_fields(base, ours, theirs)
    if (
        isinstance(base, frozenset)
        and isinstance(ours, frozenset)
        and isinstance(theirs, frozenset)
    ):
        return (ours - (base - theirs)) | (theirs - base)
    if isinstance(base, tuple) and isinstance(ours, tuple) and isinstance(theirs, tuple):
        return _merge_tuples(base, ours, theirs)
    raise _Conflict


def _same_dataclass(*values: Any) -> bool:
    kind = type(values[0])
    return dataclasses.is_dataclass(kind) and all(type(value) is kind for value in values)


def _merge_fields(base: Any, ours: Any, theirs: Any) -> Any:
    merged: dict[str, Any] = {}
    for field in dataclasses.fields(base):
        if not field.init:
            continue
        name = field.name
        mine, other = getattr(ours, name), getattr(theirs, name)
        if name in COUNTERS and isinstance(mine, int) and isinstance(other, int):
            value = max(mine, other)
        else:
            value = merge(getattr(base, name), mine, other)
        if value is not mine:
            merged[name] = value
    return dataclasses.replace(ours, **merged) if merged else ours


def _merge_tuples(base: tuple, ours: tuple, theirs: tuple) -> tuple:
    if _ided(base) and _ided(ours) and _ided(theirs):
        return _merge_by_id(base, ours, theirs)
    if len(base) == len(ours) == len(theirs):
        return tuple(merge(*items) for items in zip(base, ours, theirs, strict=True))
    if len(ours) == len(base) and theirs[: len(base)] == base:  # theirs added at the end
        return (*ours, *theirs[len(base) :])
    if len(ours) == len(base) and base[: len(theirs)] == theirs:  # theirs took the end off
        if ours[len(theirs) :] != base[len(theirs) :]:
            raise _Conflict  # what theirs took off changed here since
        return tuple(merge(*items) for items in zip(base, ours, theirs, strict=False))
    raise _Conflict


def _ided(items: tuple) -> bool:
    return all(isinstance(getattr(item, "id", None), int) for item in items)


def _merge_by_id(base: tuple, ours: tuple, theirs: tuple) -> tuple:
    """Players or piles: matched by id. One side may add, remove or reorder them, the other only
    change what is in them; a removed one must be as it was on the other side."""
    base_by, ours_by, theirs_by = (_by_id(items) for items in (base, ours, theirs))
    if list(ours_by) == list(base_by):
        order, unmoved = list(theirs_by), ours_by
    elif list(theirs_by) == list(base_by):
        order, unmoved = list(ours_by), theirs_by
    else:
        raise _Conflict  # both added, removed or reordered
    for gone in base_by.keys() - set(order):
        if unmoved[gone] != base_by[gone]:
            raise _Conflict  # removed on one side, changed on the other
    return tuple(
        merge(base_by[id_], ours_by[id_], theirs_by[id_])
        if id_ in base_by
        else (ours_by[id_] if id_ in ours_by else theirs_by[id_])
        for id_ in order
    )


def _by_id(items: tuple) -> dict[int, Any]:
    found = {item.id: item for item in items}
    if len(found) != len(items):
        raise _Conflict  # ids are unique in a game; a tuple that repeats one is no such list
    return found
