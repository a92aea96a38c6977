"""How far a photo's other reads agree with the read kept, card by card.

A small photo is read several ways (as it is, at the usual squeezes undone, smoothed: see
`CardReader.read`) and one read is kept. A card that most of the other reads also read, the
same card at the same place, is right far more often than its own probability says; one that
the others read as another card, or not at all, is wrong more often (measured on scattered
cards in 640 px frames, `models/README.md`, "Session 57"). The share of the other reads that
agree becomes part of the card's probability (`Calibration.agreed`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from blackcat.vision.calibration import Calibration
from blackcat.vision.types import PhotoRead, ReadCard, contains

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
