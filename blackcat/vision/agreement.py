"""How far a photo's other reads agree with the read kept, card by card.

A small photo is read several ways (as it is, at the usual squeezes undone, smoothed: see
`CardReader.read`) and one read is kept. A card that most of the other reads also read, the
same card at the same place, is right far more often than its own probability says; one that
the others read as another card, or not at all, is wrong more often (measured on scattered
cards in 640 px frames, `models/HISTORY.md`, "Session 57"). The share of the other reads that
agree becomes part of the card's probability (`Calibration.agreed`). A flagged card of one index
that at least half of them read as another card's far corner is that card's, misread, and goes
(`without_corners_read_as_others`, "Session 62").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from blackcat.vision.calibration import Calibration
from blackcat.vision.table_layout import closed_up, laid_pile, with_piles
from blackcat.vision.types import Box, PhotoRead, ReadCard, contains

REACH = 0.25  # an index box's reach around itself, as a share of its size, where another lies
SPLIT_CORNER = 0.3
"""A card of several indices, one of which reads another card at least this likely, is made no
surer by the other reads: they repeat the same join of another card's index to it (a harder
kitty scene's KS index joined to a 10S of the other pile, its KS then missing unmarked)."""


def same_place(card: ReadCard, other: ReadCard) -> bool:
    """Whether two reads of a photo's cards lie at the same place: an index of one has its
    centre within an index of the other (with REACH around it)."""
    return any(
        contains(mine.box, theirs.centre, REACH) or contains(theirs.box, mine.centre, REACH)
        for mine in card.indices
        for theirs in other.indices
    )


def agreement_share(card: ReadCard, others: Sequence[PhotoRead]) -> float:
    """The share of the `others` reads that read `card` too: the same card at the same place."""
    agreeing = sum(
        any(
            theirs.card == card.card and same_place(card, theirs)
            for pile in other.piles
            for theirs in pile
        )
        for other in others
    )
    return agreeing / len(others)


def agreed(read: PhotoRead, others: Sequence[PhotoRead], calibration: Calibration) -> PhotoRead:
    """`read` with each card's agreement with the photo's `others` reads noted and taken into
    its probability (`Calibration.agreed`); as it is where there are no others. A card read
    only where a pile lost one keeps its probability (no detector found it: always flagged)."""
    if not others:
        return read

    def noted(card: ReadCard) -> ReadCard:
        if all(index.in_gap for index in card.indices):
            return card
        share = agreement_share(card, others)
        probability = calibration.agreed(card.confidence, share)
        if split_corners(card):
            probability = min(probability, card.confidence)
        return replace(with_probability(card, probability), agreement=share)

    return replace(read, piles=tuple(tuple(noted(card) for card in pile) for pile in read.piles))


def corner_of_another(card: ReadCard, mine: Sequence[ReadCard], other: PhotoRead) -> bool:
    """Whether the `other` read reads `card`'s place as part of another card that the kept
    read (`mine`, its cards) reads too, at that card's own place, at least CORNERS_APART from
    `card` and with an index alike in shape (`shaped_alike`): `card` is its far corner."""
    return any(
        theirs.card != card.card
        and any(
            kept is not card
            and kept.card == theirs.card
            and same_place(kept, theirs)
            and corners_apart(card, kept)
            and any(shaped_alike(card.indices[0].box, index.box) for index in kept.indices)
            for kept in mine
        )
        for pile in other.piles
        for theirs in pile
        if same_place(card, theirs)
    )


def corners_apart(card: ReadCard, other: ReadCard) -> bool:
    """Whether every index of `other` lies CORNERS_APART or farther from `card`'s index."""
    x1, y1, x2, y2 = card.indices[0].box
    size = max(x2 - x1, y2 - y1)
    cx, cy = card.indices[0].centre
    return all(
        math.hypot(index.centre[0] - cx, index.centre[1] - cy) >= CORNERS_APART * size
        for index in other.indices
    )


CORNERS_APART = 1.5
"""A card's own corner indices lie a card's width or height apart, about three index sizes
(their boxes' long sides) on a poker card; indices of cards fanned or overlapping lie within
one (the lone corners other reads joined to a neighbour on four-index scattered cards: 0.36 to
0.67 apart; the misread corners of rf100's photos: 1.84 to 3.97)."""


def shaped_alike(box: Box, other: Box) -> bool:
    """Whether two index boxes are alike in shape, width to height within ALIKE_WITHIN of each
    other: a card's corners are printed alike and lie at its one angle."""
    shapes = sorted((max(x2 - x1, 1e-9) / max(y2 - y1, 1e-9) for x1, y1, x2, y2 in (box, other)))
    return shapes[1] <= ALIKE_WITHIN * shapes[0]


ALIKE_WITHIN = 1.3
"""The misread corners of rf100's photos and 640 px frames were within 1.25 of the shape of an
index of their card; a card lying across another's corner at its own angle, which other reads
took for that corner, 1.38 and more (four-index scattered cards drawn afresh: a KS's box 80
by 48 px against its neighbour's 23 by 57)."""


def without_corners_read_as_others(read: PhotoRead, others: Sequence[PhotoRead]) -> PhotoRead:
    """`read` less each flagged card of one index that at least half of the photo's `others`
    reads (two or more of them) read as a corner of another card the kept read reads too
    (`corner_of_another`): a four-index deck's corner misread (glare, noise) and left apart
    from its card. No gap is left: the card is there, read."""
    if len(others) < MIN_OTHERS_FOR_CORNERS:
        return read
    mine = [card for pile in read.piles for card in pile]
    dropped = {
        id(card)
        for card in mine
        if len(card.indices) == 1
        and card.doubtful
        and not card.indices[0].in_gap
        and 2 * sum(corner_of_another(card, mine, other) for other in others) >= len(others)
    }
    if not dropped:
        return read
    piles = []
    for n in range(len(read.piles)):
        pile = laid_pile(read, n)
        gone = [k for k, card in enumerate(pile.cards) if id(card) in dropped]
        cards = tuple(card for card in pile.cards if id(card) not in dropped)
        if cards:
            piles.append(replace(pile, cards=cards, gaps=closed_up(pile.gaps, gone)))
    return with_piles(read, piles)


MIN_OTHERS_FOR_CORNERS = 2
"""A corner is cleared only where at least this many other reads were made: one read's join
alone is no majority."""


def split_corners(card: ReadCard) -> bool:
    """Whether one of a card's several indices reads another card SPLIT_CORNER likely or more."""
    return len(card.indices) > 1 and any(
        guess.card != card.card and guess.probability >= SPLIT_CORNER
        for index in card.indices
        for guess in index.guesses
    )


def with_probability(card: ReadCard, probability: float) -> ReadCard:
    """`card` now `probability` sure, its other guesses scaled alike so that none is likelier
    than it and all of them are no likelier than its not being it (`layout.merge_group`)."""
    before = card.confidence
    scale = min(probability / max(before, 1e-9), (1.0 - probability) / max(1.0 - before, 1e-9))
    alternatives = tuple(
        replace(
            guess,
            probability=probability if guess.card == card.card else guess.probability * scale,
        )
        for guess in card.alternatives
    )
    return replace(card, confidence=probability, alternatives=alternatives)
