"""Piles whose cards lie in no row: their cards' tilts and the line they step along measured,
and such piles counted, not ordered, with no gap marked. Drawn pictures of cards on a table."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from turned import turned_points

from blackcat.games.cards import Card
from blackcat.vision.image_io import Photo
from blackcat.vision.no_row import (
    OFF_LINE,
    ROW_TURNED,
    TILTS_SCATTER,
    CardLie,
    PileLie,
    anchor,
    card_tilt,
    folded,
    in_no_row,
    lies_across,
    lies_in_no_row,
    mean_tilt,
    pile_lie,
    pile_lies,
    tilt_scatter,
    tops_turn,
    with_order_judged,
)
from blackcat.vision.reader import rows_judged
from blackcat.vision.types import Box, Guess, IndexRead, PhotoRead, ReadCard

TABLE = (40, 110, 60)
PAPER = (235, 235, 230)
INK = (20, 20, 20)
WIDTH, HEIGHT = 800, 480


def cards_lying(lies: list[tuple[tuple[int, int], float]]) -> tuple[np.ndarray, list[Box]]:
    """A table with a card (90 x 126 px) at each centre and tilt (degrees, anticlockwise), the
    later ones over the earlier; and the axis-aligned box of each card's top-left index."""
    picture = np.full((HEIGHT, WIDTH, 3), TABLE, np.uint8)
    boxes = []
    for centre, tilt in lies:
        corners = np.array([[-45, -63], [45, -63], [45, 63], [-45, 63]], float)
        outline = turned_points(centre, corners, tilt).astype(np.int32)
        cv2.fillConvexPoly(picture, outline, PAPER, cv2.LINE_AA)
        cv2.polylines(picture, [outline], True, (120, 120, 120), 1, cv2.LINE_AA)
        index = np.array([[-40, -58], [-26, -58], [-26, -28], [-40, -28]], float)
        glyph = turned_points(centre, index, tilt)
        cv2.fillConvexPoly(picture, glyph.astype(np.int32), INK, cv2.LINE_AA)
        boxes.append((*glyph.min(axis=0), *glyph.max(axis=0)))
    return picture, boxes


def read_card(box: Box, code: str = "QS") -> ReadCard:
    card = Card.parse(code)
    index = IndexRead(box, 0.9, (Guess(card, 0.99),))
    return ReadCard(card, box, 0.99, (Guess(card, 0.99),), (index,))


def pile_of(boxes: list[Box], gaps: tuple[int, ...] = ()) -> PhotoRead:
    """A read of one pile, a card at each index box."""
    return PhotoRead(
        width=WIDTH,
        height=HEIGHT,
        piles=(tuple(read_card(box) for box in boxes),),
        gaps=(gaps,) if gaps else (),
    )


def test_angles_fold_onto_a_quarter_turn() -> None:
    assert [folded(a) for a in (0.0, 44.0, 46.0, -45.0, 90.0, 100.0, -100.0)] == pytest.approx(
        [0.0, 44.0, -44.0, 45.0, 0.0, 10.0, -10.0]
    )


def test_tilts_scatter_round_a_quarter_turn() -> None:
    assert mean_tilt([44.0, -44.0]) == pytest.approx(45.0, abs=0.01) or mean_tilt(
        [44.0, -44.0]
    ) == pytest.approx(-45.0, abs=0.01)
    assert mean_tilt([10.0, 20.0]) == pytest.approx(15.0, abs=0.1)
    assert tilt_scatter([3.0]) == 0.0
    assert tilt_scatter([10.0, 10.0, 10.0]) == pytest.approx(0.0, abs=1e-3)
    # the same few tilts spread wider the more cards show them; they scatter alike
    few, many = [0.0, 10.0], [0.0, 10.0] * 6
    assert tilt_scatter(few) == pytest.approx(tilt_scatter(many))
    # 44 and -44 degrees stand 2 degrees apart: a card's axes repeat every quarter turn
    assert tilt_scatter([44.0, -44.0]) < 2
    assert tilt_scatter([0.0, 30.0]) == pytest.approx(16.9, abs=0.1)
    # of five or more, the farthest fifth is left out: one tilt measured round face art
    assert tilt_scatter([0.0] * 9 + [30.0]) == pytest.approx(0.0, abs=1e-3)


@pytest.mark.parametrize("tilt", [-30.0, 0.0, 20.0])
def test_a_cards_tilt_is_measured_round_its_index(tilt: float) -> None:
    picture, boxes = cards_lying([((400, 240), tilt)])
    assert card_tilt(picture, boxes) == pytest.approx(tilt, abs=3)


