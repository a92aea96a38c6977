"""photo_view: the cache key of the annotated photo."""

from __future__ import annotations

from dataclasses import replace

import photo_view
import pytest

from blackcat.games.cards import parse_card
from blackcat.tables.black_cat_table import PhotoMarks, Slot
from blackcat.vision.types import Guess, IndexRead, ReadCard


def read_slot(code: str, x: float, confidence: float = 0.9) -> Slot:
    card = parse_card(code)
    guesses = (Guess(card, confidence), Guess(parse_card("2C"), 1 - confidence))
    index = IndexRead((x, 10.0, x + 20.0, 40.0), 0.8, guesses)
    return Slot(card, read=ReadCard(card, (x, 10.0, x + 60.0, 90.0), confidence, guesses, (index,)))


MARKS = ((0, 0, read_slot("QS", 0.0)), (0, 1, read_slot("10H", 70.0, confidence=0.4)))


def test_the_drawing_key_is_the_same_for_the_same_drawing() -> None:
    again = ((0, 0, read_slot("QS", 0.0)), (0, 1, read_slot("10H", 70.0, confidence=0.4)))
    assert photo_view.drawing_key(MARKS) == photo_view.drawing_key(again)


def test_the_drawing_key_ignores_what_the_photo_does_not_show() -> None:
    slot = MARKS[0][2]
    assert slot.read is not None
    fewer_guesses = replace(slot, read=replace(slot.read, alternatives=slot.read.alternatives[:1]))
    assert photo_view.drawing_key(((0, 0, fewer_guesses), MARKS[1])) == photo_view.drawing_key(
        MARKS
    )


@pytest.mark.parametrize(
    "changed",
    [
        ((0, 0, replace(MARKS[0][2], card=parse_card("KS"))), MARKS[1]),  # a corrected card
        (MARKS[0], (0, 1, replace(MARKS[1][2], checked=True))),  # a doubtful card confirmed
        (MARKS[0], (0, 1, read_slot("10H", 75.0, confidence=0.4))),  # another box
        (MARKS[0], (1, 0, MARKS[1][2])),  # moved to another pile
        (MARKS[0], (0, 2, MARKS[1][2])),  # a typed card before it
        MARKS[:1],  # taken off
    ],
)
def test_the_drawing_key_changes_with_what_the_photo_shows(changed: PhotoMarks) -> None:
    assert photo_view.drawing_key(changed) != photo_view.drawing_key(MARKS)


def test_the_zoomed_photo_is_centred_on_its_cards() -> None:
    # the cards' boxes span 0-130 px of a 260 px photo shown at half size (factor 0.5)
    assert photo_view.cards_centre(MARKS, 0.5, 130) == pytest.approx(0.25)  # 65 of 260 px
    assert photo_view.cards_centre(MARKS, 1.0, 520) == pytest.approx(0.125)
    typed = ((0, 0, Slot(parse_card("QS"))),)  # no box to centre on
    assert photo_view.cards_centre(typed, 1.0, 520) == 0.5
    html = photo_view.zoomed_html("k1", b"jpeg", 0.125)
    assert 'id="bc-zoom-k1"' in html and "z.scrollWidth * 0.1250" in html
