"""A game's table as a short text for a link: what the app keeps in the page's address, so that a
reload, a reconnect or another phone opening the link finds the same game.

Black Cat's text holds the players, their piles, every card with its Queen pin and whether the
player checked it, the variants and whose piles are shown; Black Lady's holds the players, every
deal's tricks (and who took no trick), the rules and the deal on screen. For cards read from a
photo both name the read (photo key and place among the photo's reads): the photos themselves
stay on the server; a card whose photo the server no longer has (the app restarted, or let it go
for newer ones) keeps the photo's key and its place among the reads without the read itself
(`Slot.lost_read`), shows as a typed card, and is written into the link again as it came, so
that the same photo uploaded again is known for one already on the table and gives its cards
their reads back.

The text is short: JSON in which a pile is one string, a card one letter and its marks a few
characters (a card read right after the previous one of the same photo carries no mark), compressed
with raw deflate and written in URL-safe base64 after a version mark. Links of the first
format (zlib-compressed JSON with a card per string) are still read. Pure functions: the app
supplies how reads are found (`ReadIndex`, `ReadAt`).
Where the reader thinks a card may be missing (a pile's gaps) the Black Cat text also holds them,
under "x" and only when there are any: a link without it, as every older one, has none.
A night of several Black Cat games holds the game on screen as a table's text and the night's
other games, in the same compact form, under "n": a link without it (a single game, every older
link) opens as a night of one game. Who photographs the whole table (the player's place at the
table) is under "w" once someone said so.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import string
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from blackcat.games.black_cat import Variants
from blackcat.games.black_lady import Rules
from blackcat.games.cards import ALL_CARDS, QUEEN_VALUES, Card, CardParseError, parse_card
from blackcat.i18n import ENGLISH, N_, Translator
from blackcat.tables import black_lady_table as lt
from blackcat.tables.black_cat_night import Night, night_of
from blackcat.tables.black_cat_table import (
    Pile,
    Player,
    Slot,
    Table,
    TableError,
    new_table,
    unnamed_places,
)
from blackcat.vision.types import ReadCard

VERSION = 1  # the first format: zlib-compressed JSON, a card per string
COMPACT = "2"  # what starts a link text of the compact format
MAX_TEXT = 20_000  # characters of a link's table; a real table takes a few hundred
GAPS = "x"  # a Black Cat link's gaps: [player, pile, position, ...] lists
NIGHT = "n"  # a Black Cat link's other games of the night
PHOTOGRAPHER = "w"  # a Black Cat link's player who photographs the whole table (their place)
UNNAMED = "u"  # a game's (or Black Lady's) players with the app's names ("Player 2"): places
MAX_JSON = 200_000  # bytes once decompressed: a damaged or hostile link can't blow up

ReadIndex = Callable[[str, ReadCard], int | None]
"""(photo key, read card) -> the card's place among that photo's reads, or None if unknown."""
ReadAt = Callable[[str, int], ReadCard | None]
"""(photo key, place) -> the read card there, or None when the server doesn't have the photo."""

_SLOT = re.compile(
    r"^(?P<card>[^=!@]+)(?:=(?P<pin>\d+))?(?P<checked>!)?(?:@(?P<ref>\d+)\.(?P<at>\d+))?$"
)
CARD_LETTERS = string.ascii_uppercase + string.ascii_lowercase  # one letter per card
_LETTER = {card: letter for card, letter in zip(ALL_CARDS, CARD_LETTERS, strict=True)}
_CARD = {letter: card for card, letter in _LETTER.items()}
_COMPACT_SLOT = re.compile(
    r"(?P<card>[A-Za-z])(?:=(?P<pin>\d+))?(?P<checked>!)?(?:@(?P<ref>\d+)\.(?P<at>\d+)|(?P<typed>~))?"
)
NO_TRICK = "-"  # a Black Lady seat marked "took no trick"


