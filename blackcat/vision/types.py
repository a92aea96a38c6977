"""Values passed between the stages of the photo reader. No model code here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from blackcat.games.cards import Card

Box = tuple[float, float, float, float]
"""x1, y1, x2, y2 in pixels of the full-resolution, EXIF-upright photo."""


def contains(box: Box, point: tuple[float, float], margin: float = 0.05) -> bool:
    """Whether `point` lies in `box` grown by `margin` of its size on every side."""
    x1, y1, x2, y2 = box
    dx, dy = (x2 - x1) * margin, (y2 - y1) * margin
    return x1 - dx <= point[0] <= x2 + dx and y1 - dy <= point[1] <= y2 + dy


DOUBTFUL_BELOW = 0.80
"""A card read with less confidence than this is flagged for the person to check, unless the
models' calibration (models/calibration.json) sets its own measured threshold."""


BLURRED_BELOW = 2.5
"""A photo whose read indices stand less sharp than this (`sharpness.photo_sharpness`: the
median of their steepest edges over their contrast) looks blurred. Measured in session 27
(models/HISTORY.md, "A blurred photo asks for a sharper one"): 23 of 40 kitty photos blurred by
0.2% of their long side fall below it; of unblurred photos, 1 of 149 real ones (dim and soft,
read with an error) and none of 390 kitty and table scenes."""


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
    guesses: tuple[Guess, ...]  # best first, at least one; probabilities given it is an index
    index_probability: float = 1.0  # the classifier's belief that this is an index at all
    orientations: tuple[float, ...] = ()  # probability of each quarter turn; () when unknown
    seen_turned: int = 0  # quarter turns anticlockwise the models saw it at (a table's side)
    in_gap: bool = False  # read where a pile's lost card must lie; no detector found it

    @property
    def card(self) -> Card:
        return self.guesses[0].card

    @property
    def confidence(self) -> float:
        """Raw belief that this index shows `card`: detector and classifier both right."""
        return self.detection_confidence * self.index_probability * self.guesses[0].probability

    @property
    def orientation(self) -> int | None:
        """The most likely quarter turn of the glyph (classes.QUARTER_TURNS), None if unknown."""
        if not self.orientations:
            return None
        return max(range(len(self.orientations)), key=self.orientations.__getitem__)

    @property
    def centre(self) -> tuple[float, float]:
        x1, y1, x2, y2 = self.box
        return (x1 + x2) / 2, (y1 + y2) / 2

    @property
    def height(self) -> float:
        return self.box[3] - self.box[1]


@dataclass(frozen=True)
class Evidence:
    """What the models say about one card, the inputs of its calibrated probability."""

    card: float  # the classifier's probability of the best card, given an index
    detected: float  # the detector's best confidence among the card's indices
    is_index: float  # the classifier's probability that it sees an index at all
    upright: float  # probability that the glyphs stand with the photo's up (or upside down)
    corners: int  # indices seen of this card
    framed: bool = False  # three of them stand as three corners of one card (a four-index deck)

    @property
    def raw(self) -> float:
        """The models' joint belief, before calibration."""
        return self.card * self.detected * self.is_index * self.upright


@dataclass(frozen=True)
class ReadCard:
    """A card of a pile as read from the photo: one or more of its corner indices merged."""

    card: Card
    box: Box  # around the card's visible indices
    confidence: float  # probability that the card is there and is `card` (calibrated)
    alternatives: tuple[Guess, ...]  # the top guesses, best first (the first is `card`)
    indices: tuple[IndexRead, ...]
    doubtful_below: float = DOUBTFUL_BELOW
    evidence: Evidence | None = None
    agreement: float | None = None  # share of the photo's other reads agreeing; None: one read

    @property
    def doubtful(self) -> bool:
        return self.confidence < self.doubtful_below


SIDES = ("near", "left", "far", "right")
"""The table side whose player reads a pile upright, by the quarter turn (classes.QUARTER_TURNS)
its glyphs stand at in the photo as stored: upright (their tops pointing to the photo's top) for
the photographer's side, the bottom of the photo ("near"); tops pointing right for the player on
the photo's left; upside down for the far side; tops pointing left for the right side."""


