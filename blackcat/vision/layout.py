"""From read corner indices to piles: find the photo's up, drop what is no card, merge the
corners of one card, group rows, order them, and give each card one card of a deck.

A pure function of the detections, so it is tested without any model. Distances are measured in
units of the median index height, which makes every threshold independent of the photo's size.

A card's top corner index stands the way the card does; its bottom one (on nearly every deck)
stands upside down. The glyphs' orientations (from the classifier) give the photo's up: the way
most card indices stand. In that frame an upside-down index is a card's bottom corner: it
confirms a card beside it or is dropped, and never becomes a card or a pile of its own.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from statistics import median

import numpy as np

from blackcat.games.cards import ALL_CARDS, Card
from blackcat.vision.calibration import UNCALIBRATED, Calibration
from blackcat.vision.types import Box, Evidence, Guess, IndexRead, PhotoRead, ReadCard

MAX_CORNER_DISTANCE = 9.0
"""Two indices of one card lie at most this many index heights apart (corner to corner)."""

MIN_CORNER_DISTANCE = 1.6
"""...and at least this far (a top-left and a top-right index: about three heights): two cards
side by side in a row lie closer (only the index strip of each shows), so two neighbours read
as the same card are not joined into one."""

MIN_CORNER_OFFSET_ACROSS_ROW = 1.5
"""With two decks, two indices of one card differ by at least this across the row direction
(top-left vs bottom-right); two copies of a card in one row differ only along it."""

ROW_GAP = 1.8
"""A gap of more than this many index heights across the row direction starts a new row."""

SAME_INDEX_WITHIN = 0.5
"""Two detections whose centres lie closer than this many index heights are one index found
twice (the detector's overlap suppression leaves such pairs): the more confident one is kept."""

NOT_AN_INDEX_ABOVE = 0.5
"""A detection the classifier finds more likely no index at all (a pip, face art) is dropped."""

UPRIGHT_PRIOR = 1.0
"""A nudge towards the photo's own up, worth one sure index, for glyphs split about evenly: a
spread row of a two-index deck, or a row of a four-index deck, looks the same either way up."""

MAX_ROW_TILT_DEGREES = 45.0
TOP_GUESSES = 3


def arrange(
    indices: Sequence[IndexRead],
    *,
    decks: int = 1,
    width: int = 0,
    height: int = 0,
    calibration: Calibration = UNCALIBRATED,
) -> PhotoRead:
    """Piles (rows, top to bottom as the cards stand), each ordered left to right."""
    indices = [index for index in indices if index.index_probability >= NOT_AN_INDEX_ABOVE]
    if not indices:
        return PhotoRead(width=width, height=height, piles=())
    scale = median(index.height for index in indices)
    indices = drop_repeated_detections(indices, scale)
    up = photo_up(indices)
    centres = [turn_to_up(index.centre, up, width, height) for index in indices]
    tops = [i for i, index in enumerate(indices) if not _upside_down(index, up)]
    bottoms = [i for i, index in enumerate(indices) if _upside_down(index, up)]
    angle = row_angle([centres[i] for i in tops], scale)
    framed = [rotate(centre, angle) for centre in centres]
    groups = group_corners(indices, tops, framed, decks=decks, scale=scale)
    groups = attach_bottom_corners(indices, bottoms, groups, framed, scale=scale)
    cards = [merge_group([indices[i] for i in group], calibration, up) for group in groups]
    shown = [n for n, card in enumerate(cards) if card.confidence >= calibration.drop_below]
    cards, groups = [cards[n] for n in shown], [groups[n] for n in shown]
    if decks == 1:
        cards = one_of_each(cards)
    anchors = [min((framed[i] for i in group), key=lambda point: point[1]) for group in groups]
    rows = split_rows(anchors, scale)
    piles = tuple(tuple(cards[i] for i in row) for row in rows)
    return PhotoRead(width=width, height=height, piles=piles)


def drop_repeated_detections(indices: Sequence[IndexRead], scale: float) -> list[IndexRead]:
    """The indices without second detections of one index, most confident kept."""
    kept: list[IndexRead] = []
    for index in sorted(indices, key=lambda index: -index.confidence):
        if all(
            _distance(index.centre, other.centre) >= SAME_INDEX_WITHIN * scale for other in kept
        ):
            kept.append(index)
    return kept


def photo_up(indices: Sequence[IndexRead]) -> int:
    """The quarter turn most card glyphs stand at (0 when the classifier gives none)."""
    votes = np.zeros(4)
    votes[0] = UPRIGHT_PRIOR
    for index in indices:
        if index.orientations:
            votes += np.asarray(index.orientations) * index.confidence
    return int(np.argmax(votes))


def turn_to_up(point: tuple[float, float], up: int, width: int, height: int) -> tuple[float, float]:
    """A photo point in the frame where glyphs standing at quarter turn `up` stand upright."""
    x, y = point
    if up == 1:  # glyph tops point right: turn the picture a quarter anticlockwise
        return y, width - x
    if up == 2:
        return width - x, height - y
    if up == 3:
        return height - y, x
    return x, y


def _stands_with(index: IndexRead, up: int) -> float:
    """Probability that the glyph stands with the photo's up or upside down (1 if unknown)."""
    if not index.orientations:
        return 1.0
    return index.orientations[up] + index.orientations[(up + 2) % 4]


def _upside_down(index: IndexRead, up: int) -> bool:
    return index.orientation is not None and (index.orientation - up) % 4 == 2


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
    indices: Sequence[IndexRead],
    members: Sequence[int],
    framed: Sequence[tuple[float, float]],
    *,
    decks: int,
    scale: float,
) -> list[list[int]]:
    """The indices `members` (positions in `indices`) grouped so that each group is one card.

    Indices read as the same card, at a distance two corners of one card lie apart, are joined.
    With one deck a card exists once, so every such pair joins. With two decks a pair joins only
    if it is offset across the row (top-left and bottom-right corner), and each index joins at
    most one other, since two copies of a card may lie side by side.
    """
    by_card: dict[Card, list[int]] = defaultdict(list)
    for i in members:
        by_card[indices[i].card].append(i)

    parent = {i: i for i in members}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    paired: set[int] = set()
    for same in by_card.values():
        candidates = sorted(
            (_distance(framed[i], framed[j]), i, j)
            for n, i in enumerate(same)
            for j in same[n + 1 :]
        )
        for distance, i, j in candidates:
            if distance > MAX_CORNER_DISTANCE * scale:
                break
            if distance < MIN_CORNER_DISTANCE * scale:
                continue
            if decks == 1:
                parent[find(i)] = find(j)
            elif (
                i not in paired
                and j not in paired
                and abs(framed[i][1] - framed[j][1]) >= MIN_CORNER_OFFSET_ACROSS_ROW * scale
            ):
                parent[find(i)] = find(j)
                paired.update((i, j))

    groups: dict[int, list[int]] = defaultdict(list)
    for i in members:
        groups[find(i)].append(i)
    return list(groups.values())