class LinkError(ValueError):
    """A link whose table can't be read; the message is for the person who opened it."""


@dataclass(frozen=True)
class Link:
    table: Table
    selected: int  # index of the player whose piles are shown


def _no_index(photo: str, read: ReadCard) -> int | None:
    return None


def _no_read(photo: str, place: int) -> ReadCard | None:
    return None


DAMAGED = N_("the game in this link can't be read (it may be cut short or changed)")
OTHER_VERSION = N_(
    "this link's game was saved by another version of the app and can't be read here"
)


def link_error_text(error: LinkError, tr: Translator = ENGLISH) -> str:
    """A `LinkError`'s message in `tr`'s language: the damaged-link note translated, the detail
    after it (a card's text, what was wrong) as it is."""
    message = str(error)
    for note in (DAMAGED, OTHER_VERSION):
        if message.startswith(note):
            return tr.gettext(note) + message[len(note) :]
    return message


# ---------------------------------------------------------------------------------------------
# Piles as text: a letter a card, its marks after it


class _Refs:
    """The photos a link's cards were read from, and the run of reads under way: after a card
    named `@photo.place`, each card without a mark is the photo's next read, until a card
    marked `~` (typed, not read) or the next `@`."""

    def __init__(self, photos: Sequence[str] = ()) -> None:
        self.keys = list(photos)
        self.run: tuple[int, int] | None = None

    def mark(self, photo: str | None, place: int | None) -> str:
        """The mark of a card read at `place` of `photo` (None, None: a typed card)."""
        if photo is None or place is None:
            typed_in_run = self.run is not None
            self.run = None
            return "~" if typed_in_run else ""
        if photo not in self.keys:
            self.keys.append(photo)
        read = (self.keys.index(photo), place)
        follows = self.run == (read[0], place - 1)
        self.run = read
        return "" if follows else f"@{read[0]}.{place}"

    def follow(self, ref: str | None, at: str | None, typed: bool) -> tuple[str, int] | None:
        """The read a card of a link names, given its mark."""
        if ref is not None and at is not None:
            self.run = (int(ref), int(at))
        elif typed:
            self.run = None
        elif self.run is not None:
            self.run = (self.run[0], self.run[1] + 1)
        if self.run is None:
            return None
        if self.run[0] >= len(self.keys):
            raise LinkError(DAMAGED)
        return self.keys[self.run[0]], self.run[1]


def pile_code(slots: Sequence[Slot], refs: _Refs, read_index: ReadIndex) -> str:
    """A pile as compact text: per card its letter, `=7`/`=11` for a pin, `!` when checked,
    and which read it is (see `_Refs`)."""
    parts = []
    for slot in slots:
        text = _LETTER[slot.card]
        if slot.pin is not None:
            text += f"={slot.pin}"
        if slot.checked:
            text += "!"
        place = slot.lost_read  # a read lost with its photo keeps its place in the link
        if slot.photo is not None and slot.read is not None:
            place = read_index(slot.photo, slot.read)
        parts.append(text + refs.mark(slot.photo if place is not None else None, place))
    return "".join(parts)


def _checked_pin(card: Card, pin: int | None) -> int | None:
    if pin is not None and (not card.is_queen or pin not in QUEEN_VALUES):
        raise LinkError(f"{DAMAGED}: {card.label} can't be pinned to {pin}")
    return pin


def pile_slots(text: Any, refs: _Refs, read_at: ReadAt) -> tuple[Slot, ...]:
    """The slots of a pile's compact text (LinkError for anything else)."""
    if not isinstance(text, str):
        raise LinkError(DAMAGED)
    slots = []
    at = 0
    while at < len(text):
        match = _COMPACT_SLOT.match(text, at)
        if match is None:
            raise LinkError(f"{DAMAGED}: {text[at : at + 10]!r} is not a card")
        at = match.end()
        card = _CARD[match["card"]]
        pin = _checked_pin(card, int(match["pin"]) if match["pin"] else None)
        slot = Slot(card, pin=pin, checked=bool(match["checked"]))
        named = refs.follow(match["ref"], match["at"], bool(match["typed"]))
        if named is not None:
            slot = _from_photo(slot, *named, read_at)
        slots.append(slot)
    return tuple(slots)


