"""A game of Black Lady as the app edits it: the players, and deal after deal each player's tricks
with what the photo reader said about every card; the score sheet and each deal's checks.

Each deal is a `black_cat_table.Table` with one player per seat and one pile per player (their
tricks, an unordered set), so the card corrections of Black Cat (`black_cat_table.replace_card`,
`confirm_card`, `delete_card`, `insert_card`, `set_cards`, `remove_photo`) apply to it as they
are. Pure functions on frozen dataclasses, like `black_cat_table`: the app keeps one `LadyGame` and
replaces it on every change (undo is a list of earlier games). Scoring is
`blackcat.games.black_lady`.

A player's tricks in a deal are either cards, or "took no trick" (marked by the person: an empty
photo is more often a missed photo than a player without tricks), or not in yet.
"""

from __future__ import annotations

import contextlib
import gettext
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from blackcat.games.black_lady import (
    DEFAULT_RULES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    GameScore,
    Problem,
    Rules,
    check_deal,
    score_game,
    score_player,
)
from blackcat.games.cards import Card
from blackcat.i18n import ENGLISH, N_, Translator, and_list
from blackcat.tables import black_cat_table as ts
from blackcat.tables import on_screen
from blackcat.tables.black_cat_table import player_name
from blackcat.tables.spreadsheet import Cell, csv_text
from blackcat.vision.types import ReadCard

DEFAULT_NAMES = ("Player 1", "Player 2", "Player 3")
ID_BLOCK = 100_000
FIXED_PLAYERS = N_(
    "the players are fixed once a deal has cards (the cards in play depend on how many play): "
    "start a new game to change them"
)
ALL_PLAYERS = N_("Black Lady is for {least} to {most} players")


class _Marker:
    """Gives back the English text it is handed: marks it for extraction where it is kept to be
    translated later (`TYPED_WORDS`; a singular and plural pair for `ts.TableError`)."""

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, count: int) -> tuple[str, str]:
        return singular, plural


_M = _Marker()


@dataclass(frozen=True)
class Deal:
    table: ts.Table  # one player per seat, each with one pile: the tricks they took
    no_tricks: frozenset[int] = frozenset()  # ids of the players marked "took no trick"

    def tricks(self, seat: int) -> ts.Pile:
        return self.table.players[seat].piles[0]

    def cards(self, seat: int) -> tuple[Card, ...] | None:
        """The seat's cards; () when marked "took no trick"; None when not in yet."""
        player = self.table.players[seat]
        cards = player.piles[0].cards
        if cards or player.id in self.no_tricks:
            return cards
        return None

    @property
    def all_cards(self) -> tuple[tuple[Card, ...] | None, ...]:
        return tuple(self.cards(seat) for seat in range(len(self.table.players)))

    @property
    def empty(self) -> bool:
        return all(cards is None for cards in self.all_cards)

    @property
    def serial(self) -> int:
        """Which deal of its game this is, wherever it lies on the sheet: its ids' block, given
        to no other deal of the game (`empty_deal`)."""
        return self.table.players[0].id // ID_BLOCK


@dataclass(frozen=True)
class LadyGame:
    names: tuple[str, ...]
    deals: tuple[Deal, ...]
    rules: Rules = field(default_factory=lambda: DEFAULT_RULES)
    current: int = 0  # the deal on screen
    serial: int = 1  # deals made so far: deal k's ids start at k * ID_BLOCK
    deals_to_play: int | None = None  # the game is over after so many deals; None: played on
    # the seats of the players the app named ("Player 2"), never a person: each phone says them
    # in its own language (`named_in`)
    unnamed: frozenset[int] = frozenset()

    @property
    def deal(self) -> Deal:
        return self.deals[self.current]

    @property
    def has_cards(self) -> bool:
        return any(not deal.empty for deal in self.deals)


# ---------------------------------------------------------------------------------------------
# Building games


def trick_number(position: int) -> str:
    """A card of a player's tricks as people number it: 1, 2, ... (tricks have no rows)."""
    return str(position + 1)


