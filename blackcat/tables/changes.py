"""What an Undo did, in words: the page says it in a toast, since a tap on ↶ Undo otherwise
changes a card, a player or a game somewhere on a long page with nothing said.

Each function compares the game Undo went back to (`now`) with the one it left (`undone`) and
names the smallest difference it can: one card, one player, one game or deal; anything larger is
said per player. Pure functions of the frozen tables, games and nights.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from blackcat.games.cards import Card, card_number
from blackcat.i18n import ENGLISH, Translator, and_list
from blackcat.tables import black_cat_night as nt
from blackcat.tables import black_cat_table as ts
from blackcat.tables import black_lady_table as lt

CardNumbering = Callable[[int, int], str]
"""(pile index, position) -> the card's number as the page shows it (`1.3`, or `3` in tricks)."""


@dataclass(frozen=True)
class _Placed:
    """A card of a player, in which of their piles, and its number on the page."""

    pile: int
    card: Card
    number: str

    @property
    def where(self) -> tuple[int, Card]:
        return self.pile, self.card


def _placed(player: ts.Player, numbering: CardNumbering) -> list[_Placed]:
    return [
        _Placed(pile_index, slot.card, numbering(pile_index, position))
        for pile_index, pile in enumerate(player.piles)
        for position, slot in enumerate(pile.slots)
    ]


def _without(placed: Sequence[_Placed], index: int) -> list[tuple[int, Card]]:
    return [p.where for i, p in enumerate(placed) if i != index]


def _wheres(placed: Sequence[_Placed]) -> list[tuple[int, Card]]:
    return [p.where for p in placed]


@dataclass(frozen=True)
class _CardChange:
    """The one card that differs between a player's piles as they were and as they are."""

    kind: Literal["changed", "moved", "added", "removed"]
    place: _Placed  # where it is now (changed in its place, moved, added), or was (removed)


def _card_change(was: ts.Player, now: ts.Player, numbering: CardNumbering) -> _CardChange | None:
    """The one card a change of the player's piles touched: changed in its place, moved within
    their piles, added or removed; None when it was more than one card (or no card at all: a
    pin, a ✓, a gap marker)."""
    before, after = _placed(was, numbering), _placed(now, numbering)
    if _wheres(before) == _wheres(after):  # the same cards in the same piles: no card's change
        return None
    if len(before) == len(after):
        changed = [i for i, (b, a) in enumerate(zip(before, after, strict=True)) if b != a]
        if len(changed) == 1 and before[changed[0]].pile == after[changed[0]].pile:
            return _CardChange("changed", after[changed[0]])
        for i, place in enumerate(after):  # one card moved within the player's piles
            for j, old in enumerate(before):
                if (
                    old.card == place.card
                    and old.number != place.number
                    and _without(after, i) == _without(before, j)
                ):
                    return _CardChange("moved", place)
        return None
    if len(after) == len(before) + 1:
        for i, place in enumerate(after):
            if _without(after, i) == _wheres(before):
                return _CardChange("added", place)
    if len(before) == len(after) + 1:
        for j, place in enumerate(before):
            if _without(before, j) == _wheres(after):
                return _CardChange("removed", place)
    return None


def _card_line(
    now: ts.Player, undone: ts.Player, numbering: CardNumbering, tr: Translator
) -> str | None:
    """One card of one player brought back, put back or taken out again; None when the change
    was more than one card (or no card at all)."""
    change = _card_change(undone, now, numbering)
    if change is None:
        return None
    line = {
        "changed": tr.gettext("Card {number} of {name} is {card} again."),
        "moved": tr.gettext("{card} is back in its place: card {number} of {name}."),
        "added": tr.gettext("{card} is back: card {number} of {name}."),  # Undo took it out
        "removed": tr.gettext("{card} is taken out again (it was card {number} of {name})."),
    }[change.kind]
    place = change.place
    return line.format(card=place.card.label, number=place.number, name=now.name)


