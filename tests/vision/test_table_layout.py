"""The whole table in one photo, on hand-made detections: each side's piles in its own frame."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from test_layout import INDEX_H, codes, facing, index_at, laid_row, oriented_row

from blackcat.games.cards import Card
from blackcat.vision.calibration import Calibration
from blackcat.vision.layout import arrange, drop_repeated_detections
from blackcat.vision.table_layout import (
    ROW_ANGLES_APART_DEGREES,
    LaidPile,
    angle_split,
    arrange_at_own_angles,
    arrange_sides,
    arrange_table,
    each_side_from_the_surer,
    laid_apart,
    laid_pile,
    lone_cards_facing_their_side,
    sides_for_players,
    table_sides,
    two_lines,
)
from blackcat.vision.types import SIDES, Guess, IndexRead, PhotoRead, ReadCard

TABLE = 1000.0  # a square photo of the table, its centre the table's
NEAR_PILES = ((430.0, 700.0), (430.0, 820.0))  # where a player's two piles start, seen from them


def seated(indices: list[IndexRead], side: int) -> list[IndexRead]:
    """Indices laid by the near player, moved to the player on `side` (SIDES): the table
    turned `side` quarter turns clockwise about its centre, the glyphs with it."""
    out = []
    for index in indices:
        x1, y1, x2, y2 = index.box
        corners = [(x1, y1), (x2, y2)]
        for _ in range(side):
            corners = [(TABLE - y, x) for x, y in corners]
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        out.append(
            facing(
                replace(index, box=(min(xs), min(ys), max(xs), max(ys))),
                (index.orientation or 0) + side,
            )
        )
    return out


def player(side: int, *piles: str) -> list[IndexRead]:
    """A player's piles (rows) as they lay them, moved to their side of the table."""
    laid = [
        index
        for text, origin in zip(piles, NEAR_PILES, strict=False)
        for index in oriented_row(text, origin=origin)
    ]
    return seated(laid, side)


def several_sides(indices: list[IndexRead], players: int | None = None) -> bool:
    """Whether the indices lie on more than one side of the table (as the reader decides)."""
    return len(set(table_sides(drop_repeated_detections(indices), players))) > 1


def arranged(indices: list[IndexRead], **kwargs) -> tuple[list[list[str]], list[str]]:
    photo = arrange_table(indices, width=int(TABLE), height=int(TABLE), **kwargs)
    return codes(photo.piles), [photo.side_of(n) for n in range(len(photo.piles))]


def test_four_players_piles_come_in_seat_order_each_as_its_player_laid_it() -> None:
    table = [
        *player(2, "KS 9C 4S", "2D 7H"),
        *player(0, "6S QS 6C 10H", "AH 3D"),
        *player(3, "8D 2H 8H", "5C JD QC"),
        *player(1, "KH 4D", "9S 7C 10D"),
    ]
    piles, sides = arranged(table)
    assert piles == [
        ["6S", "QS", "6C", "10H"],
        ["AH", "3D"],
        ["KH", "4D"],
        ["9S", "7C", "10D"],
        ["KS", "9C", "4S"],
        ["2D", "7H"],
        ["8D", "2H", "8H"],
        ["5C", "JD", "QC"],
    ]
    assert sides == ["near", "near", "left", "left", "far", "far", "right", "right"]


@pytest.mark.parametrize("others", [(2,), (1, 3), (1,)])
def test_two_or_three_players_get_their_own_sides(others: tuple[int, ...]) -> None:
    deals = iter([("KS 9C 4S", "2D 7H"), ("8D 2H 8H", "5C JD QC")])
    table = player(0, "6S QS 6C 10H", "AH 3D")
    for side in others:
        table += player(side, *next(deals))
    piles, sides = arranged(table)
    assert piles[:2] == [["6S", "QS", "6C", "10H"], ["AH", "3D"]]
    assert sorted(set(sides), key=SIDES.index) == [SIDES[0], *(SIDES[s] for s in others)]
    assert len(piles) == 2 + 2 * len(others)


def test_a_photo_of_one_players_piles_reads_as_before() -> None:
    mine = player(0, "6S QS 6C 10H", "AH 3D")
    photo = arrange_table(mine, width=1000, height=1000)
    assert photo == arrange(mine, width=1000, height=1000)
    assert not several_sides(mine)


@pytest.mark.parametrize("side", [1, 2, 3])
def test_one_player_photographed_from_another_side_is_one_side(side: int) -> None:
    theirs = player(side, "6S QS 6C 10H", "AH 3D")
    assert len(set(table_sides(theirs))) == 1
    piles, sides = arranged(theirs)
    assert piles == [["6S", "QS", "6C", "10H"], ["AH", "3D"]]
    assert sides == [SIDES[side]] * 2


def test_an_unsure_index_between_the_near_and_far_piles_joins_no_players() -> None:
    # a seated camera squeezes the far piles towards the near ones; a phantom read unsurely
    # (a face's art) lies within reach of both
    near = player(0, "6S QS 6C 10H", "AH 3D")
    far = [
        replace(index, box=(x1, y1 + 100, x2, y2 + 100))
        for index in player(2, "KS 9C 4S", "2D 7H")
        for x1, y1, x2, y2 in [index.box]
    ]
    phantom = facing(index_at((470.0, 540.0), Card.parse("10C"), 0.38), 0)
    piles, sides = arranged([*near, phantom, *far])
    assert sides == ["near", "near", "far", "far"]
    assert piles[2:] == [["KS", "9C", "4S"], ["2D", "7H"]]


