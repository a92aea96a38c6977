"""Draw what was read on the photo: a numbered box per card, matching the card list."""

from __future__ import annotations

import cv2
import numpy as np

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
    canvas = image.copy()
    scale = max(canvas.shape[:2]) / 1000
    thickness = max(1, round(2 * scale))
    font_scale = max(0.4, 0.6 * scale)
    for pile_index, pile in enumerate(photo.piles):
        colour = PILE_COLOURS[pile_index % len(PILE_COLOURS)]
        for position, read in enumerate(pile):
            box_colour = DOUBTFUL_COLOUR if read.doubtful else colour
            for index in read.indices:
                x1, y1, x2, y2 = (round(v) for v in index.box)
                cv2.rectangle(canvas, (x1, y1), (x2, y2), box_colour, thickness)
            x1, y1 = (round(v) for v in read.box[:2])
            label = f"{card_number(pile_index, position)} {read.card.code}"
            (width, height), baseline = cv2.getTextSize(
                label, cv2.FONT_HERSHEY_SIMPLEX, font_scale, thickness
            )
            top = max(0, y1 - height - baseline - thickness)
            cv2.rectangle(canvas, (x1, top), (x1 + width, top + height + baseline), box_colour, -1)
            cv2.putText(
                canvas,
                label,
                (x1, top + height),
                cv2.FONT_HERSHEY_SIMPLEX,
                font_scale,
                (255, 255, 255),
                thickness,
                cv2.LINE_AA,
            )
    return canvas