def empty_deal(names: Sequence[str], serial: int = 1) -> Deal:
    """A deal with nobody's tricks in yet. Its ids (players, piles) start at serial * ID_BLOCK,
    so that no two deals, and no Black Cat pile, share a pile id (the app's widget keys)."""
    base, count = serial * ID_BLOCK, len(names)
    players = tuple(
        ts.Player(base + seat + 1, name, (ts.Pile(base + count + seat + 1),))
        for seat, name in enumerate(names)
    )
    return Deal(ts.Table(players=players, next_id=base + 2 * count + 1))


def new_game(
    names: Sequence[str] = DEFAULT_NAMES,
    rules: Rules = DEFAULT_RULES,
    serial: int = 1,
    unnamed: Collection[int] = (),
) -> LadyGame:
    """A game of the given players, its first deal empty (its ids from `serial`); the players in
    the seats `unnamed` have the app's names (`LadyGame.unnamed`)."""
    names = tuple(names)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise ts.TableError(ALL_PLAYERS, least=MIN_PLAYERS, most=MAX_PLAYERS)
    table = empty_deal(names, serial).table
    for player, name in zip(table.players, names, strict=True):
        table = ts.rename_player(table, player.id, name)  # the same rules for names as Black Cat
    seats = frozenset(seat for seat in unnamed if 0 <= seat < len(names))
    names = tuple(p.name for p in table.players)
    return LadyGame(names, (Deal(table),), rules, serial=serial, unnamed=seats)


def restart(game: LadyGame) -> LadyGame:
    """The same players, rules and number of deals to play, no deals played."""
    fresh = new_game(game.names, game.rules, game.serial + 1, game.unnamed)
    return replace(fresh, deals_to_play=game.deals_to_play)


MAX_DEALS = 50  # deals a game may be set to last ("usually five to ten", the seed says)


def set_deals_to_play(game: LadyGame, count: int | None) -> LadyGame:
    """The game over after `count` deals (None: played on until the players stop); never fewer
    than the deals already on the sheet."""
    if count is not None:
        if isinstance(count, bool) or not 1 <= count <= MAX_DEALS:
            raise ts.TableError(N_("a game of 1 to {most} deals"), most=MAX_DEALS)
        if count < len(game.deals):
            raise ts.TableError(
                N_("{count} deals are on the sheet already: a game of at least {count}"),
                count=len(game.deals),
            )
    return replace(game, deals_to_play=count)


def at_last_deal(game: LadyGame) -> bool:
    """Whether the sheet holds the game's set number of deals: no deal after it."""
    return game.deals_to_play is not None and len(game.deals) >= game.deals_to_play


def over(game: LadyGame) -> bool:
    """Whether the game is over: its set number of deals played, every player's tricks in."""
    return at_last_deal(game) and all(None not in deal.all_cards for deal in game.deals)


def set_rules(game: LadyGame, rules: Rules) -> LadyGame:
    return replace(game, rules=rules)


# ---------------------------------------------------------------------------------------------
# Players


def rename(game: LadyGame, seat: int, name: str) -> LadyGame:
    """The player in `seat` renamed by a person in every deal (TableError for an empty or taken
    name, or a seat no longer in the game): a name of the app's changed is theirs from now on
    (`LadyGame.unnamed`)."""
    if not 0 <= seat < len(game.names):  # a page's field of a seat another phone took away
        raise ts.TableError(ts.NOT_AT_THE_TABLE)
    renamed = _named(game, seat, name)
    if renamed.names[seat] == game.names[seat]:
        return renamed
    return replace(renamed, unnamed=renamed.unnamed - {seat})


def _named(game: LadyGame, seat: int, name: str) -> LadyGame:
    deals = tuple(
        replace(deal, table=ts.rename_player(deal.table, deal.table.players[seat].id, name))
        for deal in game.deals
    )
    return replace(game, names=tuple(p.name for p in deals[0].table.players), deals=deals)


