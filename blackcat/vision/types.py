"""Values passed between the stages of the photo reader. No model code here."""

from __future__ import annotations

from dataclasses import dataclass

from blackcat.cards import Card

Box = tuple[float, float, float, float]
"""x1, y1, x2, y2 in pixels of the full-resolution, EXIF-upright photo."""

DOUBTFUL_BELOW = 0.80
"""A card read with less confidence than this is flagged for the person to check."""


@dataclass(frozen=True)
class Guess:
    """One of the classifier's ranked answers for a card."""

    card: Card
    probability: float


@dataclass(frozen=True)
class IndexRead:
    """One corner index found by the detector and read by the classifier."""

    box: Box
    detection_confidence: float
    guesses: tuple[Guess, ...]  # best first, at least one

    @property
    def card(self) -> Card:
        return self.guesses[0].card

    @property
    def confidence(self) -> float:
        """Probability that this index shows `card`: detector and classifier both right."""
        return self.detection_confidence * self.guesses[0].probability

    @property
    def centre(self) -> tuple[float, float]:
        x1, y1, x2, y2 = self.box
        return (x1 + x2) / 2, (y1 + y2) / 2

    @property
    def height(self) -> float:
        return self.box[3] - self.box[1]


@dataclass(frozen=True)
class ReadCard:
    """A card of a pile as read from the photo: one or more of its corner indices merged."""

    card: Card
    box: Box  # around the card's visible indices
    confidence: float
    alternatives: tuple[Guess, ...]  # the top guesses, best first (the first is `card`)
    indices: tuple[IndexRead, ...]

    @property
    def doubtful(self) -> bool:
        return self.confidence < DOUBTFUL_BELOW


@dataclass(frozen=True)
class PhotoRead:
    """Everything read from one photo: piles top to bottom, each ordered left to right."""

    width: int
    height: int
    piles: tuple[tuple[ReadCard, ...], ...]

    @property
    def card_count(self) -> int:
        return sum(len(pile) for pile in self.piles)