def _slot_line(
    now: ts.Player, undone: ts.Player, numbering: CardNumbering, tr: Translator
) -> str | None:
    """The same cards, one of them changed otherwise: a Queen's value pinned, a card checked
    (✓), or a mark of a missing card dismissed; None when it was more than one change, or
    another."""
    if [pile.cards for pile in now.piles] != [pile.cards for pile in undone.piles]:
        return None
    said: list[str | None] = []
    for pile_index, (back, left) in enumerate(zip(now.piles, undone.piles, strict=True)):
        if back.gaps != left.gaps:
            more = len(back.gaps) > len(left.gaps)
            line = tr.gettext(
                "The mark of a card that may be missing is back in pile {pile} of {name}."
            )
            said.append(line.format(pile=pile_index + 1, name=now.name) if more else None)
        for position, (was, gone) in enumerate(zip(back.slots, left.slots, strict=True)):
            if was == gone:
                continue
            if was.pin != gone.pin:
                line = tr.gettext("{card} (card {number} of {name}) counts as it did.")
            elif gone.checked and not was.checked:
                line = tr.gettext("{card} (card {number} of {name}) is to be checked again.")
            else:
                said.append(None)
                continue
            number = numbering(pile_index, position)
            said.append(line.format(card=was.card.label, number=number, name=now.name))
    return said[0] if len(said) == 1 else None


def _between_line(
    changed: Sequence[tuple[ts.Player, ts.Player]], numbering: CardNumbering, tr: Translator
) -> str | None:
    """One card moved from one player's piles (tricks) to another's, back where it was; None
    for any other change of the two players (`changed`: each as now and as undone)."""
    for (back_to, left_from), (taken_from, left_to) in (changed, changed[::-1]):
        back, left = _placed(back_to, numbering), _placed(left_from, numbering)
        lost, had = _wheres(_placed(taken_from, numbering)), _placed(left_to, numbering)
        if len(back) != len(left) + 1 or len(had) != len(lost) + 1:
            continue
        for i, place in enumerate(back):
            if _without(back, i) != _wheres(left):
                continue
            if any(
                was.card == place.card and _without(had, j) == lost for j, was in enumerate(had)
            ):
                line = tr.gettext("{card} is back: card {number} of {name}.")
                return line.format(card=place.card.label, number=place.number, name=back_to.name)
    return None


def _pile_line(now: ts.Player, undone: ts.Player, tr: Translator) -> str | None:
    """A pile split off, two piles joined, a pile added or removed, undone: the other piles
    as they were; None for any other change."""
    back = {pile.id for pile in now.piles}
    left = {pile.id for pile in undone.piles}
    if len(left) == len(back) + 1:  # a pile the change made is gone again
        (made,) = [index for index, pile in enumerate(undone.piles) if pile.id not in back]
        return _pile_gone(now, undone, made, tr)
    if len(back) == len(left) + 1:  # a pile the change took away is back
        (taken,) = [index for index, pile in enumerate(now.piles) if pile.id not in left]
        return _pile_gone(undone, now, taken, tr, undoing=False)
    return None


def _pile_gone(
    fewer: ts.Player, more: ts.Player, index: int, tr: Translator, *, undoing: bool = True
) -> str | None:
    """`more`'s pile at `index` is not in `fewer`: joined to the pile before it (a split undone,
    or, not `undoing`, a join undone), or left out (a new pile, or a removed one, undone); None
    when the other piles changed too."""
    ids = {pile.id for pile in fewer.piles}
    kept = [pile for pile in more.piles if pile.id in ids]
    joined = (
        index > 0
        and bool(more.piles[index].slots)
        and fewer.piles[index - 1].cards == (more.piles[index - 1].cards + more.piles[index].cards)
    )
    others_alike = [pile.cards for n, pile in enumerate(fewer.piles) if n != index - 1] == [
        pile.cards for n, pile in enumerate(kept) if n != index - 1
    ]
    if joined and others_alike:
        if undoing:
            line = tr.gettext("Pile {number} of {name} is one pile again.")
            return line.format(number=index, name=fewer.name)
        line = tr.gettext("Piles {first} and {second} of {name} are apart again.")
        return line.format(first=index, second=index + 1, name=more.name)
    if [pile.cards for pile in fewer.piles] == [pile.cards for pile in kept]:
        if undoing:
            line = tr.gettext("Pile {number} of {name} is gone again.")
            return line.format(number=index + 1, name=fewer.name)
        line = tr.gettext("Pile {number} of {name} is back.")
        return line.format(number=index + 1, name=more.name)
    return None


