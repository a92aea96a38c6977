"""Card faces shown where no card was read: drawn pictures of a table."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from blackcat.games.cards import Card
from blackcat.vision.types import Guess, IndexRead, PhotoRead, ReadCard
from blackcat.vision.unread_faces import CARD_REACH, unread_faces

TABLE = (40, 110, 60)  # green baize
PAPER = (235, 235, 230)
INDEX = 20  # the read card's index height, pixels


def table(width: int = 640, height: int = 480) -> np.ndarray:
    return np.full((height, width, 3), TABLE, np.uint8)


def face(picture: np.ndarray, left: int, top: int, tall: int, ink: bool = True) -> None:
    """A card face `tall` pixels tall (width 0.7 of it), with pips and an index in ink."""
    wide = round(0.7 * tall)
    cv2.rectangle(picture, (left, top), (left + wide, top + tall), PAPER, -1)
    if ink:
        glyph = max(2, tall // 6)
        cv2.rectangle(picture, (left + 2, top + 2), (left + 2 + glyph // 2, top + 2 + glyph), 0, -1)
        for n in range(3):
            centre = (left + wide // 2, top + tall // 4 + n * tall // 4)
            cv2.circle(picture, centre, max(1, tall // 14), (20, 20, 20), -1)


def read_card_at(left: int, top: int) -> PhotoRead:
    """A read of one card whose index (INDEX tall) stands at `left`, `top`, in a 640x480 photo."""
    card = Card.parse("QS")
    index = IndexRead((left, top, left + INDEX // 2, top + INDEX), 0.9, (Guess(card, 0.99),))
    read = ReadCard(card, index.box, 0.99, (Guess(card, 0.99),), (index,))
    return PhotoRead(width=640, height=480, piles=((read,),))


def test_a_card_face_far_from_the_card_read_is_an_unread_place() -> None:
    picture = table()
    face(picture, 60, 300, 120)  # the card read, near the camera
    face(picture, 400, 60, 70)  # a far player's card: smaller, nothing read on it
    (place,) = unread_faces(picture, read_card_at(62, 302))
    assert place == pytest.approx((400, 60, 450, 131), abs=2)


def test_the_place_is_in_the_photos_pixels_when_the_picture_is_shrunk() -> None:
    picture = table()
    face(picture, 60, 300, 120)
    face(picture, 400, 60, 70)
    shrunk = cv2.resize(picture, (320, 240), interpolation=cv2.INTER_AREA)
    (place,) = unread_faces(shrunk, read_card_at(62, 302))
    assert place == pytest.approx((400, 60, 450, 131), abs=4)


def test_the_read_cards_own_face_is_no_place() -> None:
    picture = table()
    face(picture, 60, 300, 120)
    assert unread_faces(picture, read_card_at(62, 302)) == ()


def test_paper_within_reach_of_an_index_read_is_that_cards_own() -> None:
    picture = table()
    face(picture, 60, 300, 120)
    gap = 12  # pixels of table: well within a card's reach of the index read
    assert gap < CARD_REACH * INDEX
    face(picture, 62, 300 - gap - 60, 60)  # just above the card read, apart from it
    assert unread_faces(picture, read_card_at(62, 302)) == ()


def test_blank_paper_a_card_back_and_paper_running_out_of_the_photo_are_no_cards() -> None:
    picture = table()
    face(picture, 60, 300, 120)
    face(picture, 400, 60, 70, ink=False)  # a blank sheet
    back = (250, 40)  # a card back: white border, patterned inside
    cv2.rectangle(picture, back, (back[0] + 50, back[1] + 70), PAPER, -1)
    for y in range(back[1] + 5, back[1] + 66, 4):
        cv2.line(picture, (back[0] + 5, y), (back[0] + 45, y), (150, 30, 30), 2)
    face(picture, 560, 380, 120)  # a card partly out of the photo
    assert unread_faces(picture, read_card_at(62, 302)) == ()


def test_nothing_read_tells_nothing() -> None:
    picture = table()
    face(picture, 400, 60, 70)
    assert unread_faces(picture, PhotoRead(width=640, height=480, piles=())) == ()


def test_faces_no_lighter_than_the_table_tell_nothing() -> None:
    picture = np.full((480, 640, 3), (215, 212, 205), np.uint8)  # a white table
    face(picture, 60, 300, 120)
    face(picture, 400, 60, 70)
    assert unread_faces(picture, read_card_at(62, 302)) == ()


def test_a_dark_faced_decks_light_ink_makes_no_paper_of_the_cloths_light_patches() -> None:
    picture = np.full((480, 640, 3), (150, 90, 60), np.uint8)  # an orange cloth
    cv2.rectangle(picture, (60, 300), (144, 420), (25, 25, 25), -1)  # a black-faced card ...
    cv2.rectangle(picture, (62, 302), (72, 322), (235, 235, 235), -1)  # ... its index in silver
    cv2.rectangle(picture, (64, 326), (84, 340), (235, 235, 235), -1)  # ... and a silver pip
    cv2.rectangle(picture, (400, 60), (449, 130), (240, 235, 230), -1)  # the cloth's light patch
    cv2.circle(picture, (425, 95), 6, (60, 40, 30), -1)  # with the cloth's pattern on it
    assert unread_faces(picture, read_card_at(62, 302)) == ()