def test_a_stray_glyph_turned_a_quarter_makes_no_player() -> None:
    mine = player(0, "6S QS 6C 10H", "AH 3D")
    stray = facing(index_at((490.0, 760.0), Card.parse("9D"), 0.6), 1)
    assert not several_sides([*mine, stray])
    piles, sides = arranged([*mine, stray])
    assert sides == ["near", "near"]
    assert piles[0] == ["6S", "QS", "6C", "10H"]


def test_told_two_players_the_smaller_third_side_goes_with_its_neighbour() -> None:
    table = [
        *player(0, "6S QS 6C 10H", "AH 3D"),
        *player(2, "KS 9C 4S", "2D 7H"),
        *player(1, "KH 4D 9S"),
    ]
    assert len(set(table_sides(table))) == 3
    assert len(set(table_sides(table, players=2))) == 2
    assert set(arranged(table, players=2)[1]) <= {"near", "far"}


def test_sides_found_beyond_the_players_told_are_counted() -> None:
    table = [
        *player(0, "6S QS 6C 10H", "AH 3D"),
        *player(2, "KS 9C 4S", "2D 7H"),
        *player(1, "KH 4D 9S"),
    ]
    assert sides_for_players(table, players=2)[1] == 3
    assert sides_for_players(table, players=3)[1] == 0  # as many as told
    assert sides_for_players(table, players=4)[1] == 0  # fewer: `scan` says so from the read
    assert sides_for_players(table, players=None)[1] == 0
    assert sides_for_players(table, players=1)[1] == 3  # read as one player's, and said
    for players in (None, 1, 2, 3, 4):
        assert sides_for_players(table, players)[0] == table_sides(table, players)


def test_told_one_player_the_photo_is_read_as_one_players() -> None:
    table = [*player(0, "6S QS 6C 10H"), *player(2, "KS 9C 4S")]
    assert several_sides(table)
    assert not several_sides(table, players=1)
    assert arrange_table(table, width=1000, height=1000, players=1) == arrange(
        table, width=1000, height=1000
    )


def test_with_one_deck_a_card_read_on_two_sides_takes_its_next_guess_on_one() -> None:
    near = player(0, "6S QS 6C 10H")
    far = player(2, "KS 9C 4S")
    misread = [
        replace(index, guesses=(Guess(Card.parse("QS"), 0.6), Guess(Card.parse("9C"), 0.4)))
        if index.card == Card.parse("9C")
        else index
        for index in far
    ]
    piles, _ = arranged([*near, *misread])
    assert piles == [["6S", "QS", "6C", "10H"], ["KS", "9C", "4S"]]


def test_with_one_deck_a_card_read_surely_on_another_side_leaves_a_gap_where_it_was_read() -> None:
    # the far player's 9C is read surely; a mark at the end of the near pile, read as 9C with
    # no other guess, is no second 9C: dropped, a gap where it lay
    near = player(0, "6S QS 6C 10H 9C")
    mark = [
        replace(index, guesses=(Guess(Card.parse("9C"), 0.5),))
        if index.card == Card.parse("9C")
        else index
        for index in near
    ]
    photo = arrange_table([*mark, *player(2, "KS 9C 4S")], width=int(TABLE), height=int(TABLE))
    assert codes(photo.piles) == [["6S", "QS", "6C", "10H"], ["KS", "9C", "4S"]]
    assert photo.gaps_of(0) == (4,)


@pytest.mark.parametrize(
    ("gaps", "dropped", "left"),
    [
        ((), [4], (4,)),  # the last of five cards: a gap after the four left
        ((1,), [3], (1, 3)),  # a gap before it stays where it was
        ((4,), [1], (1, 3)),  # a gap after it moves up by one
        ((), [2, 3], (2,)),  # two side by side: one gap where both were
    ],
)
def test_a_piles_gaps_follow_the_cards_taken_out_of_it(
    gaps: tuple[int, ...], dropped: list[int], left: tuple[int, ...]
) -> None:
    from blackcat.vision.table_layout import without_cards

    assert without_cards(gaps, dropped) == left


def facing_rows(origin_y: float) -> tuple[list[IndexRead], list[IndexRead]]:
    """A near row and the far player's row, laid alike from `origin_y` on their own sides: the
    closer to the middle, the closer their top indices face each other."""
    near = oriented_row("6S QS 6C 10H", origin=(430.0, origin_y))
    return near, seated(oriented_row("KS 9C 4S", origin=(430.0, origin_y)), 2)


# a seated camera squeezes the table's depth: the two rows' top indices, facing each other, lie
# only seven glyph sizes apart (their bottom corners farther); at five, closer than a card's
# corners can lie (FACING_LINK), they are two players' all the same, as every index is surely
# read as a card the other row does not hold
@pytest.mark.parametrize("origin_y", [571.0, 546.0], ids=["seven glyphs apart", "five"])
def test_near_and_far_piles_close_across_the_table_are_two_players(origin_y: float) -> None:
    near, far = facing_rows(origin_y)
    piles, sides = arranged(near + far)
    assert piles == [["6S", "QS", "6C", "10H"], ["KS", "9C", "4S"]]
    assert sides == ["near", "far"]