@dataclass(frozen=True)
class PhotoRead:
    """Everything read from one photo: piles top to bottom, each ordered left to right."""

    width: int
    height: int
    piles: tuple[tuple[ReadCard, ...], ...]
    gaps: tuple[tuple[int, ...], ...] = ()
    """Per pile, the positions before which a card may be missing, ascending (position
    len(pile): after its last card); () when the read gives none for any pile."""
    sides: tuple[str, ...] = ()
    """Per pile, the table side whose player reads it upright (SIDES); () means all "near"."""
    sharpness: float | None = None
    """How sharp the read cards' indices stand (`sharpness.read_sharpness`); None: not
    measured, or too few cards to tell."""
    unread_places: tuple[Box, ...] = ()
    """Places where the detector saw a group of card indices too small to read, or the photo
    shows card faces (`unread_faces`), and no card was read: whole piles may be missing there
    (a far player's, in a small photo)."""
    rows_or_columns: tuple[bool, ...] = ()
    """Per pile, whether its cards are part of a grid that reads as rows as well as columns
    (cards overlapping both ways): the reader can't tell which the player laid; () when no pile
    is."""
    sides_found: int = 0
    """How many sides of the table the first look found piles on, where the reader was told
    to expect fewer players (and gave the others' piles to their nearest players); 0: not
    counted."""
    in_no_row: tuple[bool, ...] = ()
    """Per pile, whether its cards lie in no row (scattered at their own angles, or fanned:
    `no_row`): they are counted, not ordered, and no gap is marked among them; () when no pile
    is said to."""

    @property
    def blurred(self) -> bool:
        """Whether the photo looks blurred, so that its cards may be misread."""
        return self.sharpness is not None and self.sharpness < BLURRED_BELOW

    @property
    def unsure(self) -> bool:
        """Whether any card is flagged or any card may be missing: something to check (a grid
        of piles, `rows_or_columns`, is told apart: a sharper photo would not settle it)."""
        return (
            any(card.doubtful for pile in self.piles for card in pile)
            or any(self.gaps)
            or bool(self.unread_places)
        )

    @property
    def wants_sharper_photo(self) -> bool:
        """Whether to ask for a sharper photo: it looks blurred and something in it is unsure
        (a blurred photo read surely needs none)."""
        return self.blurred and self.unsure

    @property
    def card_count(self) -> int:
        return sum(len(pile) for pile in self.piles)

    @property
    def whole_table(self) -> bool:
        """Piles on more than one side of the table: a photo of the whole table."""
        return len(set(self.sides)) > 1

    def side_of(self, pile: int) -> str:
        """The table side whose player reads pile `pile` upright (SIDES)."""
        return self.sides[pile] if pile < len(self.sides) else SIDES[0]

    def seats(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """Each table side with piles, in seat order (SIDES: the photographer's side first, then
        clockwise seen from above), and its piles (indexes, top to bottom as its player sees
        them)."""
        sides = [self.side_of(n) for n in range(len(self.piles))]
        return tuple(
            (side, tuple(n for n, own in enumerate(sides) if own == side))
            for side in SIDES
            if side in sides
        )

    def rows_or_columns_of(self, pile: int) -> bool:
        """Whether pile `pile` lies in a grid that reads as rows as well as columns."""
        return pile < len(self.rows_or_columns) and self.rows_or_columns[pile]

    @property
    def grid_piles(self) -> tuple[int, ...]:
        """The piles (indexes) that lie in a grid that reads as rows as well as columns."""
        return tuple(n for n in range(len(self.piles)) if self.rows_or_columns_of(n))

    def in_no_row_of(self, pile: int) -> bool:
        """Whether pile `pile`'s cards lie in no row: counted, not ordered."""
        return pile < len(self.in_no_row) and self.in_no_row[pile]

    @property
    def piles_in_no_row(self) -> tuple[int, ...]:
        """The piles (indexes) whose cards lie in no row."""
        return tuple(n for n in range(len(self.piles)) if self.in_no_row_of(n))

    def gaps_of(self, pile: int) -> tuple[int, ...]:
        """The positions in pile `pile` before which a card may be missing."""
        return self.gaps[pile] if pile < len(self.gaps) else ()

    def with_boxes(self, back: Callable[[Box], Box], width: int, height: int) -> PhotoRead:
        """The read with every box (cards' and their indices') mapped by `back` into another
        picture of the photo, `width` by `height` (the photo as it is, where it was read turned
        or stretched)."""
        piles = tuple(
            tuple(
                replace(
                    card,
                    box=back(card.box),
                    indices=tuple(replace(index, box=back(index.box)) for index in card.indices),
                )
                for card in pile
            )
            for pile in self.piles
        )
        unread = tuple(back(place) for place in self.unread_places)
        return replace(self, width=width, height=height, piles=piles, unread_places=unread)
