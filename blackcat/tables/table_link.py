"""The table as a short text for a link: what the app keeps in the page's address, so that a
reload, a reconnect or another phone opening the link finds the same table.

The text holds the players, their piles, every card with its Queen pin and whether the player
checked it, the variants, whose piles are shown, and for cards read from a photo which read they
are (photo key and place among the photo's reads): the photos themselves stay on the server, and
a card whose photo the server no longer has becomes a typed card; and where the reader thinks
a card may be missing (a pile's gaps, under "g" only when there are any: a link without it, as
every older one, has none). It is JSON, compressed with
zlib and written in URL-safe base64; a version number lets a later format refuse an older link
politely. Pure functions: the app supplies how reads are found (`ReadIndex`, `ReadAt`).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from blackcat.games.black_cat import Variants
from blackcat.games.cards import QUEEN_VALUES, CardParseError, parse_card
from blackcat.tables.black_cat_table import Pile, Player, Slot, Table, TableError, new_table
from blackcat.vision.types import ReadCard

VERSION = 1
MAX_TEXT = 20_000  # characters of a link's table; a real table takes a few hundred
MAX_JSON = 200_000  # bytes once decompressed: a damaged or hostile link can't blow up

ReadIndex = Callable[[str, ReadCard], int | None]
"""(photo key, read card) -> the card's place among that photo's reads, or None if unknown."""
ReadAt = Callable[[str, int], ReadCard | None]
"""(photo key, place) -> the read card there, or None when the server doesn't have the photo."""

_SLOT = re.compile(
    r"^(?P<card>[^=!@]+)(?:=(?P<pin>\d+))?(?P<checked>!)?(?:@(?P<ref>\d+)\.(?P<at>\d+))?$"
)


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


def _slot_text(slot: Slot, photos: dict[str, int], read_index: ReadIndex) -> str:
    text = slot.card.code
    if slot.pin is not None:
        text += f"={slot.pin}"
    if slot.checked:
        text += "!"
    if slot.photo is not None and slot.read is not None:
        place = read_index(slot.photo, slot.read)
        if place is not None:
            text += f"@{photos.setdefault(slot.photo, len(photos))}.{place}"
    return text


def encode_table(table: Table, selected: int = 0, read_index: ReadIndex = _no_index) -> str:
    """The table as link text."""
    photos: dict[str, int] = {}
    players = [
        [
            player.name,
            [[_slot_text(s, photos, read_index) for s in pile.slots] for pile in player.piles],
        ]
        for player in table.players
    ]
    variants = table.variants
    data = {
        "v": VERSION,
        "s": selected,
        "d": variants.decks,
        "l": int(variants.lucky_tom),
        "m": int(variants.music_of_the_night),
        "f": list(photos),
        "p": players,
    }
    gaps = [
        [player_index, pile_index, *pile.gaps]
        for player_index, player in enumerate(table.players)
        for pile_index, pile in enumerate(player.piles)
        if pile.gaps
    ]
    if gaps:
        data["g"] = gaps
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


DAMAGED = "the table in this link can't be read (it may be cut short or changed)"


def _json(text: str) -> Any:
    if len(text) > MAX_TEXT:
        raise LinkError(f"{DAMAGED}: it is too long")
    try:
        packed = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        inflate = zlib.decompressobj()
        raw = inflate.decompress(packed, MAX_JSON)
        if inflate.unconsumed_tail or not inflate.eof:
            raise LinkError(DAMAGED)
        return json.loads(raw)
    except (binascii.Error, zlib.error, ValueError, UnicodeDecodeError) as error:
        if isinstance(error, LinkError):
            raise
        raise LinkError(DAMAGED) from None


def _slot(text: Any, photos: list[str], read_at: ReadAt) -> Slot:
    match = _SLOT.match(text) if isinstance(text, str) else None
    if match is None:
        raise LinkError(f"{DAMAGED}: {str(text)[:20]!r} is not a card")
    try:
        card = parse_card(match["card"])
    except CardParseError:
        raise LinkError(f"{DAMAGED}: {match['card'][:20]!r} is not a card") from None
    pin = int(match["pin"]) if match["pin"] else None
    if pin is not None and (not card.is_queen or pin not in QUEEN_VALUES):
        raise LinkError(f"{DAMAGED}: {card.label} can't be pinned to {pin}")
    slot = Slot(card, pin=pin, checked=bool(match["checked"]))
    if match["ref"] is not None:
        ref = int(match["ref"])
        if ref >= len(photos):
            raise LinkError(DAMAGED)
        read = read_at(photos[ref], int(match["at"]))
        if read is not None:
            slot = replace(slot, read=read, photo=photos[ref])
    return slot


def decode_table(text: str, read_at: ReadAt = _no_read) -> Link:
    """The table of a link's text; LinkError, in words, for anything else."""
    data = _json(text)
    if not isinstance(data, dict):
        raise LinkError(DAMAGED)
    if data.get("v") != VERSION:
        raise LinkError(
            "this link's table was saved by another version of the app and can't be read here"
        )
    try:
        photos = [str(key) for key in data.get("f", [])]
        players = data["p"]
        names = [name for name, _ in players]
        if not all(isinstance(name, str) for name in names):
            raise LinkError(DAMAGED)
        piles = [[tuple(_slot(s, photos, read_at) for s in pile) for pile in p] for _, p in players]
        variants = Variants(
            decks=int(data.get("d", 1)),
            lucky_tom=bool(data.get("l", 0)),
            music_of_the_night=bool(data.get("m", 0)),
        )
        selected = int(data.get("s", 0))
    except LinkError:
        raise
    except (KeyError, TypeError, ValueError):
        raise LinkError(DAMAGED) from None
    if not all(piles):
        raise LinkError(f"{DAMAGED}: a player has no piles")
    try:
        table = new_table(names, variants, [[() for _ in p] for p in piles])
    except TableError as error:
        raise LinkError(f"{DAMAGED}: {error}") from None
    players_with_cards = tuple(
        replace(
            player,
            piles=tuple(Pile(pile.id, slots) for pile, slots in zip(player.piles, p, strict=True)),
        )
        for player, p in zip(table.players, piles, strict=True)
    )
    table = replace(table, players=_with_gaps(players_with_cards, data.get("g", [])))
    return Link(table, selected if 0 <= selected < len(table.players) else 0)


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
