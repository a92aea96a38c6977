"""From read corner indices to piles: merge the corners of one card, group rows, order them.

A pure function of the detections, so it is tested without any model. Distances are measured in
units of the median index height, which makes every threshold independent of the photo's size.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from statistics import median

from blackcat.cards import Card
from blackcat.vision.types import Box, Guess, IndexRead, PhotoRead, ReadCard

MAX_CORNER_DISTANCE = 9.0
"""Two indices of one card lie at most this many index heights apart (corner to corner)."""

MIN_CORNER_OFFSET_ACROSS_ROW = 1.5
"""With two decks, two indices of one card differ by at least this across the row direction
(top-left vs bottom-right); two copies of a card in one row differ only along it."""

ROW_GAP = 1.8
"""A gap of more than this many index heights across the row direction starts a new row."""

MAX_ROW_TILT_DEGREES = 45.0
TOP_GUESSES = 3


def arrange(
    indices: Sequence[IndexRead], *, decks: int = 1, width: int = 0, height: int = 0
) -> PhotoRead:
    """Piles (rows, top to bottom), each ordered left to right, from the indices of one photo."""
    if not indices:
        return PhotoRead(width=width, height=height, piles=())
    scale = median(index.height for index in indices)
    angle = row_angle([index.centre for index in indices], scale)
    groups = group_corners(indices, decks=decks, angle=angle, scale=scale)
    cards = [merge_group(group) for group in groups]
    anchors = [_anchor(group, angle) for group in groups]
    rows = split_rows(anchors, scale)
    piles = tuple(tuple(cards[i] for i in row) for row in rows)
    return PhotoRead(width=width, height=height, piles=piles)


def rotate(point: tuple[float, float], angle: float) -> tuple[float, float]:
    """The point in a frame turned by `angle` (radians), so a row at that angle runs along x."""
    x, y = point
    cos, sin = math.cos(angle), math.sin(angle)
    return x * cos + y * sin, -x * sin + y * cos


def row_angle(centres: Sequence[tuple[float, float]], scale: float) -> float:
    """The direction rows run in (radians): the median direction to each index's nearest
    neighbour, among those within MAX_ROW_TILT_DEGREES of horizontal."""
    directions = []
    for i, (x, y) in enumerate(centres):
        nearest = min(
            (
                (math.hypot(ox - x, oy - y), ox - x, oy - y)
                for j, (ox, oy) in enumerate(centres)
                if j != i
            ),
            default=None,
        )
        if nearest is None or nearest[0] > MAX_CORNER_DISTANCE * scale:
            continue
        _, dx, dy = nearest
        if dx < 0:
            dx, dy = -dx, -dy
        direction = math.atan2(dy, dx)
        if abs(math.degrees(direction)) <= MAX_ROW_TILT_DEGREES:
            directions.append(direction)
    return median(directions) if directions else 0.0


def group_corners(
    indices: Sequence[IndexRead], *, decks: int, angle: float, scale: float
) -> list[list[IndexRead]]:
    """Indices grouped so that each group is one card.

    Indices read as the same card and close enough to be corners of one card are joined. With one
    deck a card exists once, so every such pair joins. With two decks a pair joins only if it is
    offset across the row (top-left and bottom-right corner), and each index joins at most one
    other, since two copies of a card may lie side by side.
    """
    by_card: dict[Card, list[int]] = defaultdict(list)
    for i, index in enumerate(indices):
        by_card[index.card].append(i)

    parent = list(range(len(indices)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    paired: set[int] = set()
    for members in by_card.values():
        candidates = sorted(
            (_distance(indices[i], indices[j]), i, j)
            for n, i in enumerate(members)
            for j in members[n + 1 :]
        )
        for distance, i, j in candidates:
            if distance > MAX_CORNER_DISTANCE * scale:
                break
            if decks == 1:
                parent[find(i)] = find(j)
            elif (
                i not in paired
                and j not in paired
                and _across_row(indices[i], indices[j], angle)
                >= MIN_CORNER_OFFSET_ACROSS_ROW * scale
            ):
                parent[find(i)] = find(j)
                paired.update((i, j))

    groups: dict[int, list[IndexRead]] = defaultdict(list)
    for i, index in enumerate(indices):
        groups[find(i)].append(index)
    return list(groups.values())


def merge_group(group: Sequence[IndexRead]) -> ReadCard:
    """One card from its indices: guesses averaged over the indices, box around all of them."""
    totals: dict[Card, float] = defaultdict(float)
    for index in group:
        for guess in index.guesses:
            totals[guess.card] += guess.probability / len(group)
    ranked = sorted(totals.items(), key=lambda item: -item[1])[:TOP_GUESSES]
    alternatives = tuple(Guess(card, probability) for card, probability in ranked)
    return ReadCard(
        card=alternatives[0].card,
        box=_union([index.box for index in group]),
        confidence=alternatives[0].probability * max(index.detection_confidence for index in group),
        alternatives=alternatives,
        indices=tuple(group),
    )


def split_rows(anchors: Sequence[tuple[float, float]], scale: float) -> list[list[int]]:
    """Row-frame anchor points split into rows (top to bottom), each ordered left to right."""
    order = sorted(range(len(anchors)), key=lambda i: anchors[i][1])
    rows: list[list[int]] = []
    previous_y = -math.inf
    for i in order:
        y = anchors[i][1]
        if y - previous_y > ROW_GAP * scale:
            rows.append([])
        rows[-1].append(i)
        previous_y = y
    return [sorted(row, key=lambda i: anchors[i][0]) for row in rows]


def _anchor(group: Sequence[IndexRead], angle: float) -> tuple[float, float]:
    """Where a card sits in the row frame: its top-most index (the top-left corner, as laid)."""
    return min((rotate(index.centre, angle) for index in group), key=lambda point: point[1])


def _distance(a: IndexRead, b: IndexRead) -> float:
    (ax, ay), (bx, by) = a.centre, b.centre
    return math.hypot(ax - bx, ay - by)


def _across_row(a: IndexRead, b: IndexRead, angle: float) -> float:
    return abs(rotate(a.centre, angle)[1] - rotate(b.centre, angle)[1])


def _union(boxes: Sequence[Box]) -> Box:
    return (
        min(box[0] for box in boxes),
        min(box[1] for box in boxes),
        max(box[2] for box in boxes),
        max(box[3] for box in boxes),
    )