def _photo_keys(table: ts.Table) -> set[str]:
    return {
        slot.photo
        for player in table.players
        for pile in player.piles
        for slot in pile.slots
        if slot.photo is not None
    }


def table_undone(
    now: ts.Table,
    undone: ts.Table,
    tr: Translator = ENGLISH,
    numbering: CardNumbering = card_number,
    whose: Literal["piles", "tricks"] = "piles",
) -> str:
    """What Undo changed between two tables: a player back or gone, a name, the rules, a photo's
    cards taken off again, one card (changed, moved, within a player's piles or between two
    players), a pile split, joined, added or removed, or else whose piles (`whose="tricks"`:
    whose tricks) are as they were."""
    # the example made way for a new game: "Next game" or "New game" on it, or a photo of the
    # app's "Player 1" (whose Undo said "Player 1 is called Example again.", its cards gone)
    made_way = not nt.has_cards(undone) or all(player.unnamed for player in undone.players)
    if now.example and not undone.example and made_way:
        return tr.gettext("The example is back.")
    now_ids = [player.id for player in now.players]
    undone_ids = [player.id for player in undone.players]
    back = [player.name for player in now.players if player.id not in undone_ids]
    if back:
        return tr.ngettext(
            "{names} is back at the table.", "{names} are back at the table.", len(back)
        ).format(names=and_list(back, tr))
    gone = [player.name for player in undone.players if player.id not in now_ids]
    if gone:
        return tr.ngettext(
            "{names} is off the table again.", "{names} are off the table again.", len(gone)
        ).format(names=and_list(gone, tr))
    if now_ids != undone_ids:
        return tr.gettext("The players' order is as it was.")
    pairs = list(zip(now.players, undone.players, strict=True))
    renamed = [(b, u) for b, u in pairs if b.name != u.name]
    if renamed:
        named_back, named_undone = renamed[0]
        line = tr.gettext("{undone} is called {name} again.")
        return line.format(undone=named_undone.name, name=named_back.name)
    if now.variants != undone.variants:
        return tr.gettext("The rules are as they were.")
    changed = [(b, u) for b, u in pairs if b.piles != u.piles]
    names = and_list([b.name for b, _u in changed], tr)
    if changed and _photo_keys(undone) - _photo_keys(now):  # a photo's cards, taken off again
        if whose == "tricks":
            line = tr.gettext("The tricks of {names} are as they were before the photo.")
        else:
            line = tr.gettext("The piles of {names} are as they were before the photo.")
        return line.format(names=names)
    if changed and _photo_keys(now) - _photo_keys(undone):  # a photo's cards taken off, back
        if whose == "tricks":
            line = tr.gettext("The photo's cards are back in the tricks of {names}.")
        else:
            line = tr.gettext("The photo's cards are back in the piles of {names}.")
        return line.format(names=names)
    if len(changed) == 2 and (line := _between_line(changed, numbering, tr)):
        return line
    if len(changed) == 1:
        back, left = changed[0]
        piles_differ = [pile.id for pile in back.piles] != [pile.id for pile in left.piles]
        # a split, a join, a pile added or removed first: a one-card pile split off or joined
        # also reads as a card moved (helper-59)
        line = (_pile_line(back, left, tr) if piles_differ and whose == "piles" else None) or (
            _card_line(back, left, numbering, tr) or _slot_line(back, left, numbering, tr)
        )
        if line is not None:
            return line
    if changed:
        if whose == "tricks":
            return tr.gettext("The tricks of {names} are as they were.").format(names=names)
        return tr.gettext("The piles of {names} are as they were.").format(names=names)
    return tr.gettext("The last change is undone.")