def named_in(game: LadyGame, tr: Translator) -> LadyGame:
    """The players the app named ("Player 2", "Left": `LadyGame.unnamed`) named in `tr`'s
    language in every deal, for a phone in that language, cards in or not (the same game where
    nothing changes); a name a person gave stays as given, and so does one whose number another
    player took in that language (a player named "Jugador 3" by hand)."""
    for seat in sorted(game.unnamed):
        if said := ts.app_name_in(game.names[seat], tr):
            with contextlib.suppress(ts.TableError):
                game = _named(game, seat, said)
    return game


def default_names(tr: Translator = ENGLISH) -> tuple[str, ...]:
    """The players of the game the page opens with, in `tr`'s language (`DEFAULT_NAMES`)."""
    return tuple(player_name(number, tr) for number in range(1, len(DEFAULT_NAMES) + 1))


def opening_game(
    others: Sequence[str], tr: Translator = ENGLISH, others_unnamed: Collection[int] = ()
) -> LadyGame:
    """The game Black Lady opens with, of `opening_names`: the app's names those it gave, and
    those of `others` at the places `others_unnamed` (the Black Cat players the app named)."""
    names = opening_names(others, tr, others_unnamed)
    if names == default_names(tr):
        return new_game(names, unnamed=range(len(names)))
    given = set(others_unnamed) | set(range(min(len(others), MAX_PLAYERS), len(names)))
    return new_game(names, unnamed=given)


def opening_names(
    others: Sequence[str], tr: Translator = ENGLISH, others_unnamed: Collection[int] = ()
) -> tuple[str, ...]:
    """The players Black Lady opens with: `others` (the night's Black Cat players: the same
    people play both) where a person named any of them (they are not all in `others_unnamed`,
    the places the app named), at most MAX_PLAYERS, with free "Player N" names up to
    MIN_PLAYERS; else `default_names` (they were typed again: helper-63)."""
    if set(range(len(others))) <= set(others_unnamed):
        return default_names(tr)
    names = list(others[:MAX_PLAYERS])
    while len(names) < MIN_PLAYERS:
        names.append(_free_name(names, tr))
    return tuple(names)


def _free_name(names: Sequence[str], tr: Translator = ENGLISH) -> str:
    taken = {name.casefold() for name in names}
    number = len(names) + 1
    while player_name(number, tr).casefold() in taken:
        number += 1
    return player_name(number, tr)


def add_player(game: LadyGame) -> LadyGame:
    if game.has_cards:
        raise ts.TableError(FIXED_PLAYERS)
    if len(game.names) >= MAX_PLAYERS:
        raise ts.TableError(N_("Black Lady is for at most {most} players"), most=MAX_PLAYERS)
    names = (*game.names, _free_name(game.names))
    return new_game(names, game.rules, game.serial + 1, {*game.unnamed, len(game.names)})


def remove_player(game: LadyGame, seat: int) -> LadyGame:
    if game.has_cards:
        raise ts.TableError(FIXED_PLAYERS)
    if len(game.names) <= MIN_PLAYERS:
        raise ts.TableError(N_("Black Lady needs at least {least} players"), least=MIN_PLAYERS)
    names = game.names[:seat] + game.names[seat + 1 :]
    unnamed = {at - (at > seat) for at in game.unnamed if at != seat}
    return new_game(names, game.rules, game.serial + 1, unnamed)


def with_players(game: LadyGame, count: int, tr: Translator = ENGLISH) -> LadyGame:
    """A game of `count` players (before any deal has cards): the names so far are kept,
    new seats get free names (in `tr`'s language)."""
    if count == len(game.names):
        return game
    if game.has_cards:
        raise ts.TableError(FIXED_PLAYERS)
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise ts.TableError(ALL_PLAYERS, least=MIN_PLAYERS, most=MAX_PLAYERS)
    names = list(game.names[:count])
    unnamed = {seat for seat in game.unnamed if seat < count} | set(range(len(names), count))
    while len(names) < count:
        names.append(_free_name(names, tr))
    fresh = new_game(names, game.rules, game.serial + 1, unnamed)
    return replace(fresh, deals_to_play=game.deals_to_play)


