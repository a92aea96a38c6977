"""Piles whose cards lie in no row: cards scattered at their own angles or fanned from a hand.

The layout orders each pile's cards left to right and marks where neighbours lie further apart
than a card (a gap: a card may be missing there). Cards that lie in no row have no left to right
and no neighbours: such a pile is counted, not ordered, and marks no gap.

A pile lies in a row where its cards stand at one angle and step along their own across
direction, one after another along one line: a kitty pile, however turned or laid at an angle.
Each card's angle is measured as `deskew` measures it, on the gradients round its indices.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

import numpy as np

from blackcat.vision.deskew import CONTEXT, direction_sums, tilt_of
from blackcat.vision.types import SIDES, Box, PhotoRead, ReadCard

Point = tuple[float, float]

MIN_PATCH = 8  # pixels: a smaller patch round an index tells no direction

SURE_TILT = 0.1
"""A card's tilt counts where the gradients round its indices agree on it at least this much
(0: spread evenly; 1: every edge along the card's axes)."""


@dataclass(frozen=True)
class CardLie:
    """Where one card of a pile lies: its top corner's index centre, and its tilt."""

    anchor: Point
    tilt: float | None  # degrees within (-45, 45], anticlockwise as seen; None: not told


@dataclass(frozen=True)
class PileLie:
    """How a pile's cards lie: how far their tilts spread, how far the line they step along
    turns from their tilt, and how far their anchors stray from that line (in index heights)."""

    cards: int
    tilt_spread: float  # degrees between the most differing tilts told (0 with fewer than two)
    tilt_scatter: float  # the tilts' circular standard deviation, degrees (0 with fewer than two)
    row_turn: float | None  # degrees between the anchors' line and the cards' tilt; None: not told
    off_line: float  # the anchor farthest from the line through them, in index heights


def folded(degrees: float) -> float:
    """An angle taken modulo a quarter turn, within (-45, 45]."""
    folded = (degrees + 45.0) % 90.0 - 45.0
    return 45.0 if folded == -45.0 else folded


def tilt_spread(tilts: Sequence[float]) -> float:
    """The narrowest arc (degrees, modulo a quarter turn) that holds every tilt."""
    if len(tilts) < 2:
        return 0.0
    around = sorted(tilt % 90.0 for tilt in tilts)
    widest = max(
        [after - before for before, after in pairwise(around)] + [around[0] + 90.0 - around[-1]]
    )
    return 90.0 - widest


def mean_tilt(tilts: Sequence[float]) -> float:
    """The tilts' mean direction, modulo a quarter turn (on the circle of 4 x the angle)."""
    x = sum(math.cos(math.radians(4 * tilt)) for tilt in tilts)
    y = sum(math.sin(math.radians(4 * tilt)) for tilt in tilts)
    return folded(math.degrees(math.atan2(y, x)) / 4)


def tilt_scatter(tilts: Sequence[float]) -> float:
    """The tilts' circular standard deviation (degrees, modulo a quarter turn): unlike their
    spread, it does not grow with the count of cards as noise does."""
    if len(tilts) < 2:
        return 0.0
    x = sum(math.cos(math.radians(4 * tilt)) for tilt in tilts) / len(tilts)
    y = sum(math.sin(math.radians(4 * tilt)) for tilt in tilts) / len(tilts)
    length = min(1.0, math.hypot(x, y))
    if length <= 0:
        return 45.0
    return min(45.0, math.degrees(math.sqrt(-2 * math.log(length))) / 4)


def card_tilt(picture: np.ndarray, boxes: Sequence[Box]) -> float | None:
    """A card's tilt measured on `picture` round its index boxes (in `picture`'s pixels); None
    where no direction stands out (SURE_TILT)."""
    across = down = total = 0.0
    for x1, y1, x2, y2 in boxes:
        centre_x, centre_y = (x1 + x2) / 2, (y1 + y2) / 2
        half = CONTEXT * max(x2 - x1, y2 - y1) / 2
        patch = picture[
            max(0, round(centre_y - half)) : max(0, round(centre_y + half)),
            max(0, round(centre_x - half)) : max(0, round(centre_x + half)),
        ]
        if min(patch.shape[:2]) < MIN_PATCH:
            continue
        x, y, strength = direction_sums(patch)
        across, down, total = across + x, down + y, total + strength
    if total <= 0 or math.hypot(across, down) / total < SURE_TILT:
        return None
    return tilt_of(across, down)


DOWN_OF_SIDE = {"near": (0.0, 1.0), "left": (-1.0, 0.0), "far": (0.0, -1.0), "right": (1.0, 0.0)}
"""The way down a card stands in the photo, by the side whose player reads it upright (SIDES:
the left player's cards have their tops pointing right)."""


def anchor(card: ReadCard, side: str) -> Point:
    """The centre of a card's top index as its player sees it: the highest of its indices."""
    down_x, down_y = DOWN_OF_SIDE.get(side, DOWN_OF_SIDE[SIDES[0]])
    centres = [index.centre for index in card.indices] or [
        ((card.box[0] + card.box[2]) / 2, (card.box[1] + card.box[3]) / 2)
    ]
    return min(centres, key=lambda point: point[0] * down_x + point[1] * down_y)


def index_height(cards: Sequence[ReadCard]) -> float:
    """The pile's typical index size (the median of its index boxes' longer sides)."""
    sizes = [
        max(index.box[2] - index.box[0], index.box[3] - index.box[1])
        for card in cards
        for index in card.indices
    ]
    return float(np.median(sizes)) if sizes else 1.0


def pile_lie(lies: Sequence[CardLie], size: float) -> PileLie:
    """How a pile's cards lie (`PileLie`), from each card's anchor and tilt and the pile's
    index height `size`."""
    tilts = [lie.tilt for lie in lies if lie.tilt is not None]
    points = np.array([lie.anchor for lie in lies], dtype=np.float64).reshape(-1, 2)
    if len(points) < 2:
        return PileLie(len(lies), tilt_spread(tilts), tilt_scatter(tilts), None, 0.0)
    centred = points - points.mean(axis=0)
    _, _, axes = np.linalg.svd(centred, full_matrices=False)
    along, across = axes[0], axes[1]
    off_line = float(np.abs(centred @ across).max()) / max(size, 1.0)
    # image y points down: a line turned clockwise in these numbers is anticlockwise seen
    line = folded(-math.degrees(math.atan2(along[1], along[0])))
    row_turn = abs(folded(line - mean_tilt(tilts))) if tilts else None
    return PileLie(len(lies), tilt_spread(tilts), tilt_scatter(tilts), row_turn, off_line)


def pile_lies(picture: np.ndarray, read: PhotoRead) -> tuple[PileLie, ...]:
    """How each pile of the read lies, its cards' tilts measured on `picture` (the photo at any
    size)."""
    scale = picture.shape[1] / max(read.width, 1)
    out = []
    for n, pile in enumerate(read.piles):
        side = read.side_of(n)
        lies = [
            CardLie(
                anchor(card, side),
                card_tilt(
                    picture,
                    [tuple(value * scale for value in index.box) for index in card.indices],
                ),
            )
            for card in pile
        ]
        out.append(pile_lie(lies, index_height(pile)))
    return tuple(out)


TILTS_SCATTER = 8.0
"""A pile whose cards' tilts scatter more than this (degrees, their circular standard
deviation) lies in no row: a row's cards lie at one angle. Measured (`pile_lies`) on 52 piles of
35 camera-fault kitty scenes (seed 70): at most 4.6."""

ROW_TURNED = 20.0
"""...or whose cards step along a line turned more than this (degrees) from their tilt: a row's
cards step along their own across direction (the same kitty piles: at most 16, in 640 px frames
squeezed from 16:9, which turn a card's edges apart)."""

OFF_LINE = 0.5
"""...or whose anchors stray from the line through them by more than this many index heights
(the same kitty piles: at most 0.26)."""


def lies_in_no_row(lie: PileLie) -> bool:
    """Whether a pile's cards lie in no row (TILTS_SCATTER, ROW_TURNED, OFF_LINE); a pile of one
    card tells nothing of itself (`order_judged`)."""
    if lie.cards < 2:
        return False
    turned = lie.row_turn is not None and lie.row_turn > ROW_TURNED
    return lie.tilt_scatter > TILTS_SCATTER or turned or lie.off_line > OFF_LINE


def in_no_row(read: PhotoRead, lies: Sequence[PileLie]) -> tuple[bool, ...]:
    """Per pile, whether its cards lie in no row (`lies_in_no_row`): a lone card too where a
    pile of its side of the table does (the side's cards scattered, no row for it to be part
    of)."""
    said = [lies_in_no_row(lie) for lie in lies]
    scattered = {read.side_of(n) for n, no_row in enumerate(said) if no_row}
    return tuple(
        no_row or (len(read.piles[n]) == 1 and read.side_of(n) in scattered)
        for n, no_row in enumerate(said)
    )


def order_judged(picture: np.ndarray, read: PhotoRead) -> PhotoRead:
    """The read with the piles whose cards lie in no row said so, marking no gap (`in_no_row`;
    their cards' tilts measured on `picture`, the photo at any size)."""
    if not read.piles:
        return read
    return with_order_judged(read, in_no_row(read, pile_lies(picture, read)))


def with_order_judged(read: PhotoRead, in_no_row: Sequence[bool]) -> PhotoRead:
    """The read with each pile said to lie in no row (`in_no_row`, per pile) so, marking no
    gap."""
    said = tuple(n < len(in_no_row) and bool(in_no_row[n]) for n in range(len(read.piles)))
    if not any(said):
        return read
    gaps = tuple(() if said[n] else read.gaps_of(n) for n in range(len(read.piles)))
    return replace(read, gaps=gaps if any(gaps) else (), in_no_row=said)
