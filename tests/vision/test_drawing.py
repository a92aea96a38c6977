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


def test_labels_name_the_card_only_where_every_label_fits_before_the_next_card() -> None:
    from blackcat.vision.drawing import card_labels

    wide = PhotoRead(
        300, 200, ((read("QS", (10, 60, 20, 80), 0.99), read("8C", (110, 60, 120, 80), 0.99)),)
    )
    tight = PhotoRead(
        300, 200, ((read("QS", (10, 60, 20, 80), 0.99), read("8C", (40, 60, 50, 80), 0.99)),)
    )
    ten_a_letter = lambda text: 10.0 * len(text)  # noqa: E731
    assert card_labels(wide, True, ten_a_letter) == (("1.1 QS", "1.2 8C"),)
    assert card_labels(tight, True, ten_a_letter) == (("1.1", "1.2"),)
    assert card_labels(tight, False, ten_a_letter) == (("1", "2"),)  # one set of cards
    assert card_labels(PhotoRead(300, 200, ((), wide.piles[0])), True, ten_a_letter) == (
        (),
        ("2.1 QS", "2.2 8C"),
    )


def test_a_doubtful_cards_label_ends_in_a_question_mark_seen_without_its_colour() -> None:
    # to a colour-blind eye the doubtful orange is pile 2's green (protanopia) or pile 1's blue
    # (no colour at all): the label tells it apart
    from blackcat.vision.drawing import card_labels

    photo = PhotoRead(
        300, 200, ((read("QS", (10, 60, 20, 80), 0.99), read("8C", (110, 60, 120, 80), 0.4)),)
    )
    ten_a_letter = lambda text: 10.0 * len(text)  # noqa: E731
    assert card_labels(photo, True, ten_a_letter) == (("1.1 QS", "1.2 8C?"),)
    assert card_labels(photo, False, lambda text: 1000.0) == (("1", "2?"),)  # no room


def test_places_too_small_to_read_are_boxed_in_red_with_a_question_mark() -> None:
    from blackcat.vision.drawing import UNREAD_COLOUR

    image = np.zeros((200, 300, 3), dtype=np.uint8)
    photo = PhotoRead(300, 200, (), unread_places=((100.0, 50.0, 250.0, 150.0),))
    drawn = annotate(image, photo)
    assert tuple(drawn[120, 100]) == UNREAD_COLOUR  # its left edge
    assert tuple(drawn[120, 250]) == UNREAD_COLOUR  # its right edge
    assert not drawn[100, 175].any()  # nothing drawn over the place itself


def test_a_read_scaled_to_a_smaller_copy_keeps_its_cards_and_moves_every_box() -> None:
    from blackcat.vision.drawing import scaled_read

    photo = PhotoRead(
        400, 200, ((read("QS", (40, 60, 80, 120), 0.99),),), unread_places=((200, 40, 360, 160),)
    )
    half = scaled_read(photo, 0.5)
    assert (half.width, half.height) == (200, 100)
    card = half.piles[0][0]
    assert card.card == photo.piles[0][0].card and card.confidence == 0.99
    assert card.box == card.indices[0].box == (20.0, 30.0, 40.0, 60.0)
    assert half.unread_places == ((100.0, 20.0, 180.0, 80.0),)