def untouched(game: LadyGame, tr: Translator = ENGLISH) -> bool:
    """The game the page opens with: default players (in English or `tr`'s language) and rules,
    no set number of deals, one deal, nothing in it."""
    deal = game.deals[0]
    return (
        game.names in (DEFAULT_NAMES, default_names(tr))
        and game.rules == DEFAULT_RULES
        and game.deals_to_play is None
        and len(game.deals) == 1
        and deal.empty
        and not deal.no_tricks
    )


# ---------------------------------------------------------------------------------------------
# Deals


def next_deal(game: LadyGame) -> LadyGame:
    """A new empty deal after the last, on screen."""
    if game.deals[-1].empty:
        raise ts.TableError(N_("deal {number} has no tricks in yet"), number=len(game.deals))
    if at_last_deal(game):
        raise ts.TableError(
            _M.ngettext(
                "the game is over after {count} deal: play on by setting more in its rules",
                "the game is over after {count} deals: play on by setting more in its rules",
                0,
            ),
            count=game.deals_to_play,
        )
    serial = game.serial + 1
    deals = (*game.deals, empty_deal(game.names, serial))
    return replace(game, deals=deals, current=len(deals) - 1, serial=serial)


def moved_on(arrived: LadyGame, shown: LadyGame) -> bool:
    """Whether another phone's game takes this phone to another deal (`on_screen.moved_on`)."""
    return on_screen.moved_on(arrived, shown, lambda sheet: sheet.deals)


def seen_from(arrived: LadyGame, shown: LadyGame) -> LadyGame:
    """A shared game as another phone left it, on this phone's deal on screen
    (`on_screen.seen_from`)."""
    return on_screen.seen_from(arrived, shown, lambda sheet: sheet.deals)


def choose_deal(game: LadyGame, index: int) -> LadyGame:
    if not 0 <= index < len(game.deals):
        raise ts.TableError(N_("that deal is no longer on the sheet"))
    return replace(game, current=index)


def remove_deal(game: LadyGame, index: int) -> LadyGame:
    """A deal taken off the sheet (the only deal is emptied instead)."""
    if not 0 <= index < len(game.deals):
        raise ts.TableError(N_("that deal is no longer on the sheet"))
    serial = game.serial + 1
    deals = game.deals[:index] + game.deals[index + 1 :] or (empty_deal(game.names, serial),)
    current = game.current - 1 if index < game.current else min(game.current, len(deals) - 1)
    return replace(game, deals=deals, current=current, serial=serial)


def _with_deal(game: LadyGame, deal: Deal, index: int | None = None) -> LadyGame:
    """`deal` in place of the deal on screen (or of deal `index`)."""
    # a player with cards has taken tricks, whatever was marked before
    with_cards = {p.id for p in deal.table.players if p.piles[0].slots}
    deal = replace(deal, no_tricks=deal.no_tricks - with_cards)
    deals = list(game.deals)
    deals[game.current if index is None else index] = deal
    return replace(game, deals=tuple(deals))


def on_deal(game: LadyGame, operation: Callable[..., ts.Table], *args: Any) -> LadyGame:
    """A `black_cat_table` operation (a card correction) applied to the deal on screen."""
    return _with_deal(game, replace(game.deal, table=operation(game.deal.table, *args)))


def set_tricks(game: LadyGame, seat: int, cards: Sequence[Card]) -> LadyGame:
    """The seat's cards as typed (what is known of the cards that stay is kept)."""
    return on_deal(game, ts.set_cards, game.deal.tricks(seat).id, cards)


def deal_holding(game: LadyGame, pile_id: int) -> int | None:
    """The index of the deal with a pile of this id (each deal's ids are its own: `empty_deal`);
    None where none has it."""
    for index, deal in enumerate(game.deals):
        if any(pile.id == pile_id for player in deal.table.players for pile in player.piles):
            return index
    return None