def test_rows_five_glyph_sizes_apart_read_unsurely_may_be_one_players_corners() -> None:
    # read unsurely, the far row's indices may be the near cards' own corners, misread
    near, far = facing_rows(546.0)
    unsure = [replace(index, guesses=(Guess(index.card, 0.6),)) for index in far]
    assert not several_sides(near + unsure)


def moved(indices: list[IndexRead], dx: float, dy: float = 0.0) -> list[IndexRead]:
    return [
        replace(
            index, box=(index.box[0] + dx, index.box[1] + dy, index.box[2] + dx, index.box[3] + dy)
        )
        for index in indices
    ]


def test_left_and_right_piles_close_together_beyond_the_near_ones_are_two_players() -> None:
    # a seated camera shows the left and right players' piles a few glyph sizes apart: the
    # right player's last card's bottom corner stands as the left player's glyphs do and lies
    # within a player's reach of them, yet it is the right player's card's
    left = moved(seated(oriented_row("KH 4D 9S", origin=(430.0, 700.0)), 1), 140.0)
    right = moved(seated(oriented_row("8D 2H 8H", origin=(430.0, 700.0)), 3), -140.0)
    near = oriented_row("6S QS 6C 10H", origin=(430.0, 700.0))
    piles, sides = arranged(left + right + near)
    assert piles == [["6S", "QS", "6C", "10H"], ["KH", "4D", "9S"], ["8D", "2H", "8H"]]
    assert sides == ["near", "left", "right"]


def test_a_far_players_few_unsure_indices_still_make_their_side() -> None:
    # seen small across the table, each index is found unsure: together their glyphs still
    # stand the far player's way, which outweighs the photo's upright tie-break
    near = player(0, "6S QS 6C 10H", "AH 3D")
    far = [replace(index, detection_confidence=0.25) for index in player(2, "KS 9C 4S")]
    piles, sides = arranged(near + far)
    assert piles == [["6S", "QS", "6C", "10H"], ["AH", "3D"], ["KS", "9C", "4S"]]
    assert sides == ["near", "near", "far"]


def test_a_pile_read_upside_down_beyond_the_far_players_piles_is_theirs() -> None:
    # the far player's second pile, small in the photo, read as standing the near player's way,
    # lies beyond their first pile: on the far side of the table
    near = player(0, "6S QS 6C 10H", "AH 3D")
    far = player(2, "KS 9C 4S")
    misread_far = oriented_row("2D 7H 5C JD", origin=(430.0, 60.0))
    indices = drop_repeated_detections(near + far + misread_far)
    sides = table_sides(indices)
    misread = {index.box for index in misread_far}
    assert {side for index, side in zip(indices, sides, strict=True) if index.box in misread} == {2}
    assert set(sides) == {0, 2}


def spread_wide(side: int, text: str) -> list[IndexRead]:
    """A player's pile spread so wide that each card shows both corners, moved to their side."""
    return seated(oriented_row(text, origin=NEAR_PILES[0], step=70.0, all_corners=True), side)


def test_a_far_pile_spread_so_each_card_shows_both_corners_is_the_far_players() -> None:
    # as many of its glyphs stand each way: read as the near player's, it lies beyond the others
    near = player(0, "6S QS 6C 10H", "AH 3D")
    left = player(1, "5H 6H 7H 8H")
    far = spread_wide(2, "KH 5S AH")
    indices = drop_repeated_detections(near + left + far)
    sides = table_sides(indices)
    spread = {index.box for index in far}
    assert {side for index, side in zip(indices, sides, strict=True) if index.box in spread} == {2}
    assert set(sides) == {0, 1, 2}


def shrunk(indices: list[IndexRead], scale: float) -> list[IndexRead]:
    """The indices' boxes shrunk about their centres (farther from the camera)."""
    out = []
    for index in indices:
        (x, y), (x1, y1, x2, y2) = index.centre, index.box
        half_w, half_h = scale * (x2 - x1) / 2, scale * (y2 - y1) / 2
        out.append(replace(index, box=(x - half_w, y - half_h, x + half_w, y + half_h)))
    return out


@pytest.mark.parametrize(("scale", "far_side"), [(0.6, 2), (0.9, 0)])
def test_a_far_players_one_spread_pile_is_theirs_where_its_glyphs_stand_smaller(
    scale: float, far_side: int
) -> None:
    # calibration table t00138: the near player's two piles, and across the table the far
    # player's one pile spread so wide that each card shows both corners (as many glyphs stand
    # each way), read as standing the near player's way; as large as the near glyphs, it is
    # one player's third pile photographed from above
    near = player(0, "6S QS 6C 10H", "AH 3D")
    far = shrunk(spread_wide(2, "KH 5S AH"), scale)
    indices = drop_repeated_detections(near + far)
    sides = table_sides(indices)
    spread = {index.box for index in far}
    assert {side for index, side in zip(indices, sides, strict=True) if index.box in spread} == {
        far_side
    }


def test_one_players_cards_spread_beyond_their_piles_stay_theirs() -> None:
    near = player(0, "6S QS 6C 10H", "AH 3D")
    spread = spread_wide(2, "KH 5S AH")
    assert set(table_sides(drop_repeated_detections(near + spread))) == {0}