def night_undone(now: nt.Night, undone: nt.Night, tr: Translator = ENGLISH) -> str:
    """What Undo changed between two nights: a game back on screen, the night's games back, or
    what changed in the game on screen."""
    if len(now.games) > len(undone.games):  # only "New night" leaves fewer games
        count = len(now.games)
        return tr.ngettext(
            "The night's {count} game is back.", "The night's {count} games are back.", count
        ).format(count=count)
    if now.current != undone.current or len(now.games) != len(undone.games):
        line = tr.gettext("Game {number} is back on screen.")
        return line.format(number=now.current + 1)
    if not now.table.example and nt.has_cards(now.table) and not nt.has_cards(undone.table):
        return tr.gettext("The game's cards are back.")  # "New game" of a one-game night, undone
    return table_undone(now.table, undone.table, tr)


def _in_tricks(_pile_index: int, position: int) -> str:
    return lt.trick_number(position)  # a player's tricks are one pile, numbered 1, 2, ...


def lady_undone(now: lt.LadyGame, undone: lt.LadyGame, tr: Translator = ENGLISH) -> str:
    """What Undo changed between two Black Lady games: a deal back (on the sheet or on screen),
    the players, the rules, a "no trick" mark, or what changed in the deal's tricks."""
    if len(now.names) != len(undone.names):  # a new game of more or fewer players, undone
        count = len(now.names)
        return tr.ngettext("Back to {count} player.", "Back to {count} players.", count).format(
            count=count
        )
    serials = [deal.serial for deal in now.deals]
    undone_serials = {deal.serial for deal in undone.deals}
    back = [index for index, serial in enumerate(serials) if serial not in undone_serials]
    if len(back) > 1:  # "New game" undone
        return tr.ngettext(
            "The game's {count} deal is back.", "The game's {count} deals are back.", len(back)
        ).format(count=len(back))
    if back:
        return tr.gettext("Deal {number} is back on the score sheet.").format(number=back[0] + 1)
    if len(now.deals) < len(undone.deals) or now.current != undone.current:
        return tr.gettext("Deal {number} is back on screen.").format(number=now.current + 1)
    if now.names != undone.names:
        renamed = [
            (name, was) for name, was in zip(now.names, undone.names, strict=True) if name != was
        ]
        if len(renamed) == 1:
            name, was = renamed[0]
            return tr.gettext("{undone} is called {name} again.").format(undone=was, name=name)
        return tr.gettext("The players are as they were.")
    if (now.rules, now.deals_to_play) != (undone.rules, undone.deals_to_play):
        return tr.gettext("The rules are as they were.")
    deal, left = now.deal, undone.deal
    if deal.no_tricks != left.no_tricks:
        changed = deal.no_tricks ^ left.no_tricks
        names = and_list([p.name for p in deal.table.players if p.id in changed], tr)
        return tr.gettext("The “no trick” mark of {names} is as it was.").format(names=names)
    return table_undone(deal.table, left.table, tr, _in_tricks, whose="tricks")


# ---------------------------------------------------------------------------------------------
# Another phone's change to a shared game, as it arrives


def _slots(player: ts.Player) -> list[ts.Slot]:
    return [slot for pile in player.piles for slot in pile.slots]