def set_tricks_of(game: LadyGame, pile_id: int, cards: Sequence[Card]) -> LadyGame:
    """A player's tricks as typed in their pile `pile_id`, in the deal that holds it, the deal
    they were typed in: another phone's next deal may have come on screen since (typed by seat,
    they went into that deal). On the deal on screen where no deal holds it (TableError)."""
    index = deal_holding(game, pile_id)
    if index is None:
        return on_deal(game, ts.set_cards, pile_id, cards)
    deal = game.deals[index]
    return _with_deal(game, replace(deal, table=ts.set_cards(deal.table, pile_id, cards)), index)


def tricks_of(game: LadyGame, pile_id: int) -> tuple[Card, ...] | None:
    """The cards of the pile `pile_id` in whichever deal holds it; None where none does."""
    index = deal_holding(game, pile_id)
    return None if index is None else game.deals[index].table.pile(pile_id).cards


def mark_no_tricks(game: LadyGame, seat: int, took_none: bool) -> LadyGame:
    """Mark (or unmark) the player in `seat` as having taken no trick in the deal on screen."""
    deal = game.deal
    player = deal.table.players[seat]
    if took_none and player.piles[0].slots:
        raise ts.TableError(
            N_("{name}'s tricks hold cards: take them off first to say {name} took no trick"),
            name=player.name,
        )
    marked = deal.no_tricks | {player.id} if took_none else deal.no_tricks - {player.id}
    return _with_deal(game, replace(deal, no_tricks=marked))


def move_to_seat(game: LadyGame, seat: int, position: int, target: int) -> LadyGame:
    """The card at `position` of the seat's tricks moved to another player's tricks (with what
    the reader said about it): the photo held two players' tricks, or a card went astray."""
    table = game.deal.table
    if target == seat or not 0 <= target < len(table.players):
        raise ts.TableError(N_("a card can only move to another player's tricks"))
    source = table.players[seat].piles[0]
    if not 0 <= position < len(source.slots):
        raise ts.TableError(N_("that card is no longer in the tricks"))
    slot = source.slots[position]
    goal = table.players[target].piles[0]
    table = _with_slots(table, source.id, source.slots[:position] + source.slots[position + 1 :])
    table = _with_slots(table, goal.id, (*goal.slots, slot))
    return _with_deal(game, replace(game.deal, table=table))


def confirm_all(game: LadyGame, seat: int) -> LadyGame:
    """Every doubtful card of the seat's tricks confirmed as read."""
    pile = game.deal.tricks(seat)
    for position, slot in enumerate(pile.slots):
        if slot.doubtful:
            game = on_deal(game, ts.confirm_card, pile.id, position)
    return game


def add_photo(
    game: LadyGame, seat: int, photo: str, rows: Sequence[Sequence[ReadCard]]
) -> LadyGame:
    """Every card read in a photo added to the seat's tricks (its rows don't matter)."""
    reads = [read for row in rows for read in row]
    table = game.deal.table
    owner = ts.photo_owner(table, photo)
    if owner is not None:
        raise ts.TableError(
            N_("this photo is already in this deal ({owner}'s tricks)"), owner=owner
        )
    player = table.players[seat]
    table = ts.place_photo(table, player.id, photo, [reads])
    piles = table.player(player.id).piles
    if len(piles) > 1:  # the player had cards already: one set of tricks all the same
        table = ts.join_with_next(table, piles[0].id)
    return _with_deal(game, replace(game.deal, table=table))


# ---------------------------------------------------------------------------------------------
# Scores and checks


def deal_points(game: LadyGame, index: int) -> tuple[int | None, ...]:
    """Each seat's points in a deal; None for a player whose tricks aren't in yet."""
    return tuple(
        None if cards is None else score_player(cards, game.rules).points
        for cards in game.deals[index].all_cards
    )


def sheet(game: LadyGame) -> GameScore:
    """The score sheet: every deal's points, running totals, who leads."""
    return score_game(game.names, [deal_points(game, index) for index in range(len(game.deals))])