def test_a_plain_table_round_an_index_tells_no_tilt() -> None:
    picture = np.full((HEIGHT, WIDTH, 3), TABLE, np.uint8)
    assert card_tilt(picture, [(100.0, 100.0, 120.0, 130.0)]) is None


def test_a_row_steps_along_its_cards_tilt_whatever_its_angle() -> None:
    for tilt in (0.0, 15.0, -25.0):
        step = turned_points((0, 0), np.array([[30.0, 0.0]]), tilt)[0]
        lies = [CardLie((100 + n * step[0], 200 + n * step[1]), tilt) for n in range(5)]
        lie = pile_lie(lies, 30.0)
        assert lie.tilt_scatter == pytest.approx(0.0, abs=1e-3)
        assert lie.row_turn == pytest.approx(0.0, abs=0.01)
        assert lie.off_line == pytest.approx(0.0, abs=0.01)


def test_cards_scattered_step_across_their_tilt_off_a_line() -> None:
    lies = [CardLie((100, 200), 0.0), CardLie((200, 300), 25.0), CardLie((300, 180), -10.0)]
    lie = pile_lie(lies, 30.0)
    assert lie.tilt_scatter > TILTS_SCATTER
    assert lie.off_line > 1.5
    # two cards square to the photo, one down and across from the other
    lie = pile_lie([CardLie((100, 200), 0.0), CardLie((160, 240), 0.0)], 30.0)
    assert lie.row_turn == pytest.approx(math.degrees(math.atan2(40, 60)))


def test_one_card_and_untold_tilts_say_little() -> None:
    assert pile_lie([CardLie((10, 10), None)], 30.0) == pile_lie([CardLie((10, 10), 5.0)], 30.0)
    lie = pile_lie([CardLie((10, 10), None), CardLie((100, 10), None)], 30.0)
    assert (lie.tilt_scatter, lie.row_turn) == (0.0, None)


def test_a_cards_anchor_is_its_top_index_as_its_player_sees_it() -> None:
    top, bottom = (10.0, 10.0, 20.0, 30.0), (80.0, 120.0, 90.0, 140.0)
    card = read_card(top)
    card = ReadCard(
        card.card,
        (10.0, 10.0, 90.0, 140.0),
        0.99,
        card.alternatives,
        (IndexRead(bottom, 0.9, card.alternatives), IndexRead(top, 0.9, card.alternatives)),
    )
    assert anchor(card, "near") == (15.0, 20.0)
    assert anchor(card, "far") == (85.0, 130.0)  # read upside down: its top lies lowest
    assert anchor(card, "left") == (85.0, 130.0)  # tops pointing right
    assert anchor(card, "right") == (15.0, 20.0)


def test_cards_drawn_in_a_row_and_scattered_lie_so() -> None:
    steps = turned_points((200, 260), np.array([[40.0 * n, 0.0] for n in range(5)]), 10.0)
    row_picture, row_boxes = cards_lying([((round(x), round(y)), 10.0) for x, y in steps])
    (row,) = pile_lies(row_picture, pile_of(row_boxes))
    assert row.tilt_scatter < 3 and row.row_turn is not None and row.row_turn < 5
    assert not lies_in_no_row(row)
    loose = [((150, 200), -20.0), ((330, 280), 15.0), ((520, 190), 35.0)]
    loose_picture, loose_boxes = cards_lying(loose)
    (scattered,) = pile_lies(loose_picture, pile_of(loose_boxes))
    assert scattered.tilt_scatter > TILTS_SCATTER and lies_in_no_row(scattered)


def test_a_pile_in_no_row_marks_no_gap_and_says_so() -> None:
    boxes = [(10.0 + 40 * n, 10.0, 30.0 + 40 * n, 40.0) for n in range(3)]
    two = PhotoRead(
        width=WIDTH,
        height=HEIGHT,
        piles=(
            tuple(read_card(box) for box in boxes),
            tuple(read_card(box) for box in boxes[:2]),
        ),
        gaps=((2,), (1,)),
    )
    judged = with_order_judged(two, [True, False])
    assert judged.gaps == ((), (1,))
    assert judged.in_no_row == (True, False)
    assert judged.piles_in_no_row == (0,) and judged.in_no_row_of(0)
    assert not judged.in_no_row_of(1) and not judged.in_no_row_of(5)
    # every pile in a row: the read as it was
    assert with_order_judged(two, [False, False]) is two
    assert with_order_judged(two, []) is two
    # no gap left in any pile: none at all
    assert with_order_judged(two, [True, True]).gaps == ()


