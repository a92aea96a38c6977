"""Who sits where in a photo of the whole table: the photographer's side is theirs, and the other
players sit round the table clockwise in the table's order, one a side; each occupied side goes
to the player every such seating puts there (`seat_players`).

The reader tells each pile's side (`blackcat.vision.types.SIDES`: the photographer's side first,
then clockwise seen from above); `PhotoRead.seats()` gives the occupied sides in that order with
their piles. Pure functions on values: nothing here knows about photos or Streamlit.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from blackcat.i18n import N_
from blackcat.tables.black_cat_table import SEAT_NAMES, TableError
from blackcat.vision.types import SIDES


@dataclass(frozen=True)
class Seat:
    """An occupied side of the table, its player, and the photo's piles that lie there."""

    side: str
    player_id: int
    piles: tuple[int, ...]  # indexes of the photo's piles
    # the other players whose side it may be: at a table of three, piles across alone may be
    # those of the player on the photographer's left or of the one on their right
    or_else: tuple[int, ...] = ()


class TooManySides(TableError):
    """The photo shows piles on more sides than the table has players."""

    def __init__(self, sides: int, players: int) -> None:
        template = N_("piles on {sides} sides of the table, but {players} players")
        super().__init__(template, sides=sides, players=players)
        self.sides = sides
        self.players = players


def clockwise_from(player_ids: Sequence[int], photographer: int) -> tuple[int, ...]:
    """The players in the table's order, starting with the photographer and wrapping round."""
    if photographer not in player_ids:
        raise TableError(N_("the photographer is no longer at the table"))
    start = list(player_ids).index(photographer)
    return (*player_ids[start:], *player_ids[:start])


def seat_players(
    seats: Sequence[tuple[str, Sequence[int]]], player_ids: Sequence[int], photographer: int
) -> tuple[Seat, ...]:
    """Each occupied side (`seats`, in seat order, as `PhotoRead.seats()` gives them) with its
    player. The photographer sits on the near side and the others round the table clockwise
    in the table's order, one a side (`seatings`): each occupied side is the player every such
    seating puts there, or, where seatings differ (three players, piles across alone), the
    first of them, the others named in `or_else`. At a table of four each side is its own
    player's. More sides than players: `TooManySides`. Sides no seating fits (the near side
    empty at a full table) go in order, the first to the photographer."""
    order = clockwise_from(player_ids, photographer)
    if len(seats) > len(order):
        raise TooManySides(len(seats), len(order))
    occupied = [SIDES.index(side) for side, _ in seats]
    fitting = [
        seating for seating in seatings(len(order)) if all(side in seating for side in occupied)
    ]
    if not fitting:
        return tuple(
            Seat(side, player_id, tuple(piles))
            for (side, piles), player_id in zip(seats, order, strict=False)
        )
    placed = []
    for (side, piles), index in zip(seats, occupied, strict=True):
        players = list(dict.fromkeys(order[seating.index(index)] for seating in fitting))
        placed.append(Seat(side, players[0], tuple(piles), tuple(players[1:])))
    return tuple(placed)


def seatings(players: int) -> list[tuple[int, ...]]:
    """Every way `players` sit round a table of four sides (SIDES' indexes), one a side, the
    first (the photographer) on the near side and the others after them clockwise."""
    if not 1 <= players <= len(SIDES):
        return []
    return [(0, *others) for others in itertools.combinations(range(1, len(SIDES)), players - 1)]


def moves_for_new_photographer(
    player_ids: Sequence[int], photographer: int, new_photographer: int
) -> dict[int, int]:
    """Who gets whose piles when a photo of the whole table is shared out again from another
    seat: the player `n` seats clockwise from the old photographer gives theirs to the player
    `n` seats from the new one."""
    old_order = clockwise_from(player_ids, photographer)
    new_order = clockwise_from(player_ids, new_photographer)
    return dict(zip(old_order, new_order, strict=True))


def players_for_sides(seats: Sequence[tuple[str, Sequence[int]]], players: int) -> tuple[str, ...]:
    """The players a table of one player lacks for a photo of the whole table (`seats`, in seat
    order): one for each occupied side after the photographer's, named by it
    (`black_cat_table.SEAT_NAMES`, untranslated). None for a table of several players: where
    missing players sit among them only the table's order says, so they add them themselves."""
    if players != 1:
        return ()
    return tuple(SEAT_NAMES[side] for side, _ in seats[1:])