def attach_bottom_corners(
    indices: Sequence[IndexRead],
    bottoms: Sequence[int],
    groups: list[list[int]],
    framed: Sequence[tuple[float, float]],
    *,
    scale: float,
) -> list[list[int]]:
    """Each upside-down index joins the card it is the bottom corner of (the same card, above
    and left of it, within a card's reach), best match first; one that joins none is dropped."""
    groups = [list(group) for group in groups]
    candidates = []
    for b in bottoms:
        for g, group in enumerate(groups):
            top = min(group, key=lambda i: framed[i][1])
            distance = _distance(framed[b], framed[top])
            below = framed[b][1] - framed[top][1] >= MIN_CORNER_OFFSET_ACROSS_ROW * scale
            near = MIN_CORNER_DISTANCE * scale <= distance <= MAX_CORNER_DISTANCE * scale
            agreement = _agreement(indices[b], [indices[i] for i in group])
            if below and near and agreement > 0:
                candidates.append((-agreement, distance, b, g))
    taken: set[int] = set()
    joined = [0] * len(groups)
    for _, _, b, g in sorted(candidates):
        # a card shows one bottom-right and, on four-index decks, one bottom-left index
        if b not in taken and joined[g] < 2:
            groups[g].append(b)
            taken.add(b)
            joined[g] += 1
    return groups