def _from_photo(slot: Slot, photo: str, place: int, read_at: ReadAt) -> Slot:
    """A link's card read at `place` of `photo`: with that read while the server has the photo,
    else with the place alone (`Slot.lost_read`)."""
    read = read_at(photo, place)
    return replace(slot, photo=photo, read=read, lost_read=place if read is None else None)


def _pack(data: dict[str, Any]) -> str:
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)  # raw deflate: no header, no checksum
    packed = deflate.compress(raw) + deflate.flush()
    return COMPACT + base64.urlsafe_b64encode(packed).decode().rstrip("=")


def _json(text: str) -> Any:
    if len(text) > MAX_TEXT:
        raise LinkError(f"{DAMAGED}: it is too long")
    compact = text.startswith(COMPACT)
    body = text[1:] if compact else text
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        inflate = zlib.decompressobj(-15 if compact else 15)
        raw = inflate.decompress(packed, MAX_JSON)
        if inflate.unconsumed_tail or not inflate.eof:
            raise LinkError(DAMAGED)
        return json.loads(raw)
    except (binascii.Error, zlib.error, ValueError, UnicodeDecodeError) as error:
        if isinstance(error, LinkError):
            raise
        raise LinkError(DAMAGED) from None


def _object(text: str, game: str) -> dict[str, Any]:
    data = _json(text)
    if not isinstance(data, dict):
        raise LinkError(DAMAGED)
    if data.get("v") not in (VERSION, 2) or data.get("g", "cat") != game:
        raise LinkError(OTHER_VERSION)
    return data


# ---------------------------------------------------------------------------------------------
# Black Cat


def _game_data(table: Table, refs: _Refs, read_index: ReadIndex) -> dict[str, Any]:
    """A game's players with their piles, its variants and gaps (each only when not the default)."""
    refs.run = None  # each game's first read is named in full
    data: dict[str, Any] = {
        "p": [
            [player.name, [pile_code(pile.slots, refs, read_index) for pile in player.piles]]
            for player in table.players
        ]
    }
    variants = table.variants
    for name, value, default in (
        ("d", variants.decks, 1),
        ("l", int(variants.lucky_tom), 0),
        ("m", int(variants.music_of_the_night), 0),
    ):
        if value != default:
            data[name] = value
    gaps = [
        [player_index, pile_index, *pile.gaps]
        for player_index, player in enumerate(table.players)
        for pile_index, pile in enumerate(player.piles)
        if pile.gaps
    ]
    if gaps:
        data[GAPS] = gaps
    if unnamed := unnamed_places(table):
        data[UNNAMED] = unnamed
    return data


def _unnamed(data: dict[str, Any], players: int) -> list[int]:
    """The places of a link's players with the app's names (none in a link made before they
    were told apart: its names stay as they are)."""
    places = data.get(UNNAMED, [])
    if not isinstance(places, list) or not all(
        isinstance(place, int) and 0 <= place < players for place in places
    ):
        raise LinkError(DAMAGED)
    return places


def encode_night(
    night: Night,
    selected: int = 0,
    read_index: ReadIndex = _no_index,
    photographer: int | None = None,
) -> str:
    """A night of Black Cat as link text: the game on screen as a table's text, and the night's
    other games under "n" (in order; "c": the game on screen's place among them, when it isn't
    the last). A night of one game is the text of its table. `photographer` ("w"): the place of
    the player who photographs the whole table, once someone said who it is."""
    refs = _Refs()
    data: dict[str, Any] = {"v": 2, **_game_data(night.table, refs, read_index)}
    others = [game for index, game in enumerate(night.games) if index != night.current]
    if others:
        data[NIGHT] = [_game_data(game, refs, read_index) for game in others]
    if night.current != night.in_play:
        data["c"] = night.current
    if selected:
        data["s"] = selected
    if photographer is not None:
        data[PHOTOGRAPHER] = photographer
    if refs.keys:
        data["f"] = refs.keys
    return _pack(data)