def test_an_index_read_again_standing_another_sides_way_goes_with_that_side() -> None:
    near = player(0, "KS 9C 4S 2D")
    nine = near.pop(1)  # first read turned, so searched again with the right player's piles
    right = player(3, "5H 6H 7H")
    photo = arrange_sides({0: near, 3: [*right, nine]}, width=int(TABLE), height=int(TABLE))
    assert codes(photo.piles) == [["KS", "9C", "4S", "2D"], ["5H", "6H", "7H"]]
    assert photo.sides == ("near", "right")


def test_a_cards_bottom_corner_goes_with_its_top_corner_to_the_side_they_face() -> None:
    # the far column's last cards, first read with the left player's piles, show the last
    # card's bottom corner standing the near player's way: it stays that card's corner
    near = player(0, "AH 3D")
    far = player(2, "KS 9C 4S 2D")
    bottom_corner = [index for index in far if index.orientation == 0]
    assert len(bottom_corner) == 1
    left = player(1, "5H 6H 7H")
    first_read_far, read_with_left = far[:2], far[2:]
    photo = arrange_sides(
        {0: near, 1: [*left, *read_with_left], 2: first_read_far},
        width=int(TABLE),
        height=int(TABLE),
    )
    assert codes(photo.piles) == [["AH", "3D"], ["5H", "6H", "7H"], ["KS", "9C", "4S", "2D"]]
    assert photo.sides == ("near", "left", "far")


def test_a_pile_laid_across_its_sides_edge_loses_only_its_last_cards_bottom_corner() -> None:
    # a far pile laid turned a quarter: its glyphs stand as the right player's, its last card's
    # bottom corner as the left player's; laid out with the far side's piles, that corner would
    # make a card of its own (t00045 of the calibration tables: the pile split before its 6D)
    far = player(2, "KS 9C 4S")
    across = player(3, "JC 3S 6D")
    corner = next(index for index in across if index.orientation == 1)
    groups = laid_apart([*far, *across], 2)
    kept = [index for group in groups for index in group]
    assert corner not in kept
    assert len(kept) == len(far) + len(across) - 1


def test_a_near_players_piles_lying_right_of_the_left_players_are_still_theirs() -> None:
    # seen from a seat, the near player's piles lie right of the left player's and only a
    # little lower: 74 degrees from straight below them
    near = [
        replace(index, box=(x1 + 20, y1 - 200, x2 + 20, y2 - 200))
        for index in player(0, "9S 7C KD 9H AD", "JC KH 2D")
        for x1, y1, x2, y2 in [index.box]
    ]
    left = player(1, "7H 9D 10S 8S", "QC QD JD 7D")
    piles, sides = arranged(near + left)
    assert piles == [["9S", "7C", "KD", "9H", "AD"], ["JC", "KH", "2D"], *arranged(left)[0]]
    assert sides == ["near", "near", "left", "left"]


def test_a_few_cards_lying_right_of_a_turned_hand_are_no_player_of_their_own() -> None:
    # as above, but only a few cards: scattered cards of one hand, not two players' piles
    near = [
        replace(index, box=(x1 + 20, y1 - 200, x2 + 20, y2 - 200))
        for index in player(0, "9S 7C KD")
        for x1, y1, x2, y2 in [index.box]
    ]
    left = player(1, "7H 9D 10S")
    assert not several_sides(near + left)


def test_a_far_pile_read_again_with_the_left_players_makes_the_far_side() -> None:
    # the first look found too little of the far pile to make a side; the left side's part of
    # the photo, read again, found it standing the far player's way: it is the far player's
    near = player(0, "AH 3D 7C")
    left = player(1, "5H 6H 7H")
    far = player(2, "KS 9C 4S 2D")
    photo = arrange_sides({0: near, 1: [*left, *far]}, width=int(TABLE), height=int(TABLE))
    assert codes(photo.piles) == [["AH", "3D", "7C"], ["5H", "6H", "7H"], ["KS", "9C", "4S", "2D"]]
    assert photo.sides == ("near", "left", "far")


def left_pile_read_twice() -> tuple[list[IndexRead], ...]:
    """The near, left and right players' indices, and the left pile's last index read a second
    time with the right player's (glyph and card as the right side's read saw them)."""
    near = player(0, "AH 3D 7C")
    left = player(1, "2H QD QH 6C")
    right = player(3, "5D 2C 5C")
    last = next(index for index in left if index.card.code == "6C" and index.orientation == 1)
    again = facing(replace(last, box=tuple(v + 1.0 for v in last.box)), 3)
    return near, left, right, [again]


def test_an_index_read_again_as_another_sides_lone_card_stays_in_its_pile() -> None:
    # the second read made a lone card of the right player's of it (t00095)
    near, left, right, (again,) = left_pile_read_twice()
    by_side = {0: near, 1: left, 3: [*right, again]}
    photo = arrange_sides(by_side, width=int(TABLE), height=int(TABLE))
    assert codes(photo.piles) == [["AH", "3D", "7C"], ["2H", "QD", "QH", "6C"], ["5D", "2C", "5C"]]
    assert photo.gaps == ((), (), ())
    # a lone card lying on no other pile's index stays a pile of its own
    apart = replace(again, box=tuple(v + 3 * INDEX_H for v in again.box))
    photo = arrange_sides({**by_side, 3: [*right, apart]}, width=int(TABLE), height=int(TABLE))
    assert ["6C"] in codes(photo.piles)