TYPED_WORDS: dict[str | tuple[str, str], str | tuple[str, str]] = {
    "look at {player}'s photo": _M.gettext("look at {player}'s cards"),
    "look at the photos of {players}": _M.gettext("look at the cards of {players}"),
    "{card} is in the tricks of {players}: one deck has one; look at their photos": _M.gettext(
        "{card} is in the tricks of {players}: one deck has one; look at their cards"
    ),
    (
        "{card} is in {player}'s tricks {count} time: one deck has one; look at {player}'s photo",
        "{card} is in {player}'s tricks {count} times: one deck has one; look at {player}'s photo",
    ): _M.ngettext(
        "{card} is in {player}'s tricks {count} time: one deck has one; look at {player}'s cards",
        "{card} is in {player}'s tricks {count} times: one deck has one; look at {player}'s cards",
        0,
    ),
    (
        "{cards} is set aside with {players} players but is in {player}'s tricks: "
        "look at {player}'s photo",
        "{cards} are set aside with {players} players but are in {player}'s tricks: "
        "look at {player}'s photo",
    ): _M.ngettext(
        "{cards} is set aside with {players} players but is in {player}'s tricks: "
        "look at {player}'s cards",
        "{cards} are set aside with {players} players but are in {player}'s tricks: "
        "look at {player}'s cards",
        0,
    ),
    (
        "{player} has {count} card, not a whole trick of {players} cards: look at {player}'s photo",
        "{player} has {count} cards, not a whole trick of {players} cards: "
        "look at {player}'s photo",
    ): _M.ngettext(
        "{player} has {count} card, not a whole trick of {players} cards: look at {player}'s cards",
        "{player} has {count} cards, not a whole trick of {players} cards: "
        "look at {player}'s cards",
        0,
    ),
    (
        "{player} has {count} card, not a whole number of tricks of {players} cards "
        "({below} is {below_cards}, {above} {above_cards}): look at {player}'s photo",
        "{player} has {count} cards, not a whole number of tricks of {players} cards "
        "({below} is {below_cards}, {above} {above_cards}): look at {player}'s photo",
    ): _M.ngettext(
        "{player} has {count} card, not a whole number of tricks of {players} cards "
        "({below} is {below_cards}, {above} {above_cards}): look at {player}'s cards",
        "{player} has {count} cards, not a whole number of tricks of {players} cards "
        "({below} is {below_cards}, {above} {above_cards}): look at {player}'s cards",
        0,
    ),
}
"""Each check message that says "photo", and its variant for tricks typed in ("cards")."""