def _card_arrived(
    was: ts.Player, now: ts.Player, numbering: CardNumbering, tr: Translator
) -> str | None:
    """One card of one player another phone changed, moved, put in, took off or checked; None
    when the change was another, or more than one."""
    change = _card_change(was, now, numbering)
    if change is not None:
        line = {
            "changed": tr.gettext("Another phone made card {number} of {name} {card}."),
            "moved": tr.gettext("Another phone moved {card} to card {number} of {name}."),
            "added": tr.gettext("Another phone put {card} in as card {number} of {name}."),
            "removed": tr.gettext(
                "Another phone took {card} off (it was card {number} of {name})."
            ),
        }[change.kind]
        place = change.place
        return line.format(card=place.card.label, number=place.number, name=now.name)
    if [pile.cards for pile in was.piles] != [pile.cards for pile in now.piles]:
        return None
    checked = [
        place
        for place, old, new in zip(_placed(now, numbering), _slots(was), _slots(now), strict=True)
        if new.checked and not old.checked
    ]
    if len(checked) != 1:
        return None
    line = tr.gettext("Another phone checked {card} (card {number} of {name}).")
    return line.format(card=checked[0].card.label, number=checked[0].number, name=now.name)


def table_changed(
    before: ts.Table,
    after: ts.Table,
    tr: Translator = ENGLISH,
    whose: Literal["piles", "tricks"] = "piles",
    numbering: CardNumbering = card_number,
) -> str:
    """What another phone changed between two tables, in a few words: one card (changed, put
    in, taken off, checked), the players, the rules, or whose piles (`whose="tricks"`: whose
    tricks)."""
    if [(p.id, p.name) for p in before.players] != [(p.id, p.name) for p in after.players]:
        return tr.gettext("Another phone changed the players.")
    if before.variants != after.variants:
        return tr.gettext("Another phone changed the rules.")
    pairs = zip(before.players, after.players, strict=True)
    changed = [(was, now) for was, now in pairs if was.piles != now.piles]
    if len(changed) == 1 and (line := _card_arrived(*changed[0], numbering, tr)):
        return line
    names = [now.name for _was, now in changed]
    if not names:
        return tr.gettext("The game changed on another phone.")
    if whose == "tricks":
        line = tr.gettext("Another phone changed the tricks of {names}.")
    else:
        line = tr.gettext("Another phone changed the piles of {names}.")
    return line.format(names=and_list(names, tr))


def night_changed(before: nt.Night, after: nt.Night, tr: Translator = ENGLISH) -> str:
    """What another phone changed between two nights: the night's games (one added, one put on
    screen, a new night), or what changed in the game on screen."""
    if len(before.games) != len(after.games) or before.current != after.current:
        return tr.gettext(
            "Another phone changed the night's games: game {number} is on screen."
        ).format(number=after.current + 1)
    return table_changed(before.table, after.table, tr)


def lady_changed(before: lt.LadyGame, after: lt.LadyGame, tr: Translator = ENGLISH) -> str:
    """What another phone changed between two Black Lady games: the deals (one added, one put
    on screen, a new game), the players, the rules, or whose tricks in the deal on screen."""
    serials = [deal.serial for deal in before.deals]
    if serials != [deal.serial for deal in after.deals] or before.current != after.current:
        return tr.gettext("Another phone changed the deals: deal {number} is on screen.").format(
            number=after.current + 1
        )
    if before.names != after.names:
        return tr.gettext("Another phone changed the players.")
    if (before.rules, before.deals_to_play) != (after.rules, after.deals_to_play):
        return tr.gettext("Another phone changed the rules.")
    if before.deal.no_tricks != after.deal.no_tricks:
        names = [
            p.name
            for p in after.deal.table.players
            if p.id in before.deal.no_tricks ^ after.deal.no_tricks
        ]
        return tr.gettext("Another phone changed the tricks of {names}.").format(
            names=and_list(names, tr)
        )
    return table_changed(before.deal.table, after.deal.table, tr, "tricks", _in_tricks)


def night_started_anew(before: nt.Night, after: nt.Night) -> bool:
    """Whether another phone's change was "New game" (or "New night": `nt.restart`), whatever
    it put in since."""
    return before.started != after.started


def lady_started_anew(before: lt.LadyGame, after: lt.LadyGame) -> bool:
    """Whether another phone's change started a new Black Lady game: none of its deals is one
    of the game before (a new game's deals take new ids; a next deal, or a deal taken off, keeps
    the others)."""
    return not {deal.serial for deal in before.deals} & {deal.serial for deal in after.deals}