def _agreement(bottom: IndexRead, group: Sequence[IndexRead]) -> float:
    """How strongly an upside-down index and a card agree on what the card is: the product of
    their probabilities for their best shared guess; 0 when they share none."""
    mine = {guess.card: guess.probability for guess in bottom.guesses}
    theirs: dict[Card, float] = defaultdict(float)
    for index in group:
        for guess in index.guesses:
            theirs[guess.card] += guess.probability / len(group)
    shared = [mine[card] * theirs[card] for card in mine if card in theirs]
    return max(shared, default=0.0)


def merge_group(
    group: Sequence[IndexRead], calibration: Calibration = UNCALIBRATED, up: int = 0
) -> ReadCard:
    """One card from its indices: guesses averaged over the indices, box around all of them, and
    one calibrated probability, which its alternatives share in the classifier's proportions.

    The raw belief multiplies the detector's, the classifier's "an index" and its best card, and
    how well the glyphs stand with the photo's up (or upside down): an index lying across the
    rows of a pile is most often a pip or face art."""
    totals: dict[Card, float] = defaultdict(float)
    for index in group:
        for guess in index.guesses:
            totals[guess.card] += guess.probability / len(group)
    ranked = sorted(totals.items(), key=lambda item: -item[1])[:TOP_GUESSES]
    is_index = sum(index.index_probability for index in group) / len(group)
    detected = max(index.detection_confidence for index in group)
    upright = sum(_stands_with(index, up) for index in group) / len(group)
    evidence = Evidence(ranked[0][1], detected, is_index, upright, len(group))
    probability = calibration(evidence)
    best, rest = ranked[0][1], max(1e-9, 1.0 - ranked[0][1])
    alternatives = (
        Guess(ranked[0][0], probability),
        *tuple(
            Guess(card, min(probability * share / best, (1.0 - probability) * share / rest))
            for card, share in ranked[1:]
        ),
    )
    return ReadCard(
        card=alternatives[0].card,
        box=_union([index.box for index in group]),
        confidence=probability,
        alternatives=alternatives,
        indices=tuple(group),
        doubtful_below=calibration.doubtful_below,
        evidence=evidence,
    )


def one_of_each(cards: Sequence[ReadCard]) -> list[ReadCard]:
    """With one deck, each card at most once: the most probable set of cards (a linear
    assignment over each card's ranked guesses). A card that can only be a card already taken
    keeps its own best guess, so the person sees the conflict."""
    from scipy.optimize import linear_sum_assignment

    codes = {card: column for column, card in enumerate(ALL_CARDS)}
    impossible = 1e6
    cost = np.full((len(cards), len(ALL_CARDS)), impossible)
    for row, card in enumerate(cards):
        for guess in card.alternatives:
            cost[row, codes[guess.card]] = -math.log(max(guess.probability, 1e-9))
    out = list(cards)
    for row, column in zip(*linear_sum_assignment(cost), strict=True):
        chosen = ALL_CARDS[column]
        if cost[row, column] >= impossible or chosen == cards[row].card:
            continue
        alternatives = sorted(cards[row].alternatives, key=lambda guess: guess.card != chosen)
        out[row] = replace(
            cards[row],
            card=chosen,
            confidence=alternatives[0].probability,
            alternatives=tuple(alternatives),
        )
    return out


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


def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _union(boxes: Sequence[Box]) -> Box:
    return (
        min(box[0] for box in boxes),
        min(box[1] for box in boxes),
        max(box[2] for box in boxes),
        max(box[3] for box in boxes),
    )