class _TypedCatalogue(gettext.NullTranslations):
    """A catalogue that translates the typed variant of each message that says "photo"."""

    def __init__(self, catalogue: gettext.NullTranslations) -> None:
        super().__init__()
        self.catalogue = catalogue

    def gettext(self, message: str) -> str:
        typed = TYPED_WORDS.get(message, message)
        return self.catalogue.gettext(typed if isinstance(typed, str) else message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        typed = TYPED_WORDS.get((msgid1, msgid2))
        if isinstance(typed, tuple):
            msgid1, msgid2 = typed
        return self.catalogue.ngettext(msgid1, msgid2, n)

    def pgettext(self, context: str, message: str) -> str:
        return self.catalogue.pgettext(context, message)


def typed_words(tr: Translator = ENGLISH) -> Translator:
    """`tr`, but the checks' messages say "cards" where they say "photo": for typed tricks."""
    return Translator(tr.language, _TypedCatalogue(tr.catalogue))


def problems(game: LadyGame, index: int, tr: Translator = ENGLISH) -> tuple[Problem, ...]:
    """The checks of a deal that fail, naming the players by name, in `tr`'s language; they say
    "photo" only where every player they name has tricks from a photo, else "cards" (typed
    tricks, or some typed and some photographed)."""
    deal = game.deals[index]
    from_photos = {player.name for player in deal.table.players if ts.photos_of(player)}
    found = check_deal(deal.all_cards, game.names, tr)
    typed = check_deal(deal.all_cards, game.names, typed_words(tr))
    return tuple(
        problem if set(problem.players) <= from_photos else typed_problem
        for problem, typed_problem in zip(found, typed, strict=True)
    )


def totals_caveat(game: LadyGame, tr: Translator = ENGLISH) -> str:
    """What the totals count that may be wrong: the deals that fail their checks."""
    failing = [index + 1 for index in range(len(game.deals)) if problems(game, index)]
    if not failing:
        return ""
    said = tr.ngettext(
        "counts deal {deals}, which fails its checks",
        "counts deals {deals}, which fail their checks",
        len(failing),
    )
    return said.format(deals=and_list([str(number) for number in failing], tr))


def checks_text(game: LadyGame, index: int, tr: Translator = ENGLISH) -> str:
    """How a deal's checks stand, in words of `tr`'s language: `passes`, `fails: <each
    problem>`, or whose tricks it waits for."""
    found = problems(game, index, tr)
    if found:
        said = "; ".join(problem.message for problem in found)
        return tr.gettext("fails: {problems}").format(problems=said)
    waiting = waiting_for(game, index)
    if waiting:
        return tr.gettext("waiting for {names}").format(names=and_list(waiting, tr))
    return tr.gettext("passes")


def waiting_for(game: LadyGame, index: int) -> tuple[str, ...]:
    """The players whose tricks aren't in yet."""
    cards = game.deals[index].all_cards
    return tuple(name for name, held in zip(game.names, cards, strict=True) if held is None)


# ---------------------------------------------------------------------------------------------
# A game brought back (from a link)


def restore(
    names: Sequence[str],
    rules: Rules,
    deals: Sequence[Sequence[tuple[ts.Slot, ...] | None]],
    current: int = 0,
    deals_to_play: int | None = None,
    unnamed: Collection[int] = (),
) -> LadyGame:
    """A game of these players and deals: `deals[d][seat]` is the seat's tricks, None for a
    player marked "took no trick" (TableError for a wrong number of players or seats, or of
    deals to play); the players in the seats `unnamed` have the app's names."""
    game = new_game(names, rules, unnamed=unnamed)
    built = []
    for index, seats in enumerate(deals):
        if len(seats) != len(game.names):
            raise ts.TableError(
                N_("a deal has tricks for {found} players, not {expected}"),
                found=len(seats),
                expected=len(names),
            )
        deal = game.deals[0] if index == 0 else empty_deal(game.names, index + 1)
        table = deal.table
        none = set()
        for player, slots in zip(table.players, seats, strict=True):
            if slots is None:
                none.add(player.id)
            else:
                table = _with_slots(table, player.piles[0].id, slots)
        built.append(Deal(table, frozenset(none)))
    if built:
        current = current if 0 <= current < len(built) else 0
        game = replace(game, deals=tuple(built), current=current, serial=len(built))
    return set_deals_to_play(game, deals_to_play)


def _with_slots(table: ts.Table, pile_id: int, slots: tuple[ts.Slot, ...]) -> ts.Table:
    player_index, _ = table.locate(pile_id)
    player = table.players[player_index]
    piles = tuple(replace(p, slots=slots) if p.id == pile_id else p for p in player.piles)
    players = list(table.players)
    players[player_index] = replace(player, piles=piles)
    return replace(table, players=tuple(players))


def sheet_csv(game: LadyGame, tr: Translator = ENGLISH) -> str:
    """The score sheet as CSV, in `tr`'s language: a row a deal (each player's points, empty
    while not in, and how its checks stand), then the totals (marked while a deal fails its
    checks), and once the game is over and every deal passes its checks, who won it (1, as a
    night's CSV counts games won; 0 for the others)."""
    score = sheet(game)
    lines: list[list[Cell]] = [
        [tr.pgettext("a CSV column", "deal"), *score.names, tr.pgettext("a CSV column", "checks")]
    ]
    for index, deal in enumerate(score.deals):
        points = ("" if p is None else p for p in deal)
        lines.append([index + 1, *points, checks_text(game, index, tr)])
    caveat = totals_caveat(game, tr)
    lines.append([tr.pgettext("a CSV row", "total"), *score.totals, caveat])
    if over(game) and not caveat:
        won = (1 if name in score.winners else 0 for name in score.names)
        lines.append([tr.pgettext("a CSV row", "won"), *won, ""])
    return csv_text(lines)