def lie(
    cards: int, scatter: float = 0.0, turn: float | None = 0.0, off: float = 0.0, across: int = 0
) -> PileLie:
    return PileLie(cards, scatter, turn, off, across)


def test_a_pile_lies_in_no_row_where_its_tilts_scatter_its_line_turns_or_it_strays() -> None:
    assert not lies_in_no_row(lie(8, scatter=TILTS_SCATTER, turn=ROW_TURNED, off=OFF_LINE))
    assert lies_in_no_row(lie(3, scatter=TILTS_SCATTER + 1))
    assert lies_in_no_row(lie(2, turn=ROW_TURNED + 1))
    assert lies_in_no_row(lie(3, off=OFF_LINE + 0.1))
    assert lies_in_no_row(lie(4, across=1))
    assert not lies_in_no_row(lie(2, turn=None))
    # one card: a row of its own, whatever it measured
    assert not lies_in_no_row(lie(1, scatter=30.0, turn=40.0, off=2.0))


def test_a_lone_card_lies_in_no_row_where_a_pile_of_its_side_does() -> None:
    boxes = [(10.0 + 40 * n, 10.0, 30.0 + 40 * n, 40.0) for n in range(3)]
    piles = (
        tuple(read_card(box) for box in boxes),
        (read_card(boxes[0]),),
        (read_card(boxes[1]),),
    )
    read = PhotoRead(width=WIDTH, height=HEIGHT, piles=piles, sides=("near", "near", "far"))
    scattered, row = lie(3, scatter=20.0), lie(3)
    assert in_no_row(read, [scattered, lie(1), lie(1)]) == (True, True, False)
    assert in_no_row(read, [row, lie(1), lie(1)]) == (False, False, False)


def test_the_reader_says_which_piles_lie_in_no_row_and_marks_no_gap_in_them() -> None:
    loose = [((150, 200), -20.0), ((330, 280), 15.0), ((520, 190), 35.0)]
    picture, boxes = cards_lying(loose)
    read = pile_of(boxes, gaps=(2,))
    judged = rows_judged(Photo.from_array(picture), read)
    assert judged.in_no_row == (True,) and judged.gaps == ()
    steps = turned_points((200, 260), np.array([[40.0 * n, 0.0] for n in range(5)]), 10.0)
    picture, boxes = cards_lying([((round(x), round(y)), 10.0) for x, y in steps])
    row = pile_of(boxes, gaps=(3,))
    assert rows_judged(Photo.from_array(picture), row) is row


def turned_index(centre: tuple[float, float], turn: int, code: str = "QS") -> IndexRead:
    """An index read at `centre`, its glyph standing `turn` quarter turns (classes)."""
    x, y = centre
    card = Card.parse(code)
    orientations = tuple(1.0 if n == turn else 0.0 for n in range(4))
    return IndexRead((x - 5, y - 10, x + 5, y + 10), 0.9, (Guess(card, 0.99),), 1.0, orientations)


def card_of(*indices: IndexRead) -> ReadCard:
    card = indices[0].card
    return ReadCard(card, indices[0].box, 0.99, (Guess(card, 0.99),), indices)


def test_a_pile_of_cards_standing_alike_has_its_tops_and_a_card_across_it_does_not() -> None:
    whole = card_of(turned_index((100, 100), 0), turned_index((160, 190), 2))
    row = [card_of(turned_index((40 + 20 * n, 100), 0)) for n in range(3)] + [whole]
    assert tops_turn(row, "near") == 0
    assert not any(lies_across(card, 0) for card in row)
    sideways = card_of(turned_index((300, 100), 1), turned_index((230, 150), 3))
    assert lies_across(sideways, 0) and not lies_across(sideways, None)
    # the bottom corner alone: no anchor on the tops' line
    assert anchor(card_of(turned_index((160, 190), 2)), "near", 0) is None
    assert anchor(whole, "near", 0) == (100.0, 100.0)


def test_one_stray_anchor_of_a_longer_pile_is_left_out_of_its_line() -> None:
    # a pile of four along a line, one card's anchor a pip of the card above (5 heights up)
    row = [CardLie((100.0 + 40 * n, 300.0), 0.0) for n in range(4)]
    strayed = [*row[:1], CardLie((140.0, 150.0), 0.0), *row[2:]]
    assert pile_lie(strayed, 30.0).off_line == pytest.approx(0.0, abs=1e-6)
    assert pile_lie(strayed, 30.0).row_turn == pytest.approx(0.0, abs=1e-6)
    # three cards tell nothing apart: none left out
    assert pile_lie(strayed[:3], 30.0).off_line > 1