def test_a_lone_card_one_read_makes_of_anothers_pile_card_stays_in_that_pile() -> None:
    # the two reads of a table: the first lays the left pile whole, the second (stretched)
    # reads its last index again as a lone card of the right player's
    near, left, right, (again,) = left_pile_read_twice()
    size = {"width": int(TABLE), "height": int(TABLE)}
    as_it_is = arrange_sides({0: near, 1: left}, **size)
    stretched = arrange_sides({0: near, 3: [*right, again]}, **size)
    assert ["6C"] in codes(stretched.piles)
    merged = each_side_from_the_surer(as_it_is, stretched)
    assert codes(merged.piles) == [["AH", "3D", "7C"], ["2H", "QD", "QH", "6C"], ["5D", "2C", "5C"]]
    assert merged.sides == ("near", "left", "right")


def test_an_unsure_index_standing_a_quarter_turn_from_its_side_splits_no_pile() -> None:
    # fresh t00034: a JC read at 0.53 as an index, standing upright among the right player's
    # cards, split their pile in two
    near = player(0, "AH 3D 7C")
    right = player(3, "6H KH 5C 4H 8S")
    tops = [index for index in right if index.orientation == 3]
    between = tuple((a + b) / 2 for a, b in zip(tops[2].centre, tops[3].centre, strict=True))
    stray = replace(facing(index_at(between, Card.parse("JC")), 0, 0.8), index_probability=0.6)
    # the fitted calibration's weights (models/calibration.json): a glyph's turn counts little
    fitted = Calibration(weights=(-0.08349, 0.56733, 1.67133, 0.04426, 0.09055, 0.76644, 0.72292))
    size = {"width": int(TABLE), "height": int(TABLE), "calibration": fitted}
    photo = arrange_sides({0: near, 3: [*right, stray]}, **size)
    assert codes(photo.piles) == [["AH", "3D", "7C"], ["6H", "KH", "5C", "4H", "8S"]]
    # sure of being an index, it is read as a card
    sure = replace(stray, index_probability=0.99)
    read = arrange_sides({0: near, 3: [*right, sure]}, **size)
    assert any(card.card.code == "JC" for pile in read.piles for card in pile)


def test_a_lone_card_standing_another_sides_way_goes_to_that_side() -> None:
    # fresh t00038: a lone KC, standing the right player's way, was given to the near player
    size = {"width": int(TABLE), "height": int(TABLE)}
    photo = arrange_sides({0: player(0, "AH 3D 7C"), 3: player(3, "5D 2C 5C")}, **size)
    piles = [laid_pile(photo, n) for n in range(len(photo.piles))]
    index = facing(index_at((900.0, 150.0), Card.parse("KC")), 3)
    card = ReadCard(index.card, index.box, 0.6, index.guesses, (index,))
    lone = LaidPile((card,), (), "near")
    moved = lone_cards_facing_their_side([piles[0], lone, piles[1]], **size)
    assert [(pile.side, codes([pile.cards])[0]) for pile in moved] == [
        ("near", ["AH", "3D", "7C"]),
        ("right", ["5D", "2C", "5C"]),
        ("right", ["KC"]),  # top to bottom as the right player sees them: nearer them
    ]
    # standing the near player's way, or another way than any side's, it stays
    for turn in (2, 1):
        other = replace(lone, cards=(replace(card, indices=(facing(index, turn),)),))
        assert lone_cards_facing_their_side([piles[0], other, piles[1]], **size)[1] == other


def test_a_card_or_two_standing_another_way_makes_no_side_of_their_own() -> None:
    near = player(0, "AH 3D 7C")
    left = player(1, "5H 6H 7H")
    stray = [index for index in player(2, "KS") if index.orientation == 2]
    photo = arrange_sides({0: near, 1: [*left, *stray]}, width=int(TABLE), height=int(TABLE))
    assert set(photo.sides) == {"near", "left"}


def test_on_a_table_an_upside_down_index_read_with_the_near_side_is_no_hidden_card() -> None:
    # the far player's card, its top corner upside down for the near player, read with the
    # near side's indices: on one player's photo it could be a card whose top corner is hidden
    near = player(0, "AH 3D 7C")
    left = player(1, "5H 6H 7H")
    far_top = [index for index in player(2, "KS") if index.orientation == 2]
    photo = arrange_sides({0: [*near, *far_top], 1: left}, width=int(TABLE), height=int(TABLE))
    assert codes(photo.piles) == [["AH", "3D", "7C"], ["5H", "6H", "7H"]]


def read_of(*piles: tuple[str, str, float], gaps: tuple[tuple[int, ...], ...] = ()) -> PhotoRead:
    """A read of piles (side, cards, each card's probability), each card sure of itself alone."""
    cards = tuple(
        tuple(
            ReadCard(Card.parse(code), (0.0, 0.0, 1.0, 1.0), p, (Guess(Card.parse(code), p),), ())
            for code in pile.split()
        )
        for _, pile, p in piles
    )
    return PhotoRead(100, 100, cards, gaps, tuple(side for side, _, _ in piles))


