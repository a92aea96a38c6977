"""Piles whose cards lie in no row: cards scattered at their own angles or fanned from a hand.

The layout orders each pile's cards left to right and marks where neighbours lie further apart
than a card (a gap: a card may be missing there). Cards that lie in no row have no left to right
and no neighbours: such a pile is counted, not ordered, and marks no gap.

A pile lies in a row where its cards stand at one angle and step along their own across
direction, one after another along one line: a kitty pile, however turned or laid at an angle.
Each card's angle is measured as `deskew` measures it, on the gradients round its indices.

Measured (`blackcat evaluate`, main's reader, then with piles in no row judged; gap markers /
those where no card was lost): rf100's real photos 12 / 12 -> 1 / 1, edje's 8 / 8 -> 7 / 7 (its
lone cards' markers left: no row to judge); 200 scattered and fanned 640 px frames (seed 61)
fans 22 / 9 -> 9 / 2, loose cards 11 / 11 -> 4 / 4, cards lost with no marker 42 -> 49 in the
fans (a fan's order is its cards' order round the hand: 6 markers of lost cards went with the
false ones). Tidy rows kept theirs: 100 `synth --layouts rows=1` scenes at 1280 px (seed 7070)
39 / 24 -> 36 / 21, 145 of 233 lost cards unmarked before and after; 30 whole tables (seed
3636) 8 / 5 -> 7 / 4, 55 of 95 unmarked before and after; camera-fault, harder and angled kitty
scenes (seed 70) unchanged.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from blackcat.vision.deskew import SURE_DIRECTION, tilt_of
from blackcat.vision.table_layout import FACING
from blackcat.vision.tilt import direction_sums_round
from blackcat.vision.types import SIDES, Box, IndexRead, PhotoRead, ReadCard

Point = tuple[float, float]

SURE_TILT = SURE_DIRECTION
"""A card's tilt counts where the gradients round its indices agree on it at least this much
(0: spread evenly; 1: every edge along the card's axes), as a crop is turned by it. Round a far
pile's small bottom corners, pips and the neighbours' edges agree less and tell other tilts: a
row of ten lying at 15 to 20 degrees (angled kitty k00020, seed 70) measured -20 to 16 where
they agreed 0.06 to 0.17, 10 to 16 where 0.22 to 0.32."""


@dataclass(frozen=True)
class CardLie:
    """Where one card of a pile lies: its top corner's index centre, and its tilt."""

    anchor: Point | None  # None: only corners standing otherwise than the pile's tops were read
    tilt: float | None  # degrees within (-45, 45], anticlockwise as seen; None: not told
    across: bool = False  # every index read stands a quarter turn from the pile's tops


@dataclass(frozen=True)
class PileLie:
    """How a pile's cards lie: how far their tilts scatter, how far the line they step along
    turns from their tilt, how far their anchors stray from that line (in index heights), and
    how many of them lie across the others."""

    cards: int
    tilt_scatter: float  # the tilts' circular standard deviation, degrees (0 with fewer than two)
    row_turn: float | None  # degrees between the anchors' line and the cards' tilt; None: not told
    off_line: float  # the anchor farthest from the line through them, in index heights
    across: int = 0  # cards lying across the others: every index a quarter turn from the tops


def folded(degrees: float) -> float:
    """An angle taken modulo a quarter turn, within (-45, 45]."""
    folded = (degrees + 45.0) % 90.0 - 45.0
    return 45.0 if folded == -45.0 else folded


def mean_tilt(tilts: Sequence[float]) -> float:
    """The tilts' mean direction, modulo a quarter turn (on the circle of 4 x the angle)."""
    x = sum(math.cos(math.radians(4 * tilt)) for tilt in tilts)
    y = sum(math.sin(math.radians(4 * tilt)) for tilt in tilts)
    return folded(math.degrees(math.atan2(y, x)) / 4)


TRIMMED_SHARE = 0.2
"""The share of a pile's tilts farthest from their mean left out of their scatter (of five or
more): a few measured round speckle or face art (a row of 23 speckled cards scattered 9.7
degrees whole, 7.2 so: `synth --layouts rows=1` scene s7070_000037)."""


def tilt_scatter(tilts: Sequence[float]) -> float:
    """The tilts' circular standard deviation (degrees, modulo a quarter turn), those farthest
    from their mean left out (TRIMMED_SHARE): unlike their spread, it does not grow with the
    count of cards as noise does."""
    if len(tilts) < 2:
        return 0.0
    middle = mean_tilt(tilts)
    kept = sorted(tilts, key=lambda tilt: abs(folded(tilt - middle)))
    tilts = kept[: len(kept) - int(TRIMMED_SHARE * len(kept))]
    x = sum(math.cos(math.radians(4 * tilt)) for tilt in tilts) / len(tilts)
    y = sum(math.sin(math.radians(4 * tilt)) for tilt in tilts) / len(tilts)
    length = min(1.0, math.hypot(x, y))
    if length <= 0:
        return 45.0
    return min(45.0, math.degrees(math.sqrt(-2 * math.log(length))) / 4)


def card_tilt(picture: np.ndarray, boxes: Sequence[Box]) -> float | None:
    """A card's tilt measured on `picture` round its index boxes (in `picture`'s pixels); None
    where no direction stands out (SURE_TILT)."""
    across, down, total = direction_sums_round(picture, boxes)
    if total <= 0 or math.hypot(across, down) / total < SURE_TILT:
        return None
    return tilt_of(across, down)


def tops_turn(cards: Sequence[ReadCard], side: str) -> int | None:
    """The quarter turn most of a pile's cards' highest indices stand at (`highest`): its
    cards' top corners; None where none tells."""
    turns = Counter(
        index.orientation
        for card in cards
        if (index := highest(card.indices, side)) is not None and index.orientation is not None
    )
    return turns.most_common(1)[0][0] if turns else None


def highest(indices: Sequence[IndexRead], side: str) -> IndexRead | None:
    """The index lying highest as the side's player sees them (None of none)."""
    # the way down the side's player's cards stand in the photo: towards that player
    down_x, down_y = FACING[SIDES.index(side) if side in SIDES else 0]
    return min(
        indices,
        key=lambda index: index.centre[0] * down_x + index.centre[1] * down_y,
        default=None,
    )


def anchor(card: ReadCard, side: str, tops: int | None = None) -> Point | None:
    """The centre of a card's top index as its player sees it: the highest of its indices
    standing as the pile's tops stand (`tops`, a quarter turn; None: any); None where it shows
    only others (its bottom corner read, its top corner not: it lies a card's height off the
    pile's line)."""
    if not card.indices:
        return ((card.box[0] + card.box[2]) / 2, (card.box[1] + card.box[3]) / 2)
    top = highest(
        [
            index
            for index in card.indices
            if tops is None or index.orientation is None or index.orientation == tops
        ],
        side,
    )
    return None if top is None else top.centre


def lies_across(card: ReadCard, tops: int | None) -> bool:
    """Whether every index of the card read stands a quarter turn from the pile's tops (`tops`):
    the card lies across the others, as no card of a row does (its bottom corner stands half
    round)."""
    turns = [index.orientation for index in card.indices]
    return (
        tops is not None
        and bool(turns)
        and all(turn is not None and (turn - tops) % 2 == 1 for turn in turns)
    )


def pile_index_size(cards: Sequence[ReadCard]) -> float:
    """The pile's typical index size (the median of its index boxes' longer sides)."""
    sizes = [
        max(index.box[2] - index.box[0], index.box[3] - index.box[1])
        for card in cards
        for index in card.indices
    ]
    return float(np.median(sizes)) if sizes else 1.0


STRAYS_LEFT_OUT = 0.2
"""This share of a pile's cards, and one of four or more, farthest from a line through the
others is left out of its line: a card's anchor may be another card's pip or face art joined
to it as its top corner (angled kitty k00012, seed 70: a jack's index joined by a club on the
king above it)."""


def line_through(points: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The line through the points (N x 2, two or more) nearest them all: a point on it, its
    direction and its normal."""
    middle = points.mean(axis=0)
    _, _, axes = np.linalg.svd(points - middle, full_matrices=False)
    return middle, axes[0], axes[1]


def farthest_off(points: np.ndarray) -> float:
    """How far the point farthest from the line through the points lies from it."""
    middle, _, across = line_through(points)
    return float(np.abs((points - middle) @ across).max())


def without_strays(points: np.ndarray) -> np.ndarray:
    """The points with the strays left out (STRAYS_LEFT_OUT), one at a time the one whose
    leaving out leaves the others nearest a line."""
    strays = max(1, int(STRAYS_LEFT_OUT * len(points))) if len(points) >= 4 else 0
    for _ in range(strays):
        stray = min(range(len(points)), key=lambda n: farthest_off(np.delete(points, n, axis=0)))
        points = np.delete(points, stray, axis=0)
    return points


def pile_lie(lies: Sequence[CardLie], size: float) -> PileLie:
    """How a pile's cards lie (`PileLie`), from each card's anchor and tilt and the pile's
    index height `size`."""
    tilts = [lie.tilt for lie in lies if lie.tilt is not None]
    crossing = sum(lie.across for lie in lies)
    anchors = [lie.anchor for lie in lies if lie.anchor is not None]
    points = np.array(anchors, dtype=np.float64).reshape(-1, 2)
    if len(points) < 2:
        return PileLie(len(lies), tilt_scatter(tilts), None, 0.0, crossing)
    points = without_strays(points)
    middle, along, across = line_through(points)
    off_line = float(np.abs((points - middle) @ across).max()) / max(size, 1.0)
    # image y points down: a line turned clockwise in these numbers is anticlockwise seen
    line = folded(-math.degrees(math.atan2(along[1], along[0])))
    row_turn = abs(folded(line - mean_tilt(tilts))) if tilts else None
    return PileLie(len(lies), tilt_scatter(tilts), row_turn, off_line, crossing)


def card_lies(picture: np.ndarray, read: PhotoRead) -> tuple[tuple[CardLie, ...], ...]:
    """Where each card of each pile lies, its tilt measured on `picture` (the photo at any
    size)."""
    scale = picture.shape[1] / max(read.width, 1)
    out = []
    for n, pile in enumerate(read.piles):
        tops = tops_turn(pile, read.side_of(n))
        out.append(
            tuple(
                CardLie(
                    anchor(card, read.side_of(n), tops),
                    card_tilt(
                        picture,
                        [tuple(value * scale for value in index.box) for index in card.indices],
                    ),
                    lies_across(card, tops),
                )
                for card in pile
            )
        )
    return tuple(out)


def pile_lies(picture: np.ndarray, read: PhotoRead) -> tuple[PileLie, ...]:
    """How each pile of the read lies (`pile_lie`, `card_lies`)."""
    return tuple(
        pile_lie(lies, pile_index_size(pile))
        for pile, lies in zip(read.piles, card_lies(picture, read), strict=True)
    )


TILTS_SCATTER = 8.0
"""A pile whose cards' tilts scatter more than this (degrees, `tilt_scatter`) lies in no row: a
row's cards lie at one angle. Measured on tidy rows (`pile_lies` of main's reads; kitty scenes
of seed 70): at most 5.7 in 53 piles of 35 camera-fault kitty scenes, 4.3 in 47 of 30 harder
ones, 5.0 in 60 of 30 angled ones, 7.2 in 161 of 100 `synth --layouts rows=1` scenes at 1280
px (seed 7070, camera faults)."""

ROW_TURNED = 35.0
"""...or whose cards step along a line turned more than this (degrees) from their tilt: a row's
cards step along their own across direction. A photo taken aslant turns them apart: 30 in the
harder kitty scenes (keystone), 15 in the camera-fault ones (640 px frames squeezed from 16:9),
27 on the sides of 30 whole tables seen from a seat (seed 3636; one read woven, 43)."""

OFF_LINE = 0.5
"""...or whose anchors stray from the line through them by more than this many index heights
(the same tidy rows and tables: at most 0.18)."""


def lies_in_no_row(lie: PileLie) -> bool:
    """Whether a pile's cards lie in no row: a card lies across the others (`lies_across`), or
    TILTS_SCATTER, ROW_TURNED, OFF_LINE; a pile of one card tells nothing of itself
    (`order_judged`)."""
    if lie.cards < 2:
        return False
    turned = lie.row_turn is not None and lie.row_turn > ROW_TURNED
    return lie.across > 0 or lie.tilt_scatter > TILTS_SCATTER or turned or lie.off_line > OFF_LINE


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
