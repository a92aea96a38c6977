"""A photo whose cards all lie tilted: their tilt measured, the photo turned square and its read's
boxes taken back. Drawn pictures of cards on a table."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from turned import turned_points

from blackcat.games.cards import Card
from blackcat.vision.tilt import from_turned_square, photo_tilt, turned_square
from blackcat.vision.types import Box, Guess, IndexRead, PhotoRead, ReadCard

TABLE = (40, 110, 60)
PAPER = (235, 235, 230)
WIDTH, HEIGHT = 640, 480


def cards_at(tilt: float, centres: list[tuple[int, int]]) -> tuple[np.ndarray, list[Box]]:
    """A table with a card (90 x 126 px) tilted `tilt` degrees at each centre, an index and
    pips in ink on each; and the axis-aligned box of each card's top-left index."""
    picture = np.full((HEIGHT, WIDTH, 3), TABLE, np.uint8)
    boxes = []
    for centre in centres:
        corners = np.array([[-45, -63], [45, -63], [45, 63], [-45, 63]], float)
        cv2.fillConvexPoly(
            picture, turned_points(centre, corners, tilt).astype(np.int32), PAPER, cv2.LINE_AA
        )
        index = np.array([[-40, -58], [-26, -58], [-26, -28], [-40, -28]], float)
        glyph = turned_points(centre, index, tilt)
        cv2.fillConvexPoly(picture, glyph.astype(np.int32), (20, 20, 20), cv2.LINE_AA)
        for pip in ([0, -30], [0, 0], [0, 30]):
            spot = turned_points(centre, np.array([pip], float), tilt)[0]
            cv2.circle(picture, tuple(int(v) for v in spot), 8, (20, 20, 20), -1, cv2.LINE_AA)
        boxes.append((*glyph.min(axis=0), *glyph.max(axis=0)))
    return picture, boxes


def read_of(boxes: list[Box], width: int = WIDTH, height: int = HEIGHT) -> PhotoRead:
    """A read of one card at each index box, in a photo of `width` by `height`."""
    card = Card.parse("QS")
    cards = []
    for box in boxes:
        index = IndexRead(box, 0.9, (Guess(card, 0.99),))
        cards.append(ReadCard(card, box, 0.99, (Guess(card, 0.99),), (index,)))
    return PhotoRead(width=width, height=height, piles=(tuple(cards),))


@pytest.mark.parametrize("tilt", [-35.0, -20.0, 0.0, 10.0, 25.0, 40.0])
def test_the_tilt_of_the_cards_read_is_measured(tilt: float) -> None:
    picture, boxes = cards_at(tilt, [(200, 240), (420, 240)])
    assert photo_tilt(picture, read_of(boxes)) == pytest.approx(tilt, abs=3)


def test_it_is_measured_on_a_shrunk_copy_of_the_photo_too() -> None:
    picture, boxes = cards_at(30.0, [(200, 240), (420, 240)])
    shrunk = cv2.resize(picture, (WIDTH // 2, HEIGHT // 2), interpolation=cv2.INTER_AREA)
    assert photo_tilt(shrunk, read_of(boxes)) == pytest.approx(30.0, abs=4)


def test_no_card_read_tells_no_tilt() -> None:
    picture, _ = cards_at(30.0, [(200, 240)])
    assert photo_tilt(picture, PhotoRead(width=WIDTH, height=HEIGHT, piles=())) is None


def test_a_plain_table_round_an_index_tells_no_tilt() -> None:
    picture = np.full((HEIGHT, WIDTH, 3), TABLE, np.uint8)
    assert photo_tilt(picture, read_of([(100.0, 100.0, 120.0, 130.0)])) is None


def test_turned_square_the_cards_stand_square_and_the_whole_photo_shows() -> None:
    picture, boxes = cards_at(30.0, [(200, 240), (420, 240)])
    turned, matrix = turned_square(picture, 30.0)
    # the canvas grows to hold the photo turned by 30 degrees
    cos, sin = np.cos(np.radians(30)), np.sin(np.radians(30))
    assert turned.shape[:2] == (
        round(HEIGHT * cos + WIDTH * sin),
        round(HEIGHT * sin + WIDTH * cos),
    )
    moved = [
        np.array([[x1, y1, 1.0], [x2, y1, 1.0], [x2, y2, 1.0], [x1, y2, 1.0]]) @ matrix.T
        for x1, y1, x2, y2 in boxes
    ]
    squared = [(*corners.min(axis=0), *corners.max(axis=0)) for corners in moved]
    height, width = turned.shape[:2]
    tilt = photo_tilt(turned, read_of(squared, width, height))
    assert tilt is not None and abs(tilt) < 3


def test_a_read_of_the_turned_photo_has_its_boxes_in_the_photo() -> None:
    picture, boxes = cards_at(30.0, [(200, 240), (420, 240)])
    turned, matrix = turned_square(picture, 30.0)
    x1, y1, x2, y2 = boxes[0]
    centre_x, centre_y = matrix @ np.array([(x1 + x2) / 2, (y1 + y2) / 2, 1.0])
    seen = (centre_x - 7, centre_y - 15, centre_x + 7, centre_y + 15)  # upright there
    height, width = turned.shape[:2]
    back = from_turned_square(read_of([seen], width, height), matrix, (WIDTH, HEIGHT))
    assert (back.width, back.height) == (WIDTH, HEIGHT)
    (card,) = back.piles[0]
    # its centre where the index lies in the photo, its size as read
    assert card.indices[0].box == pytest.approx(
        ((x1 + x2) / 2 - 7, (y1 + y2) / 2 - 15, (x1 + x2) / 2 + 7, (y1 + y2) / 2 + 15), abs=0.01
    )
    assert card.box == card.indices[0].box


def test_the_turned_canvas_is_filled_with_the_photos_table() -> None:
    picture, _ = cards_at(30.0, [(320, 240)])
    turned, _ = turned_square(picture, 30.0)
    assert tuple(turned[0, 0]) == TABLE


def test_a_shrunk_copy_turned_has_its_reads_boxes_in_the_photos_own_pixels() -> None:
    picture, boxes = cards_at(30.0, [(200, 240), (420, 240)])
    shrunk = cv2.resize(picture, (WIDTH // 2, HEIGHT // 2), interpolation=cv2.INTER_AREA)
    turned, matrix = turned_square(shrunk, 30.0, scale=0.5)
    x1, y1, x2, y2 = boxes[1]
    # the matrix takes the photo's pixels (not the shrunk copy's) into the turned copy
    centre_x, centre_y = matrix @ np.array([(x1 + x2) / 2, (y1 + y2) / 2, 1.0])
    seen = (centre_x - 4, centre_y - 8, centre_x + 4, centre_y + 8)  # 8 x 16 in the copy
    height, width = turned.shape[:2]
    back = from_turned_square(read_of([seen], width, height), matrix, (WIDTH, HEIGHT))
    assert back.piles[0][0].indices[0].box == pytest.approx(
        ((x1 + x2) / 2 - 8, (y1 + y2) / 2 - 16, (x1 + x2) / 2 + 8, (y1 + y2) / 2 + 16), abs=0.01
    )