def test_each_side_of_a_table_read_twice_comes_from_the_read_surer_of_it() -> None:
    as_it_is = read_of(("near", "6S QS", 0.99), ("far", "KS 9C", 0.5))
    stretched = read_of(("near", "6S QH", 0.6), ("far", "KS 9C 4S", 0.95), ("far", "2D", 0.9))
    merged = each_side_from_the_surer(as_it_is, stretched)
    assert codes(merged.piles) == [["6S", "QS"], ["KS", "9C", "4S"], ["2D"]]
    assert merged.sides == ("near", "far", "far")
    tie = each_side_from_the_surer(read_of(("near", "6S", 0.9)), read_of(("near", "6C", 0.9)))
    assert codes(tie.piles) == [["6C"]]  # the stretched read, as a whole read's tie goes


def test_a_sides_gaps_count_against_its_read() -> None:
    with_gap = read_of(("near", "6S QS 4D", 0.9), gaps=((2,),))
    without = read_of(("near", "6S QS 5D", 0.6))
    assert codes(each_side_from_the_surer(without, with_gap).piles) == [["6S", "QS", "5D"]]


def test_a_card_on_two_sides_taken_from_different_reads_is_kept_once() -> None:
    as_it_is = read_of(("near", "6S 9C", 0.99), ("far", "KS", 0.3))
    stretched = read_of(("near", "6S", 0.5), ("far", "KS 9C 4S", 0.9))
    merged = each_side_from_the_surer(as_it_is, stretched)
    assert codes(merged.piles) == [["6S", "9C"], ["KS", "4S"]]
    assert merged.gaps_of(1) == (1,)  # where the far pile's 9C was read
    # with two decks a card may lie twice
    two = each_side_from_the_surer(as_it_is, stretched, decks=2)
    assert codes(two.piles) == [["6S", "9C"], ["KS", "9C", "4S"]]


def test_sides_from_two_reads_make_no_more_players_than_told() -> None:
    as_it_is = read_of(("near", "6S QS", 0.99), ("far", "KS 9C", 0.9))
    stretched = read_of(("near", "6S", 0.5), ("left", "2D 3D 4D", 0.9))
    assert each_side_from_the_surer(as_it_is, stretched, players=2) == as_it_is
    assert each_side_from_the_surer(as_it_is, stretched).sides == ("near", "left", "far")


# The right player's indices as the reader found them in test table t00030 (1632x1224): box,
# card, glyph turn. Their two piles slope about 30 degrees either way in the player's frame.
T00030_RIGHT = [
    (1061.3, 303.8, 1088.3, 316.2, "5H", 3),
    (1023.8, 363.4, 1054.9, 378.8, "3C", 3),
    (1141.3, 291.5, 1170.7, 304.4, "5H", 1),
    (1393.2, 523.5, 1436.5, 541.9, "JS", 3),
    (970.7, 454.2, 998.6, 469.1, "4H", 3),
    (984.1, 430.1, 1016.8, 447.0, "8D", 3),
    (1014.7, 388.3, 1042.9, 402.4, "AH", 3),
    (1432.1, 583.7, 1475.1, 605.3, "JD", 3),
    (1217.5, 245.2, 1247.6, 256.6, "2C", 3),
    (1360.6, 471.9, 1401.2, 491.9, "QD", 3),
    (953.4, 485.7, 989.4, 502.9, "KH", 3),
    (996.3, 412.0, 1026.3, 426.7, "10H", 3),
    (1050.4, 321.3, 1079.3, 336.4, "4D", 3),
    (1035.8, 344.4, 1072.4, 361.3, "KS", 3),
    (1190.1, 206.8, 1220.0, 218.3, "4S", 3),
    (1313.7, 291.5, 1345.3, 303.7, "7S", 1),
    (1302.2, 373.2, 1334.2, 387.7, "3D", 3),
    (1244.6, 289.9, 1272.4, 300.9, "3H", 3),
    (1230.2, 173.0, 1259.1, 183.5, "4S", 1),
    (1329.2, 420.9, 1361.8, 435.9, "3S", 3),
    (1288.5, 250.7, 1317.1, 261.7, "3H", 1),
    (1271.6, 333.0, 1303.6, 346.6, "7C", 3),
    (1258.6, 207.3, 1288.9, 218.9, "2S", 1),
    (1470.0, 526.6, 1515.4, 544.9, "JD", 1),
    (1405.0, 547.0, 1444.3, 566.0, "JC", 3),
    (1420.1, 573.8, 1466.0, 592.5, "JD", 3),
    (1398.9, 424.5, 1437.2, 437.8, "6H", 1),
    (958.0, 471.9, 990.8, 485.0, "3C", 3),
    (1348.4, 460.4, 1405.2, 478.3, "QD", 3),
    (1376.1, 499.4, 1423.1, 515.6, "4C", 3),
]


# ...each read as surely as 0.99, but a mark by KH's index that the reader read as 3C at 0.53 (the
# real 3C lies between AH and KS)
T00030_UNSURE = {(958.0, 471.9): 0.53}


def t00030_right() -> list[IndexRead]:
    """T00030_RIGHT's indices as the reader read them."""
    return [
        replace(
            facing(index_at((0.0, 0.0), Card.parse(code), T00030_UNSURE.get((x1, y1), 0.99)), turn),
            box=(x1, y1, x2, y2),
        )
        for x1, y1, x2, y2, code, turn in T00030_RIGHT
    ]