def encode_table(table: Table, selected: int = 0, read_index: ReadIndex = _no_index) -> str:
    """The table as link text."""
    return encode_night(Night((table,)), selected, read_index)


def _slot(text: Any, photos: list[str], read_at: ReadAt) -> Slot:
    """A card of the first format: `QS=7!@0.3`."""
    match = _SLOT.match(text) if isinstance(text, str) else None
    if match is None:
        raise LinkError(f"{DAMAGED}: {str(text)[:20]!r} is not a card")
    try:
        card = parse_card(match["card"])
    except CardParseError:
        raise LinkError(f"{DAMAGED}: {match['card'][:20]!r} is not a card") from None
    pin = _checked_pin(card, int(match["pin"]) if match["pin"] else None)
    slot = Slot(card, pin=pin, checked=bool(match["checked"]))
    if match["ref"] is not None:
        ref = int(match["ref"])
        if ref >= len(photos):
            raise LinkError(DAMAGED)
        slot = _from_photo(slot, photos[ref], int(match["at"]), read_at)
    return slot


def _photos(data: dict[str, Any]) -> list[str]:
    photos = data.get("f", [])
    if not isinstance(photos, list):
        raise LinkError(DAMAGED)
    return [str(key) for key in photos]


@dataclass(frozen=True)
class NightLink:
    night: Night
    selected: int  # index of the player whose piles are shown, in the game on screen
    photographer: int | None = None  # index of the player who photographs the whole table


def _game_of(data: Any, version: int, refs: _Refs, photos: list[str], read_at: ReadAt) -> Table:
    """A game's table from its players, piles, variants and gaps (see `_game_data`)."""
    if not isinstance(data, dict):
        raise LinkError(DAMAGED)
    refs.run = None
    players = data["p"]
    names = [name for name, _ in players]
    if not all(isinstance(name, str) for name in names):
        raise LinkError(DAMAGED)
    if version == VERSION:
        piles = [[tuple(_slot(s, photos, read_at) for s in pile) for pile in p] for _, p in players]
    else:
        piles = [[pile_slots(pile, refs, read_at) for pile in p] for _, p in players]
    variants = Variants(
        decks=int(data.get("d", 1)),
        lucky_tom=bool(data.get("l", 0)),
        music_of_the_night=bool(data.get("m", 0)),
    )
    if not all(piles):
        raise LinkError(f"{DAMAGED}: a player has no piles")
    try:
        empty = [[() for _ in p] for p in piles]
        table = new_table(names, variants, empty, _unnamed(data, len(names)))
    except TableError as error:
        raise LinkError(f"{DAMAGED}: {error}") from None
    players_with_cards = tuple(
        replace(
            player,
            piles=tuple(Pile(pile.id, slots) for pile, slots in zip(player.piles, p, strict=True)),
        )
        for player, p in zip(table.players, piles, strict=True)
    )
    return replace(table, players=_with_gaps(players_with_cards, data.get(GAPS, [])))


