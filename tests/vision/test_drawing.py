"""Drawing the read cards on the photo."""

from __future__ import annotations

import numpy as np

from blackcat.games.cards import Card
from blackcat.vision.drawing import DOUBTFUL_COLOUR, PILE_COLOURS, annotate, card_number
from blackcat.vision.types import Guess, IndexRead, PhotoRead, ReadCard


def read(code: str, box: tuple[float, float, float, float], confidence: float) -> ReadCard:
    card = Card.parse(code)
    index = IndexRead(box, 1.0, (Guess(card, confidence),))
    return ReadCard(card, box, confidence, (Guess(card, confidence),), (index,))


def test_cards_are_numbered_by_pile_and_position_from_one() -> None:
    assert card_number(0, 0) == "1.1"
    assert card_number(1, 4) == "2.5"


def test_boxes_are_drawn_in_the_pile_colour_and_doubtful_ones_in_red() -> None:
    image = np.zeros((200, 300, 3), dtype=np.uint8)
    photo = PhotoRead(
        300, 200, ((read("QS", (50, 60, 80, 110), 0.99), read("8C", (150, 60, 180, 110), 0.4)),)
    )
    drawn = annotate(image, photo)
    assert tuple(drawn[85, 50]) == PILE_COLOURS[0]  # left edge of the first box
    assert tuple(drawn[85, 150]) == DOUBTFUL_COLOUR
    assert not image.any()  # the photo itself is left alone
