"""Who sits where in a photo of the whole table."""

from __future__ import annotations

import pytest

from blackcat.i18n import translator
from blackcat.tables.black_cat_table import TableError
from blackcat.tables.seating import (
    Seat,
    TooManySides,
    clockwise_from,
    moves_for_new_photographer,
    players_for_sides,
    seat_players,
)

ANN, BEN, CAT, DAN = 11, 22, 33, 44
TABLE = (ANN, BEN, CAT, DAN)
FOUR_SIDES = (("near", (2,)), ("left", (0,)), ("far", (1, 3)), ("right", (4,)))


def unseated(seating: tuple[Seat, ...], player_ids: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(player for player in player_ids if player not in {s.player_id for s in seating})


def test_the_table_goes_round_from_the_photographer() -> None:
    assert clockwise_from(TABLE, ANN) == TABLE
    assert clockwise_from(TABLE, CAT) == (CAT, DAN, ANN, BEN)
    assert clockwise_from(TABLE, DAN) == (DAN, ANN, BEN, CAT)


def test_the_photographer_must_be_at_the_table() -> None:
    with pytest.raises(TableError, match="photographer"):
        clockwise_from(TABLE, 99)


def test_the_photographer_has_the_near_side_and_the_others_follow_clockwise() -> None:
    assert seat_players(FOUR_SIDES, TABLE, CAT) == (
        Seat("near", CAT, (2,)),
        Seat("left", DAN, (0,)),
        Seat("far", ANN, (1, 3)),
        Seat("right", BEN, (4,)),
    )


def test_empty_sides_are_skipped_the_next_player_takes_the_next_occupied_side() -> None:
    three = (("near", (0,)), ("far", (1,)), ("right", (2,)))
    seating = seat_players(three, (ANN, BEN, CAT), BEN)
    assert [(seat.side, seat.player_id) for seat in seating] == [
        ("near", BEN),
        ("far", CAT),
        ("right", ANN),
    ]


def test_fewer_sides_than_players_leaves_the_last_players_unseated() -> None:
    seating = seat_players((("near", (0, 1)), ("left", (2,))), (ANN, BEN, CAT), BEN)
    assert [seat.player_id for seat in seating] == [BEN, CAT]
    assert unseated(seating, (ANN, BEN, CAT)) == (ANN,)


def test_at_a_table_of_four_each_side_is_its_own_players_and_an_empty_ones_player_none() -> None:
    # Ben photographs; Cat on his left has no piles in the photo: Dan's are across, Ann's right
    three = (("near", (0,)), ("far", (1, 2)), ("right", (3,)))
    seating = seat_players(three, TABLE, BEN)
    assert [(seat.side, seat.player_id) for seat in seating] == [
        ("near", BEN),
        ("far", DAN),
        ("right", ANN),
    ]
    assert unseated(seating, TABLE) == (CAT,)
    only_across = seat_players((("near", (0, 1)), ("far", (2,))), TABLE, BEN)
    assert [seat.player_id for seat in only_across] == [BEN, DAN]
    assert unseated(only_across, TABLE) == (ANN, CAT)


def test_more_sides_than_players_is_refused_with_the_counts() -> None:
    with pytest.raises(TooManySides) as refused:
        seat_players(FOUR_SIDES, (ANN, BEN, CAT), ANN)
    assert (refused.value.sides, refused.value.players) == (4, 3)
    assert str(refused.value) == "piles on 4 sides of the table, but 3 players"
    assert refused.value.describe(translator("es")) == (
        "hay pilas en 4 lados de la mesa, pero 3 jugadores"
    )


def test_a_photo_of_one_players_piles_is_all_the_photographers() -> None:
    seating = seat_players((("near", (0, 1)),), TABLE, DAN)
    assert seating == (Seat("near", DAN, (0, 1)),)
    assert unseated(seating, TABLE) == (ANN, BEN, CAT)


def test_a_table_of_one_lacks_a_player_for_each_other_side_named_by_it() -> None:
    assert players_for_sides(FOUR_SIDES, 1) == ("Left", "Across", "Right")
    assert players_for_sides((("near", (0,)), ("far", (1,))), 1) == ("Across",)
    assert players_for_sides((("near", (0, 1)),), 1) == ()  # one player's piles: nobody
    # a table of several: where the missing ones sit among them only the players know
    assert players_for_sides(FOUR_SIDES, 2) == ()


def test_another_photographer_moves_every_players_piles_as_many_seats_on() -> None:
    assert moves_for_new_photographer(TABLE, ANN, ANN) == {ANN: ANN, BEN: BEN, CAT: CAT, DAN: DAN}
    assert moves_for_new_photographer(TABLE, ANN, CAT) == {ANN: CAT, BEN: DAN, CAT: ANN, DAN: BEN}
    assert moves_for_new_photographer(TABLE, DAN, ANN) == {DAN: ANN, ANN: BEN, BEN: CAT, CAT: DAN}


def test_at_a_table_of_three_a_side_goes_to_the_player_every_seating_puts_there() -> None:
    # Ben photographs; Cat sits next clockwise, then Ann. Piles on his right alone are Ann's:
    # Cat, between Ben and Ann, can't sit there (they went to Cat, the next player in order)
    right = seat_players((("near", (0,)), ("right", (1,))), (ANN, BEN, CAT), BEN)
    assert [(s.side, s.player_id, s.or_else) for s in right] == [
        ("near", BEN, ()),
        ("right", ANN, ()),
    ]
    left = seat_players((("near", (0,)), ("left", (1,))), (ANN, BEN, CAT), BEN)
    assert [(s.side, s.player_id, s.or_else) for s in left] == [
        ("near", BEN, ()),
        ("left", CAT, ()),
    ]


def test_piles_across_alone_at_a_table_of_three_may_be_either_others() -> None:
    across = seat_players((("near", (0,)), ("far", (1,))), (ANN, BEN, CAT), BEN)
    assert [(s.side, s.player_id, s.or_else) for s in across] == [
        ("near", BEN, ()),
        ("far", ANN, (CAT,)),  # Cat left and Ann across, or Cat across and Ann right
    ]


def test_a_table_of_two_has_its_other_player_on_any_side() -> None:
    for side in ("left", "far", "right"):
        seating = seat_players((("near", (0,)), (side, (1,))), (ANN, BEN), BEN)
        assert [(s.player_id, s.or_else) for s in seating] == [(BEN, ()), (ANN, ())]


def test_sides_no_seating_fits_go_in_order_from_the_photographer() -> None:
    # three players, piles on the three sides but the photographer's: his were read as left's
    seating = seat_players((("left", (0,)), ("far", (1,)), ("right", (2,))), (ANN, BEN, CAT), BEN)
    assert [s.player_id for s in seating] == [BEN, CAT, ANN]
