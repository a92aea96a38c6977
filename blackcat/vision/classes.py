"""The card classifier's classes: a card seen at one of four quarter turns, or "not an index".

The classifier tells which way a glyph stands as well as which card it is, so the reader can tell
a card's top corner index from its upside-down bottom one (and find the photo's up), and it can
reject pips, face art, backs and table texture that the detector took for an index.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from blackcat.games.cards import ALL_CARDS, Card, card_from_code

QUARTER_TURNS = 4
"""Orientation of a glyph in the picture: where its top points. 0 up, 1 right, 2 down, 3 left."""

NOT_AN_INDEX = "none"


@dataclass(frozen=True)
class IndexClass:
    """What one classifier class means: a card and the way its glyph stands, or neither."""

    card: Card | None  # None: not an index
    orientation: int | None  # quarter turns clockwise from upright; None: not known or no index


def class_name(card: Card, orientation: int) -> str:
    """Folder and class name of a card at an orientation, e.g. `QS-0`, `10H-2`."""
    return f"{card.code}-{orientation % QUARTER_TURNS}"


def all_class_names() -> list[str]:
    return [class_name(card, o) for card in ALL_CARDS for o in range(QUARTER_TURNS)] + [
        NOT_AN_INDEX
    ]


def parse_class_name(name: str) -> IndexClass:
    """The meaning of a class name; a bare card code (first classifier: no orientation) too."""
    if name == NOT_AN_INDEX:
        return IndexClass(None, None)
    code, _, turns = name.partition("-")
    return IndexClass(card_from_code(code), int(turns) if turns else None)


def orientation_of(up_x: float, up_y: float) -> int:
    """Quarter turns of a glyph whose top points along (up_x, up_y) in image pixels (y down)."""
    degrees = math.degrees(math.atan2(up_x, -up_y))  # 0 up, 90 right, 180 down, -90 left
    return round(degrees / 90) % QUARTER_TURNS
