"""Draw what was read on the photo: a numbered box per card, matching the card list."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from blackcat.games.cards import card_number  # how a card is numbered on the photo: `1.3`
from blackcat.vision.types import Box, PhotoRead, ReadCard

PILE_COLOURS: tuple[tuple[int, int, int], ...] = (
    (30, 144, 255),  # blue
    (46, 160, 67),  # green
    (155, 89, 182),  # purple
    (216, 27, 96),  # pink
)
DOUBTFUL_COLOUR = (245, 124, 0)  # orange, as the app marks a doubtful card (no pile's colour)
# after a doubtful card's label: orange alone is a pile's green or blue to a colour-blind eye
DOUBTFUL_MARK = "?"
UNREAD_COLOUR = (220, 20, 60)  # red: a place whose cards are too small to read
UNREAD_LABEL = "?"


def scaled_card(read: ReadCard, factor: float) -> ReadCard:
    """A read card with its boxes in the pixels of a copy `factor` times the photo's size."""
    indices = tuple(replace(index, box=scaled_box(index.box, factor)) for index in read.indices)
    return replace(read, box=scaled_box(read.box, factor), indices=indices)


def scaled_box(box: Box, factor: float) -> Box:
    x1, y1, x2, y2 = (value * factor for value in box)
    return x1, y1, x2, y2


def scaled_boxes(boxes: Sequence[Box], factor: float) -> tuple[Box, ...]:
    """Boxes in the pixels of a copy `factor` times the photo's size."""
    return tuple(scaled_box(box, factor) for box in boxes)


def scaled_read(photo: PhotoRead, factor: float) -> PhotoRead:
    """What was read of a photo, its boxes in the pixels of a copy `factor` times its size."""
    return replace(
        photo,
        piles=tuple(tuple(scaled_card(read, factor) for read in pile) for pile in photo.piles),
        unread_places=scaled_boxes(photo.unread_places, factor),
        width=round(photo.width * factor),
        height=round(photo.height * factor),
    )


def annotate(image: np.ndarray, photo: PhotoRead, *, by_pile: bool = True) -> np.ndarray:
    """A copy of the RGB photo with each card's box and number; doubtful cards in orange, their
    labels ending in `DOUBTFUL_MARK`, and each place whose indices were too small to read
    (`PhotoRead.unread_places`) boxed in red.

    A card is numbered as in the card lists: `1.3` (pile, place), or `3` where the photo's cards
    are one set (`by_pile=False`: a Black Lady player's tricks). The card's name follows its
    number only where the labels fit between neighbouring cards; otherwise the numbers alone."""
    canvas = Image.fromarray(image)  # a copy: the photo itself is left alone
    draw = ImageDraw.Draw(canvas)
    scale = max(image.shape[:2]) / 1000
    thickness = max(1, round(2 * scale))
    font = ImageFont.load_default(size=max(11, round(18 * scale)))

    labels = card_labels(photo, by_pile, lambda text: _text_width(draw, text, font) + 2 * thickness)
    for pile_index, pile in enumerate(photo.piles):
        colour = PILE_COLOURS[pile_index % len(PILE_COLOURS)]
        for position, read in enumerate(pile):
            box_colour = DOUBTFUL_COLOUR if read.doubtful else colour
            for index in read.indices:
                x1, y1, x2, y2 = (round(v) for v in index.box)
                draw.rectangle((x1, y1, x2, y2), outline=box_colour, width=thickness)
            x1, y1 = (round(v) for v in read.box[:2])
            label = labels[pile_index][position]
            left, top, right, bottom = draw.textbbox((0, 0), label, font=font)
            height = bottom - top + 2 * thickness
            label_top = max(0, y1 - height - thickness)
            draw.rectangle(
                (x1, label_top, x1 + right - left + 2 * thickness, label_top + height),
                fill=box_colour,
            )
            draw.text((x1 + thickness - left, label_top + thickness - top), label, "white", font)
    for place in photo.unread_places:
        x1, y1, x2, y2 = (round(v) for v in place)
        draw.rectangle((x1, y1, x2, y2), outline=UNREAD_COLOUR, width=2 * thickness)
        left, top, right, bottom = draw.textbbox((0, 0), UNREAD_LABEL, font=font)
        draw.rectangle(
            (x1, y1, x1 + right - left + 4 * thickness, y1 + bottom - top + 4 * thickness),
            fill=UNREAD_COLOUR,
        )
        draw.text(
            (x1 + 2 * thickness - left, y1 + 2 * thickness - top), UNREAD_LABEL, "white", font
        )
    return np.asarray(canvas)


def card_labels(
    photo: PhotoRead, by_pile: bool, width_of: Callable[[str], float]
) -> tuple[tuple[str, ...], ...]:
    """Each card's label: its number and name (`1.3 QS`) where every label fits before the next
    card of its row, else its number alone; a doubtful card's ends in `DOUBTFUL_MARK` (`1.3?`);
    `by_pile=False` numbers the cards 1, 2, 3..."""

    def number(pile_index: int, position: int) -> str:
        return card_number(pile_index, position) if by_pile else str(position + 1)

    def doubt(read: ReadCard) -> str:
        return DOUBTFUL_MARK if read.doubtful else ""

    named = [
        [f"{number(p, n)} {read.card.code}{doubt(read)}" for n, read in enumerate(pile)]
        for p, pile in enumerate(photo.piles)
    ]
    fits = all(
        width_of(label) <= room
        for pile, labels in zip(photo.piles, named, strict=True)
        for label, room in zip(labels, _rooms(pile), strict=True)
    )
    if fits:
        return tuple(tuple(labels) for labels in named)
    return tuple(
        tuple(number(p, n) + doubt(read) for n, read in enumerate(pile))
        for p, pile in enumerate(photo.piles)
    )


def _rooms(pile: Sequence[ReadCard]) -> list[float]:
    """The width each card's label may take: up to the next card of the row (the last one as
    much as the one before it)."""
    if not pile:
        return []
    lefts = [read.box[0] for read in pile]
    steps = [abs(b - a) for a, b in itertools.pairwise(lefts)]
    return [*steps, steps[-1] if steps else float("inf")]


def _text_width(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.ImageFont) -> float:
    left, _, right, _ = draw.textbbox((0, 0), text, font=font)
    return right - left