def test_a_players_two_piles_at_their_own_angles_are_each_one_pile() -> None:
    indices = t00030_right()
    photo = arrange_sides({3: indices}, width=1632, height=1224)
    # one angle for both piles broke them into four: [KH 3C] [4H 8D 10H AH KS 4D] [5H] [JD ...]
    assert codes(photo.piles) == [
        ["KH", "4H", "8D", "10H", "AH", "3C", "KS", "4D", "5H"],
        ["JD", "JC", "JS", "4C", "QD", "3S", "3D", "7C", "3H", "2C", "4S"],
    ]


def test_one_players_photo_of_two_piles_at_their_own_angles_reads_each_as_one_pile() -> None:
    # the same piles photographed alone, from their player's side: read as one player's
    indices = t00030_right()
    assert len(arrange(indices, width=1632, height=1224).piles) == 4  # one angle for both
    photo = arrange_at_own_angles(indices, width=1632, height=1224)
    assert codes(photo.piles) == [
        ["KH", "4H", "8D", "10H", "AH", "3C", "KS", "4D", "5H"],
        ["JD", "JC", "JS", "4C", "QD", "3S", "3D", "7C", "3H", "2C", "4S"],
    ]
    assert photo.sides == ("right", "right")


def test_one_players_piles_at_one_angle_read_as_they_always_did() -> None:
    mine = player(0, "6S QS 6C 10H", "AH 3D")
    assert arrange_at_own_angles(mine, width=1000, height=1000) == arrange(
        mine, width=1000, height=1000
    )


def sloping_row(
    text: str, origin: tuple[float, float], degrees: float, step: float = 22.0
) -> list[IndexRead]:
    """A row at `degrees` to its player's edge: its top-left indices upright, the last card's
    bottom-right corner upside down."""
    *tops, bottom = laid_row(text, origin=origin, degrees=degrees, step=step)
    return [*(facing(index, 0) for index in tops), facing(bottom, 2)]


def test_two_rows_at_their_own_angles_woven_into_one_are_parted_along_their_lines() -> None:
    # the lower row tilts up to meet the upper one's end: one angle for both takes their cards
    # in turn, a pile of fifteen
    upper = sloping_row("10H AS 9D AC 7H JS 5H 3C", (100.0, 100.0), 5.0)
    lower = sloping_row("8D QH QS 9H 10D KH QD", (90.0, 140.0), -12.0)
    assert len(arrange([*upper, *lower], width=1000, height=1000).piles) == 1
    photo = arrange_at_own_angles([*upper, *lower], width=1000, height=1000)
    assert codes(photo.piles) == [
        ["10H", "AS", "9D", "AC", "7H", "JS", "5H", "3C"],
        ["8D", "QH", "QS", "9H", "10D", "KH", "QD"],
    ]


def test_two_rows_at_their_own_angles_give_the_card_where_they_meet_to_the_row_it_lies_in() -> None:
    # the upper row slopes down to the lower one's middle: one angle for both reads as many
    # piles, but gives the lower row's 5D, just below the upper row's end, to the upper row
    upper = sloping_row("3D JS 7S KH AS", (90.0, 48.0), 28.0)
    *tops, bottom = laid_row(
        "9D JH QC 6C 6D 5D AH 3S 8S 4H", origin=(36.0, 166.0), degrees=-9.5, step=27.0
    )
    lower = [*(facing(index, 0) for index in tops), facing(bottom, 2)]
    one_angle = codes(arrange([*upper, *lower], width=1000, height=1000).piles)
    assert one_angle[0] == ["3D", "JS", "7S", "KH", "AS", "5D"]
    photo = arrange_at_own_angles([*upper, *lower], width=1000, height=1000)
    assert codes(photo.piles) == [
        ["3D", "JS", "7S", "KH", "AS"],
        ["9D", "JH", "QC", "6C", "6D", "5D", "AH", "3S", "8S", "4H"],
    ]


def test_two_rows_twenty_degrees_apart_that_one_angle_breaks_are_read_each_at_its_own() -> None:
    upper_text, lower_text = "JC 5D 3H 2H 6H 10C", "5S 7D 7S 5C JS 8H 2S 9D KH 10H 8S"
    upper = sloping_row(upper_text, (85.5, 268.5), 1.5, step=44.0)
    indices = upper + sloping_row(lower_text, (62.5, 389.5), -18.0, step=52.5)
    assert len(arrange(indices, width=1000, height=1000).piles) == 4  # the upper row in three
    photo = arrange_at_own_angles(indices, width=1000, height=1000)
    assert sorted(codes(photo.piles), key=len) == [upper_text.split(), lower_text.split()]


def line_of_points(start: tuple[float, float], degrees: float, count: int) -> np.ndarray:
    """`count` points 22 apart along a line from `start` at `degrees` to across."""
    steps = np.arange(count) * 22.0
    angle = np.radians(degrees)
    return np.column_stack([start[0] + steps * np.cos(angle), start[1] + steps * np.sin(angle)])


