"""Draw what was read on the photo: a numbered box per card, matching the card list."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from blackcat.vision.types import PhotoRead

PILE_COLOURS: tuple[tuple[int, int, int], ...] = (
    (30, 144, 255),  # blue
    (46, 160, 67),  # green
    (155, 89, 182),  # purple
    (230, 126, 34),  # orange
)
DOUBTFUL_COLOUR = (220, 20, 60)  # red


def card_number(pile_index: int, position: int) -> str:
    """How a card is numbered on the photo and in lists: pile 1, card 3 is `1.3`."""
    return f"{pile_index + 1}.{position + 1}"


def annotate(image: np.ndarray, photo: PhotoRead) -> np.ndarray:
    """A copy of the RGB photo with each card's box and number; doubtful cards in red."""
    canvas = Image.fromarray(image)  # a copy: the photo itself is left alone
    draw = ImageDraw.Draw(canvas)
    scale = max(image.shape[:2]) / 1000
    thickness = max(1, round(2 * scale))
    font = ImageFont.load_default(size=max(11, round(18 * scale)))
    for pile_index, pile in enumerate(photo.piles):
        colour = PILE_COLOURS[pile_index % len(PILE_COLOURS)]
        for position, read in enumerate(pile):
            box_colour = DOUBTFUL_COLOUR if read.doubtful else colour
            for index in read.indices:
                x1, y1, x2, y2 = (round(v) for v in index.box)
                draw.rectangle((x1, y1, x2, y2), outline=box_colour, width=thickness)
            x1, y1 = (round(v) for v in read.box[:2])
            label = f"{card_number(pile_index, position)} {read.card.code}"
            left, top, right, bottom = draw.textbbox((0, 0), label, font=font)
            height = bottom - top + 2 * thickness
            label_top = max(0, y1 - height - thickness)
            draw.rectangle(
                (x1, label_top, x1 + right - left + 2 * thickness, label_top + height),
                fill=box_colour,
            )
            draw.text((x1 + thickness - left, label_top + thickness - top), label, "white", font)
    return np.asarray(canvas)
