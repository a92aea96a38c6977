"""One change taken back from a game others changed since: a phone's Undo in a shared game.

`take_back(now, before, after)` is `now` with the change `before -> after` undone where nothing
changed since touches what that change touched (another phone's card, even in the same pile,
stays), and None where it does (taking it back would undo the other phone's work too). Pure
functions of the frozen games: dataclasses are compared field by field, players and piles by their
ids (`_merge_by_id`: put in or taken out on either side, a pile wherever it lies, so a pile given
to another player goes back with the cards typed in it since), Black Lady deals by their serial
(a deal taken off goes back in its place: `_merge_lady`), a pile's cards by where they lie
among the others (`_merge_runs`: a card put in or taken out moves the later ones, not what they
are; a Black Lady player's tricks are a set: `_merge_tricks`), a card whole, other tuples item by
item where their lengths allow (games added since after the last: `_still_followed`; the next
game taken back where another phone only renamed its players, as in the games kept:
`_renamed_with`), sets by what went in and out; the game or deal on screen is the other phone's
where both moved it (`VIEWS`). A change that started a game anew ("New game", the example made
way) is taken back whole: only where the new game is as it left it, or where another phone only
renamed its players (`_back_to_another_game`); the example changed (a card corrected) is the same
game (`_example_changed`).

`make_again(now, before, after)` is the same merge the other way: a change made on a page that
had not yet seen another phone's, made on the game as that phone left it (`now`), where the two
touched different parts; None where they touched the same one (a Black Lady player's tricks in
a deal changed on both: not merged as a set, as Undo does: `_tricks_changed_on_both`).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from blackcat.tables import black_cat_night as nt
from blackcat.tables import black_cat_table as ts
from blackcat.tables import black_lady_table as lt
from blackcat.tables.changes import lady_started_anew, night_started_anew

Game = TypeVar("Game")

COUNTERS = frozenset({"next_id", "serial"})
"""Fields that count the ids given out so far: a merge keeps the larger, so that no id is given
twice (a pile added on another phone keeps its id after this phone's pile is taken back)."""


VIEWS = frozenset({"current"})
"""Fields of what a phone shows (the night's game, the Black Lady deal on screen): where both
sides moved it, `ours` stays, as a game or deal added takes every phone to it."""


class _Conflict(Exception):
    """Both sides changed the same part."""


def take_back(now: Game, before: Game, after: Game) -> Game | None:
    """`now` with the change from `before` to `after` taken back, or None where a change made
    since (`after` -> `now`) touched a part of the game that change touched."""
    try:
        return merge(after, now, before)
    except _Conflict:
        return None


def make_again(now: Game, before: Game, after: Game) -> Game | None:
    """`now` with the change from `before` to `after` made on it too: a page's change, made on
    the game it showed (`before`), where another phone changed that into `now` since (their
    change kept beside it). None where the two touched the same part, or where the change
    started a game anew and `now` is more than `before` with players renamed (the names go to
    the new game; whatever else went in would be lost unseen)."""
    try:
        if _another_game(before, after) or _a_game_made_way(before, after):
            return _back_to_another_game(before, now, after)
        if _tricks_changed_on_both(before, after, now):
            return None
        return merge(before, after, now)
    except _Conflict:
        return None


def _tricks_changed_on_both(base: Any, ours: Any, theirs: Any) -> bool:
    """Whether both sides changed one Black Lady player's tricks in a deal, and differently.
    Undo merges tricks as a set (`_merge_tricks`); a change made again so would give two
    phones typing one seat's tricks at once cards neither typed ("KH 2S" and "KH 3S" made
    "KH 2S 3S"; a card typed here and photographed there, twice)."""
    if not all(isinstance(game, lt.LadyGame) for game in (base, ours, theirs)):
        return False
    was, mine, other = (_tricks_held(game) for game in (base, ours, theirs))
    return any(
        mine[pile] != was[pile] and other[pile] != was[pile] and mine[pile] != other[pile]
        for pile in was.keys() & mine.keys() & other.keys()
    )


def _tricks_held(game: lt.LadyGame) -> dict[int, Counter]:
    """Each player's tricks in each deal, by the pile's id (unique in a game), as a set of
    cards (each with where it came from: `ts.Slot`)."""
    return {
        pile.id: Counter(pile.slots)
        for deal in game.deals
        for player in deal.table.players
        for pile in player.piles
    }


def _a_game_made_way(before: Any, after: Any) -> bool:
    """Whether a night's game is another game in `after` (the example made way for a new game
    of the same ids: `merge` tells it only on the other side)."""
    if not (isinstance(before, nt.Night) and isinstance(after, nt.Night)):
        return False
    pairs = zip(before.games, after.games, strict=False)  # a game added or taken off: no matter
    return any(_another_game(was, now) for was, now in pairs)


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
    if _another_game(base, theirs):
        return _back_to_another_game(base, ours, theirs)
    if isinstance(base, ts.Slot):
        raise _Conflict  # one card changed on both sides: no field of it goes back alone
    if _same_dataclass(base, ours, theirs) and isinstance(base, ts.Pile):
        return _merge_piles(base, ours, theirs)
    if _same_dataclass(base, ours, theirs) and isinstance(base, ts.Table):
        return _merge_tables(base, ours, theirs)
    if _same_dataclass(base, ours, theirs) and isinstance(base, lt.Deal):
        return _merge_deals(base, ours, theirs)
    if _same_dataclass(base, ours, theirs) and isinstance(base, lt.LadyGame):
        return _merge_lady(base, ours, theirs)
    if _same_dataclass(base, ours, theirs) and isinstance(base, nt.Night):
        return _on_screen(_merge_fields(base, ours, theirs), ours)
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
        elif name in VIEWS:
            value = other if mine == getattr(base, name) else mine
        else:
            value = merge(getattr(base, name), mine, other)
        if value is not mine:
            merged[name] = value
    return dataclasses.replace(ours, **merged) if merged else ours


def _on_screen(night: nt.Night, ours: nt.Night) -> nt.Night:
    """The merged night, on a game it has: where the one on screen is gone (a game chosen
    here, then a new night there), on the other phone's."""
    if 0 <= night.current < len(night.games):
        return night
    if 0 <= ours.current < len(night.games):
        return dataclasses.replace(night, current=ours.current)
    raise _Conflict


def _merge_lady(base: lt.LadyGame, ours: lt.LadyGame, theirs: lt.LadyGame) -> lt.LadyGame:
    """Deals by their serial (`lt.Deal.serial`: a deal taken off or put back on one side, the
    others wherever they lie), the deal on screen by its serial too; _Conflict where the game
    would break a rule (`_lady_holds`), or where another phone started a new game since and
    this change was to the deals (none of the new game's has it: Undo would do nothing)."""
    if lady_started_anew(base, ours) and base.deals != theirs.deals:
        raise _Conflict
    merged = _with_names(_merge_fields(base, ours, theirs), base, ours)
    current = _deal_on_screen(base, ours, theirs, merged.deals)
    if current != merged.current:
        merged = dataclasses.replace(merged, current=current)
    if not _lady_holds(merged, base, ours):
        raise _Conflict
    return merged


def _with_names(game: lt.LadyGame, base: lt.LadyGame, ours: lt.LadyGame) -> lt.LadyGame:
    """The game with each deal put back from theirs (a deal taken off here, taken back) given
    the names our side gave its players since, as a rename there would have given it."""
    if len(base.names) != len(ours.names):
        return game
    pairs = enumerate(zip(base.names, ours.names, strict=True))
    renames = [(seat, name) for seat, (was, name) in pairs if was != name]
    known = {deal.serial for deal in (*base.deals, *ours.deals)}
    deals = tuple(
        _deal_renamed(deal, renames)
        if deal.serial not in known and _names(deal.table) == list(base.names)
        else deal
        for deal in game.deals
    )
    return game if deals == game.deals else dataclasses.replace(game, deals=deals)


def _deal_renamed(deal: lt.Deal, renames: list[tuple[int, str]]) -> lt.Deal:
    table = deal.table
    for seat, name in renames:
        try:
            table = ts.rename_player(table, table.players[seat].id, name)
        except ts.TableError:  # a name another seat has in this deal
            raise _Conflict from None
    return dataclasses.replace(deal, table=table)


def _deal_on_screen(
    base: lt.LadyGame, ours: lt.LadyGame, theirs: lt.LadyGame, deals: tuple[lt.Deal, ...]
) -> int:
    """Where in `deals` the deal on screen lies: theirs where only they moved it, else ours
    (`VIEWS`), else the deal at ours' place (or the last) where that deal is gone."""
    shown, mine, other = (game.deal.serial for game in (base, ours, theirs))
    serials = [deal.serial for deal in deals]
    wanted = other if mine == shown else mine
    if wanted in serials:
        return serials.index(wanted)
    if mine in serials:
        return serials.index(mine)
    return min(ours.current, len(deals) - 1)


def _lady_holds(game: lt.LadyGame, base: lt.LadyGame, ours: lt.LadyGame) -> bool:
    """Whether a merged Black Lady game keeps the rules of one: a deal at least, each of the
    game's players (its names), no more deals than it is set to last, and a deal put in on our
    side (the next deal, made on another phone) after a deal with tricks in, as it was there
    (`_still_followed`)."""
    names = list(game.names)
    if not game.deals or any(_names(deal.table) != names for deal in game.deals):
        return False
    if game.deals_to_play is not None and len(game.deals) > game.deals_to_play:
        return False
    known = {deal.serial for deal in base.deals}
    our_deals = {deal.serial: deal for deal in ours.deals}
    for before, deal in zip(game.deals, game.deals[1:], strict=False):
        was = our_deals.get(before.serial)
        made_here = deal.serial in our_deals and deal.serial not in known
        if made_here and before.empty and was is not None and not was.empty:
            return False
    return True


def _merge_tables(
    base: ts.Table, ours: ts.Table, theirs: ts.Table, *, tricks: bool = False
) -> ts.Table:
    """Players by id, each with their piles' ids (a pile given to another player leaves one and
    joins the other), and piles by id wherever they lie (`tricks`: a Black Lady deal's, whose
    cards' order doesn't count: `_merge_tricks`); _Conflict where a pile went two ways, where a
    card moved to another pile on one side and changed on the other (`_slots`), or where the
    game would break a rule (a name twice, a player without piles, too many players)."""
    merged = _merge_fields(*(_bare(table) for table in (base, ours, theirs)))
    piles = (_all_piles(table) for table in (base, ours, theirs))
    by_id = _merged_by_id(*piles, merge_one=_merge_tricks if tricks else merge)
    placed = [pile.id for player in merged.players for pile in player.piles]
    if sorted(placed) != sorted(by_id):
        raise _Conflict  # a pile given on one side, given elsewhere or taken off on the other
    players = tuple(
        dataclasses.replace(player, piles=tuple(by_id[pile.id] for pile in player.piles))
        for player in merged.players
    )
    merged = dataclasses.replace(merged, players=players)
    if _slots(merged) != _counts_merged(_slots(base), _slots(ours), _slots(theirs)):
        raise _Conflict  # a card moved to another pile on one side, changed on the other
    ids = [player.id for player in players] + [pile.id for pile in _all_piles(merged)]
    if len(set(ids)) < len(ids):
        raise _Conflict  # an id given out on both sides: to a player here, a pile there
    names = {player.name.casefold() for player in players}
    most = max(len(ours.players), len(theirs.players), ts.MAX_PLAYERS)
    if len(names) < len(players) or len(players) > most or not all(p.piles for p in players):
        raise _Conflict
    if merged.example and merged not in (ours, theirs) and not (ours.example and theirs.example):
        return dataclasses.replace(merged, example=False)  # the example with another's change
    return ours if merged == ours else merged


def _merge_deals(base: lt.Deal, ours: lt.Deal, theirs: lt.Deal) -> lt.Deal:
    """The deal's players' tricks (`_merge_tables`, as tricks) and "took no trick" marks;
    _Conflict where a player would be marked and hold cards (a card of theirs taken back here,
    the player marked there since)."""
    tables = base.table, ours.table, theirs.table
    if tables[2] == tables[0] or tables[1] == tables[2]:
        table = ours.table
    elif tables[1] == tables[0]:
        table = theirs.table
    else:
        table = _merge_tables(*tables, tricks=True)
    marked = merge(base.no_tricks, ours.no_tricks, theirs.no_tricks)
    if any(player.piles[0].slots for player in table.players if player.id in marked):
        raise _Conflict
    if (table, marked) == (ours.table, ours.no_tricks):
        return ours
    return lt.Deal(table, marked)


def _bare(table: ts.Table) -> ts.Table:
    """The table with each pile as its id alone."""
    players = tuple(
        dataclasses.replace(player, piles=tuple(ts.Pile(pile.id) for pile in player.piles))
        for player in table.players
    )
    return dataclasses.replace(table, players=players)


def _all_piles(table: ts.Table) -> tuple[ts.Pile, ...]:
    return tuple(pile for player in table.players for pile in player.piles)


def _slots(table: ts.Table) -> Counter[ts.Slot]:
    return Counter(ts.all_slots(table))


def _counts_merged(base: Counter, ours: Counter, theirs: Counter) -> Counter:
    """How many of each thing there are with both sides' changes made: each side's change of
    its count, one where both made the same."""

    def count(key: Any) -> int:
        was, mine, other = base[key], ours[key], theirs[key]
        if mine in (was, other):
            return other
        return mine if other == was else mine + other - was

    return +Counter({key: count(key) for key in base | ours | theirs})


def _merge_tuples(base: tuple, ours: tuple, theirs: tuple) -> tuple:
    if _ided(base) and _ided(ours) and _ided(theirs):
        return _merge_by_id(base, ours, theirs)
    if len(base) == len(ours) == len(theirs):
        return tuple(merge(*items) for items in zip(base, ours, theirs, strict=True))
    if base and len(theirs) == len(base) < len(ours):  # ours added at the end: games or deals
        merged = _merge_tuples(base, ours[: len(base)], theirs)
        if not _still_followed(base[-1], merged[-1]):
            raise _Conflict
        return (*merged, *ours[len(base) :])
    if len(ours) == len(base) and theirs[: len(base)] == base:  # theirs added at the end
        return (*ours, *theirs[len(base) :])
    if len(ours) == len(base) and base[: len(theirs)] == theirs:  # theirs took the end off
        kept = ours[: len(theirs)]
        taken_off = zip(base[len(theirs) :], ours[len(theirs) :], strict=True)
        if not all(_renamed_with(was, now, kept) for was, now in taken_off):
            raise _Conflict  # what theirs took off changed here since
        return kept
    raise _Conflict


def _still_followed(was: Any, now: Any) -> bool:
    """Whether a game made after `was` could be made after `now`: it has cards, and the game
    made would be the same (its players, the variants)."""
    if isinstance(was, ts.Table) and isinstance(now, ts.Table):
        return nt.has_cards(now) and ts.new_game(was) == ts.new_game(now)
    return False


def _renamed_with(was: Any, now: Any, kept: tuple) -> bool:
    """Whether a game taken off on one side (`was`: the next game, taken back) is on the other
    (`now`) as it was, or with players renamed as the games kept are (a rename of the night's
    player, `nt.renamed`): the names stay with them. Not a name given in that game alone: it
    would be lost."""
    if was == now:
        return True
    renames = _table_renames(was, now)
    if not renames or not kept or not isinstance(kept[-1], ts.Table):
        return False
    last = [player.name for player in kept[-1].players]
    return all(
        new in last and not any(ts.same_name(name, old) for name in _names_in(kept))
        for old, new in renames
    )


def _table_renames(was: Any, now: Any) -> Renames:
    """The players renamed between two tables that differ in nothing else; () where they do."""
    if not (isinstance(was, ts.Table) and isinstance(now, ts.Table)):
        return ()
    if _nameless(was) != _nameless(now):
        return ()
    pairs = zip(was.players, now.players, strict=True)
    return tuple((old.name, new.name) for old, new in pairs if old.name != new.name)


def _nameless(table: ts.Table) -> ts.Table:
    players = tuple(dataclasses.replace(player, name="") for player in table.players)
    return dataclasses.replace(table, players=players)


def _renamed_deal(was: Any, now: Any) -> bool:
    """Whether a Black Lady deal changed in its players' names alone (a rename, in every deal):
    taken off on the other side (the next deal, taken back), the names stay in the deals and
    the game's names (`_lady_holds`)."""
    return (
        isinstance(was, lt.Deal)
        and isinstance(now, lt.Deal)
        and was.no_tricks == now.no_tricks
        and bool(_table_renames(was.table, now.table))
    )


def _names_in(games: tuple) -> list[str]:
    return [player.name for game in games for player in game.players]


def _names(table: ts.Table) -> list[str]:
    return [player.name for player in table.players]


def _id(item: Any) -> int | None:
    """A player's or pile's id, a Black Lady deal's serial; None for anything else."""
    if isinstance(item, lt.Deal):
        return item.serial
    found = getattr(item, "id", None)
    return found if isinstance(found, int) else None


def _ided(items: tuple) -> bool:
    return all(_id(item) is not None for item in items)


def _merge_by_id(base: tuple, ours: tuple, theirs: tuple) -> tuple:
    """Players, piles or deals, matched by id (`_merged_by_id`), in `_id_order`."""
    merged = _merged_by_id(base, ours, theirs)
    order = _id_order(*([_id(item) for item in items] for items in (base, ours, theirs)))
    return tuple(merged[id_] for id_ in order if id_ in merged)


Merge = Callable[[Any, Any, Any], Any]


def _merged_by_id(
    base: tuple, ours: tuple, theirs: tuple, merge_one: Merge = merge
) -> dict[int, Any]:
    """Each side's items put in or taken out, and an item changed on both sides merged, by id
    (`merge_one`); _Conflict where one side took out an item the other changed, or both put in
    one id differently."""
    base_by, ours_by, theirs_by = (_by_id(items) for items in (base, ours, theirs))
    merged: dict[int, Any] = {}
    for id_ in ours_by.keys() | theirs_by.keys():
        mine, other = ours_by.get(id_, _GONE), theirs_by.get(id_, _GONE)
        item = _ided_item(base_by.get(id_, _GONE), mine, other, merge_one)
        if item is not _GONE:
            merged[id_] = item
    return merged


def _ided_item(base: Any, mine: Any, other: Any, merge_one: Merge) -> Any:
    if base is not _GONE:
        return _item(base, mine, other, merge_one)
    if other is _GONE or _same(mine, other):
        return mine
    if mine is _GONE:
        return other
    raise _Conflict  # one id put in on both sides, differently


def _id_order(base: list[int], ours: list[int], theirs: list[int]) -> list[int]:
    """The ids in one side's order (ours, unless only theirs moved some), less those the other
    side took out, with those it put in each right after the id before it there (still here):
    an item taken back goes back where it was, before any the other phone put there since.
    _Conflict where both sides moved items differently."""
    common = set(base) & set(ours) & set(theirs)
    base_order, our_order, their_order = (
        [id_ for id_ in ids if id_ in common] for ids in (base, ours, theirs)
    )
    if their_order in (base_order, our_order):
        lead, other = ours, theirs
    elif our_order == base_order:
        lead, other = theirs, ours
    else:
        raise _Conflict  # moved differently on both sides
    order = [id_ for id_ in lead if id_ in other or id_ not in base]
    for at, id_ in enumerate(other):
        if id_ not in base and id_ not in lead:
            previous = next((seen for seen in reversed(other[:at]) if seen in order), None)
            order.insert(0 if previous is None else order.index(previous) + 1, id_)
    return order


def _by_id(items: tuple) -> dict[int, Any]:
    found = {_id(item): item for item in items}
    if len(found) != len(items):
        raise _Conflict  # ids are unique in a game; a tuple that repeats one is no such list
    return found


# ---------------------------------------------------------------------------------------------
# A game started anew, taken back


def _another_game(base: Any, theirs: Any) -> bool:
    """Whether `theirs` is another game than `base`, not `base` changed: a new game or night, a
    Black Lady game of other players, the example made way (its ids match the new game's by
    chance: a card put in one pile of the new game would land in the old game's), not the
    example changed (`_example_changed`)."""
    if isinstance(base, nt.Night) and isinstance(theirs, nt.Night):
        return night_started_anew(base, theirs)
    if isinstance(base, lt.LadyGame) and isinstance(theirs, lt.LadyGame):
        return lady_started_anew(base, theirs)
    if isinstance(base, ts.Table) and isinstance(theirs, ts.Table):
        return base.example != theirs.example and not _example_changed(base, theirs)
    return False


def _example_changed(first: ts.Table, second: ts.Table) -> bool:
    """Whether one table is the example and the other the example changed (a card corrected, a
    player renamed), not a new game in its place: a pile of the example's cards lies in it as it
    was (a new game's piles start empty)."""
    example, other = (first, second) if first.example else (second, first)
    piles = {pile for player in example.players for pile in player.piles if pile.slots}
    return any(pile in piles for player in other.players for pile in player.piles)


def _back_to_another_game(base: Any, ours: Any, theirs: Any) -> Any:
    """`theirs`, the game(s) before a new game (`base`), where the new game is as this phone
    left it, or where another phone only renamed its players since: the names go to the games
    taken back, as a rename there would have given them. Anything else put in the new game
    would go with it: _Conflict."""
    if ours == base:
        return theirs
    renames = _renames(base, ours)
    try:
        if renames and _renamed(base, renames) == ours:
            return _renamed(theirs, renames)
    except ts.TableError:  # a name the old game has for another player
        pass
    raise _Conflict


Renames = tuple[tuple[str, str], ...]  # (old name, new name), one pair per player renamed


def _renames(base: Any, ours: Any) -> Renames:
    """The players of the new game `base` another phone renamed in `ours`: the players of the
    game on screen, matched by id (Black Cat), or by seat (Black Lady)."""
    if isinstance(base, nt.Night) and isinstance(ours, nt.Night):
        was, now = base.table.players, ours.table.players
        if [player.id for player in was] != [player.id for player in now]:
            return ()
        pairs = zip([p.name for p in was], [p.name for p in now], strict=True)
    elif isinstance(base, lt.LadyGame) and isinstance(ours, lt.LadyGame):
        if len(base.names) != len(ours.names):
            return ()
        pairs = zip(base.names, ours.names, strict=True)
    else:
        return ()
    return tuple((old, new) for old, new in pairs if old != new)


def _renamed(game: Any, renames: Renames) -> Any:
    """The night or Black Lady game with the player of each old name given the new one, in
    every game (deal) they played; _Conflict where no player has that name."""
    for old, new in renames:
        if isinstance(game, nt.Night):
            game = _night_renamed(game, old, new)
        else:
            game = _lady_renamed(game, old, new)
    return game


def _night_renamed(night: nt.Night, old: str, new: str) -> nt.Night:
    renamed = nt.renamed(night, old, new)
    if renamed.games == night.games:
        raise _Conflict  # no game of the night has the player
    return renamed


def _lady_renamed(game: lt.LadyGame, old: str, new: str) -> lt.LadyGame:
    seat = next((at for at, name in enumerate(game.names) if ts.same_name(name, old)), None)
    if seat is None:
        raise _Conflict
    return lt.rename(game, seat, new)


# ---------------------------------------------------------------------------------------------
# A pile's cards


@dataclass(frozen=True)
class _Marked:
    """A card of a pile, with whether a gap mark lies before it: a mark goes with its card as
    cards go in or out before it."""

    gap_before: bool
    slot: ts.Slot


def _marked(pile: ts.Pile) -> tuple[tuple[_Marked, ...], bool]:
    """The pile's cards, each with its gap mark, and whether a mark lies after the last."""
    marks = set(pile.gaps)
    return (
        tuple(_Marked(at in marks, slot) for at, slot in enumerate(pile.slots)),
        len(pile.slots) in marks,
    )


def _merge_tricks(base: ts.Pile, ours: ts.Pile, theirs: ts.Pile) -> ts.Pile:
    """A player's tricks in a Black Lady deal: a set of cards, whatever their order (scores,
    checks), so cards put in at one place on both sides both go in."""
    if theirs == base or ours == theirs:
        return ours
    if ours == base:
        return theirs
    return _merge_piles(base, ours, theirs, unordered=True)


def _merge_piles(
    base: ts.Pile, ours: ts.Pile, theirs: ts.Pile, *, unordered: bool = False
) -> ts.Pile:
    (base_cards, base_end), (our_cards, our_end), (their_cards, their_end) = (
        _marked(pile) for pile in (base, ours, theirs)
    )
    merged = _merge_runs(base_cards, our_cards, their_cards, unordered=unordered)
    end = merge(base_end, our_end, their_end)
    slots = tuple(marked.slot for marked in merged)
    gaps = (
        *(at for at, marked in enumerate(merged) if marked.gap_before),
        *((len(slots),) if end else ()),
    )
    if (slots, gaps) == (ours.slots, ours.gaps):
        return ours
    return dataclasses.replace(ours, slots=slots, gaps=gaps)


_GONE = object()  # an item taken out


@dataclass(frozen=True)
class _Edits:
    """A run of items as another run (`base`) changed: each of `base`'s items as it is now
    (`_GONE`: taken out), and the items put in before each of them (the last: after them all)."""

    items: tuple[Any, ...]
    put_in: tuple[tuple[Any, ...], ...]


def _merge_runs(base: tuple, ours: tuple, theirs: tuple, *, unordered: bool = False) -> tuple:
    """Items in a row without ids (a pile's cards), matched by the fewest items put in, taken
    out or changed in place (`_edits`): each side's change of an item, and what it put in
    between two items, made on the other's; _Conflict where both changed, or took out and
    changed, or moved, the same item, or put in different items at the same place (`unordered`:
    both go in, where the order doesn't count)."""
    mine, other = _edits(base, ours), _edits(base, theirs)
    put_in = [item for run in (*mine.put_in, *other.put_in) for item in run]
    merged: list[Any] = []
    for at in range(len(base) + 1):
        merged.extend(_put_in(mine.put_in[at], other.put_in[at], unordered=unordered))
        if at < len(base):
            both_out = mine.items[at] is _GONE and other.items[at] is _GONE
            if both_out and any(_same(base[at], again) for again in put_in):
                raise _Conflict  # taken out on one side, moved (out, and in elsewhere) on the other
            item = _item(base[at], mine.items[at], other.items[at])
            if item is not _GONE:
                merged.append(item)
    return tuple(merged)


def _put_in(mine: tuple, other: tuple, *, unordered: bool = False) -> tuple:
    if not other or mine == other:
        return mine
    if not mine:
        return other
    if not unordered:
        raise _Conflict  # both put items in at one place: in which order?
    extra = list(other)
    for item in mine:  # put in on both sides: in once, as `_counts_merged` counts it
        if item in extra:
            extra.remove(item)
    return (*extra, *mine)


def _item(base: Any, mine: Any, other: Any, merge_one: Merge = merge) -> Any:
    if mine is _GONE or other is _GONE:
        if all(
            side is _GONE or side == base or _renamed_deal(base, side) for side in (mine, other)
        ):
            return _GONE
        raise _Conflict  # taken out on one side, changed on the other
    return merge_one(base, mine, other)


def _edits(base: tuple, run: tuple) -> _Edits:
    """`run` as `base` changed by the fewest items put in, taken out or changed in place; where
    an item changed in place costs as much as one taken out and another put in (an item moved
    past another), it is taken out and put in: a card moved is not the card it passed."""
    start = 0
    while start < min(len(base), len(run)) and _same(base[start], run[start]):
        start += 1
    end = 0
    while end < min(len(base), len(run)) - start and _same(base[-1 - end], run[-1 - end]):
        end += 1
    old, new = base[start : len(base) - end], run[start : len(run) - end]
    # cost[i][j]: the fewest edits that make new[j:] of old[i:]
    cost = [[0] * (len(new) + 1) for _ in range(len(old) + 1)]
    for i in range(len(old), -1, -1):
        for j in range(len(new), -1, -1):
            if i == len(old) or j == len(new):
                cost[i][j] = len(old) - i + len(new) - j
            else:
                cost[i][j] = min(
                    cost[i + 1][j + 1] + (not _same(old[i], new[j])),
                    cost[i + 1][j] + 1,
                    cost[i][j + 1] + 1,
                )
    items: list[Any] = list(base[:start])
    put_in: list[list[Any]] = [[] for _ in range(len(base) + 1)]
    i = j = 0
    while i < len(old) or j < len(new):
        kept = i < len(old) and j < len(new) and _same(old[i], new[j])
        if kept and cost[i][j] == cost[i + 1][j + 1]:
            items.append(new[j])
            i, j = i + 1, j + 1
        elif i < len(old) and cost[i][j] == cost[i + 1][j] + 1:
            items.append(_GONE)
            i += 1
        elif j < len(new) and cost[i][j] == cost[i][j + 1] + 1:
            put_in[start + i].append(new[j])
            j += 1
        else:  # changed in place: nothing cheaper
            items.append(new[j])
            i, j = i + 1, j + 1
    items.extend(run[len(run) - end :])
    return _Edits(tuple(items), tuple(tuple(run_in) for run_in in put_in))


def _same(first: Any, second: Any) -> bool:
    return first is second or first == second