def test_two_nearly_parallel_rows_an_index_apart_are_two_lines_whatever_the_first_guess() -> None:
    upper = line_of_points((100.0, 100.0), 4.5, 10)
    lower = line_of_points((104.0, 150.0), 7.5, 10)
    points = np.vstack([upper, lower])
    truth = np.array([0] * 10 + [1] * 10)
    guessed = truth.copy()
    guessed[[2, 5, 13, 16]] = 1 - guessed[[2, 5, 13, 16]]  # four cards on the wrong row
    found = two_lines(points, guessed, 24.0)
    assert found is not None and np.array_equal(found, truth)


def test_one_row_is_never_two_lines() -> None:
    row = line_of_points((100.0, 100.0), 6.0, 12)
    assert two_lines(row, np.array([0, 1] * 6), 24.0) is None
    halves = np.array([0] * 6 + [1] * 6)  # each half a line of its own, one after the other
    assert two_lines(row, halves, 24.0) is None


def by_row_angle(group: list[IndexRead]) -> list[list[IndexRead]]:
    """A group's parts by the angle its rows run at, 30 degrees apart; the whole where none."""
    split = angle_split(group, 0, 1000, 1000, ROW_ANGLES_APART_DEGREES)
    return [group] if split is None else split.parts


def test_by_row_angle_parts_rows_only_where_they_run_apart() -> None:
    down = sloping_row("KH 4H 8D 10H AH 3C KS 4D", (300.0, 400.0), 35.0)
    up = sloping_row("JD JS QD 3S 3D 7C 3H 2C", (300.0, 700.0), -35.0)
    parts = by_row_angle([*down, *up])
    # each pile whole, its last card's bottom corner with it
    assert sorted(parts, key=lambda part: part[0].centre[1]) == [down, up]
    parallel = player(0, "6S QS 6C 10H 9H 2S", "AH 3D 7S 8C JC 5H")
    assert by_row_angle(parallel) == [parallel]


def test_by_row_angle_gives_a_rows_end_card_to_the_row_whose_line_it_lies_on() -> None:
    # the rising row passes just right of the falling row's last card (3C), so that 3C's
    # nearest neighbour, and the angle measured from it, are the rising row's
    down = sloping_row("KH 4H 8D 10H AH 3C", (300.0, 400.0), 35.0)
    end_x, end_y = next(index for index in down if index.card == Card.parse("3C")).centre
    rising = math.radians(-35.0)
    origin = (
        end_x + 15.0 - 96.0 * math.cos(rising) + 14.0 * math.sin(rising),
        end_y - 6.0 - 96.0 * math.sin(rising) - 14.0 * math.cos(rising),
    )
    up = sloping_row("JD JS QD 3S 3D 7C 3H 2C", origin, -35.0)
    parts = by_row_angle([*down, *up])
    assert sorted(parts, key=len) == [down, up]


def test_a_mark_read_unsurely_beside_a_rows_last_card_leaves_that_card_in_its_row() -> None:
    rising = sloping_row("KH 4H 8D 10H AH 3C KS 4D", (300.0, 500.0), -32.0)
    level = sloping_row("JD JS QD 3S 3D 7C 3H 2C", (300.0, 700.0), 0.0)
    x, y = rising[-2].centre  # the 4D's top index
    mark = facing(index_at((x + 10.0, y - 2.0), Card.parse("JC"), probability=0.2), 0)
    parts = by_row_angle([*rising, mark, *level])
    assert sorted(parts, key=lambda part: part[0].centre[1]) == [[*rising, mark], level]


def test_a_row_spread_wide_that_lost_a_top_index_lies_together_through_its_bottom_corner() -> None:
    row = oriented_row("7C JH 6D 6S", step=100.0, all_corners=True)
    lost = next(index for index in row if index.card.code == "JH" and index.orientation == 0)
    kept = [index for index in row if index is not lost]
    assert [len(group) for group in laid_apart(kept, 0)] == [len(kept)]
    photo = arrange_sides({0: kept}, width=1000, height=1000)
    # one pile, with a gap marker where the card lies (the reader reads it there)
    assert codes(photo.piles) == [["7C", "6D", "6S"]]
    assert photo.gaps == ((1,),)


def test_a_players_pile_below_the_other_stays_apart_though_near_its_bottom_corners() -> None:
    upper = oriented_row("7C JH 6D 6S", step=100.0, all_corners=True)
    lower = oriented_row("2D 9C QH KS", origin=(100.0, 280.0))
    groups = laid_apart([*upper, *lower], 0)
    assert sorted(len(group) for group in groups) == [len(lower), len(upper)]


def test_a_grid_on_one_side_of_the_table_is_said_of_that_sides_piles_alone() -> None:
    from test_layout import laid_grid

    near = [
        replace(index, box=(x1 + 300, y1 + 600, x2 + 300, y2 + 600))
        for index in laid_grid(["6S QS 6C 10H", "AH 3D 8S 5C"])
        for x1, y1, x2, y2 in [index.box]
    ]
    photo = arrange_table([*near, *player(2, "KS 9C 4S", "2D 7H")], width=1000, height=1000)
    assert codes(photo.piles) == [
        ["6S", "QS", "6C", "10H"],
        ["AH", "3D", "8S", "5C"],
        ["KS", "9C", "4S"],
        ["2D", "7H"],
    ]
    assert photo.rows_or_columns == (True, True, False, False)
    far_only = arrange_table(player(2, "KS 9C 4S", "2D 7H"), width=1000, height=1000)
    assert far_only.rows_or_columns == ()