def decode_night(text: str, read_at: ReadAt = _no_read) -> NightLink:
    """The night of a link's text (an older link without one: a night of its table); LinkError,
    in words, for anything else."""
    data = _object(text, "cat")
    try:
        photos = _photos(data)
        refs = _Refs(photos)
        on_screen = _game_of(data, data["v"], refs, photos, read_at)
        others = data.get(NIGHT, [])
        if not isinstance(others, list):
            raise LinkError(DAMAGED)
        games = [_game_of(game, data["v"], refs, photos, read_at) for game in others]
        current = int(data.get("c", len(games)))
        selected = int(data.get("s", 0))
        photographer = data.get(PHOTOGRAPHER)
        photographer = None if photographer is None else int(photographer)
    except LinkError:
        raise
    except (KeyError, TypeError, ValueError):
        raise LinkError(DAMAGED) from None
    if not 0 <= current <= len(games):
        raise LinkError(DAMAGED)
    try:
        night = night_of([*games[:current], on_screen, *games[current:]], current)
    except TableError as error:
        raise LinkError(f"{DAMAGED}: {error}") from None
    players = night.table.players
    return NightLink(
        night,
        selected if 0 <= selected < len(players) else 0,
        photographer if photographer is not None and 0 <= photographer < len(players) else None,
    )


def decode_table(text: str, read_at: ReadAt = _no_read) -> Link:
    """The table of a link's text (the game on screen, for a night); LinkError, in words, for
    anything else."""
    found = decode_night(text, read_at)
    return Link(found.night.table, found.selected)


def _with_gaps(players: tuple[Player, ...], gaps: Any) -> tuple[Player, ...]:
    """The players with their piles' gaps from a link's "g": [player, pile, gap, ...] lists."""
    piles = [list(player.piles) for player in players]
    try:
        for player_index, pile_index, *positions in gaps:
            pile = piles[player_index][pile_index]
            if (
                not all(0 <= int(g) <= len(pile.slots) for g in positions)
                or min(player_index, pile_index) < 0
            ):
                raise LinkError(DAMAGED)
            piles[player_index][pile_index] = replace(
                pile, gaps=tuple(sorted({int(g) for g in positions}))
            )
    except (TypeError, ValueError, IndexError):
        raise LinkError(DAMAGED) from None
    return tuple(
        replace(player, piles=tuple(own)) for player, own in zip(players, piles, strict=True)
    )


# ---------------------------------------------------------------------------------------------
# Black Lady


def encode_lady(game: lt.LadyGame, read_index: ReadIndex = _no_index) -> str:
    """A game of Black Lady as link text: names, rules, deal on screen, every deal's tricks
    (`-` for a player marked "took no trick")."""
    refs = _Refs()
    deals = []
    for deal in game.deals:
        seats = []
        for player in deal.table.players:
            code = pile_code(player.piles[0].slots, refs, read_index)
            seats.append(NO_TRICK if not code and player.id in deal.no_tricks else code)
        deals.append(seats)
    data: dict[str, Any] = {"v": 2, "g": "lady", "n": list(game.names), "t": deals}
    if game.rules.ace_hearts != Rules().ace_hearts:
        data["a"] = game.rules.ace_hearts
    if game.current:
        data["c"] = game.current
    if game.deals_to_play is not None:
        data["e"] = game.deals_to_play
    if game.unnamed:
        data[UNNAMED] = sorted(game.unnamed)
    if refs.keys:
        data["f"] = refs.keys
    return _pack(data)


def decode_lady(text: str, read_at: ReadAt = _no_read) -> lt.LadyGame:
    """The Black Lady game of a link's text; LinkError, in words, for anything else."""
    data = _object(text, "lady")
    try:
        names = data["n"]
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise LinkError(DAMAGED)
        rules = Rules(ace_hearts=int(data.get("a", Rules().ace_hearts)))
        refs = _Refs(_photos(data))
        deals = [
            [None if code == NO_TRICK else pile_slots(code, refs, read_at) for code in seats]
            for seats in data["t"]
        ]
        to_play = data.get("e")
        if to_play is not None and type(to_play) is not int:
            raise LinkError(DAMAGED)
        unnamed = _unnamed(data, len(names))
        return lt.restore(names, rules, deals, int(data.get("c", 0)), to_play, unnamed)
    except LinkError:
        raise
    except TableError as error:
        raise LinkError(f"{DAMAGED}: {error}") from None
    except (KeyError, TypeError, ValueError):
        raise LinkError(DAMAGED) from None
