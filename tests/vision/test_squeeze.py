"""Photos squeezed along one axis: told from the indices' shape, read stretched back."""

from __future__ import annotations

from dataclasses import replace

import pytest

from blackcat.games.cards import parse_card
from blackcat.vision.squeeze import (
    LARGER_PHOTO_MARGIN,
    SEARCHED_FREELY_UP_TO,
    SEARCHED_STRETCHES,
    SEARCHED_UP_TO,
    STRETCHED_LONGEST,
    chooser_of_searched,
    likelier_right,
    narrowness,
    right_over_wrong,
    stretch_for,
    stretched_size,
    stretches_to_search,
    surer,
    unstretched,
)
from blackcat.vision.types import Guess, IndexRead, PhotoRead, ReadCard


def index(width: float, height: float, turn: int = 0, x: float = 100.0) -> IndexRead:
    orientations = tuple(0.97 if k == turn else 0.01 for k in range(4))
    return IndexRead(
        box=(x, 50.0, x + width, 50.0 + height),
        detection_confidence=0.9,
        guesses=(Guess(parse_card("7H"), 0.95),),
        orientations=orientations,
    )


def photo_of(*indices: IndexRead, size: tuple[int, int] = (640, 640)) -> PhotoRead:
    cards = tuple(ReadCard(parse_card("7H"), i.box, 0.95, i.guesses, (i,)) for i in indices)
    return PhotoRead(width=size[0], height=size[1], piles=(cards,))


def test_narrowness_is_measured_in_the_photos_axes_whichever_way_the_glyphs_stand() -> None:
    upright = [index(12, 40), index(14, 40), index(12, 40)]
    assert narrowness(photo_of(*upright)) == pytest.approx(0.3)
    # the same glyphs turned a quarter, in a photo squeezed the same way (across): as wide as
    # printed down the photo, their height squeezed across it
    turned = [index(40 * 0.3 / 0.47, 0.47 * 40, turn=1) for _ in range(3)]
    assert narrowness(photo_of(*turned)) == pytest.approx(0.3)


def test_a_photo_squeezed_down_is_stretched_down_whichever_way_its_glyphs_stand() -> None:
    # a seated camera: the table's depth squeezed to half; the near player's glyphs stand
    # upright, the side players' turned a quarter
    near = [index(0.47 * 40, 40 * 0.5) for _ in range(3)]
    sides = [index(40, 0.47 * 40 * 0.5, turn=turn) for turn in (1, 3, 1, 3)]
    assert stretch_for(photo_of(*near, *sides)) == pytest.approx((1.0, 2.0))


def test_too_few_sure_indices_tell_nothing() -> None:
    unsure = IndexRead((0, 0, 12, 40), 0.9, (Guess(parse_card("7H"), 0.4),), 1.0, (1, 0, 0, 0))
    assert narrowness(photo_of(index(12, 40), index(12, 40), unsure)) is None


@pytest.mark.parametrize(
    ("width", "height", "stretch"),
    [
        (19, 40, None),  # as decks print them
        (12, 40, (0.47 / 0.3, 1.0)),  # squeezed across: stretched across
        (36, 40, (1.0, 0.9 / 0.47)),  # squeezed down: stretched down
        (4, 40, (2.0, 1.0)),  # at most twice
    ],
)
def test_a_photo_is_stretched_only_where_its_indices_stand_out_of_shape(
    width: float, height: float, stretch: tuple[float, float] | None
) -> None:
    found = stretch_for(photo_of(*(index(width, height) for _ in range(4))))
    assert found == (None if stretch is None else pytest.approx(stretch))


def test_a_whole_table_is_stretched_down_sooner_than_one_players_piles() -> None:
    # glyphs 0.55 wide: within what decks print, but on a table a seated camera's squeeze
    cards = [index(0.55 * 40, 40) for _ in range(4)]
    one_player = photo_of(*cards)
    table = replace(one_player, piles=(one_player.piles[0][:2], one_player.piles[0][2:]))
    assert stretch_for(one_player) is None
    assert stretch_for(replace(table, sides=("near", "near"))) is None
    assert stretch_for(replace(table, sides=("near", "far"))) == pytest.approx((1.0, 0.55 / 0.47))


def test_a_small_frame_is_enlarged_and_a_large_one_kept_to_its_size() -> None:
    assert stretched_size((640, 640), (1.6, 1.0), STRETCHED_LONGEST) == (1024, 640)
    assert stretched_size((4000, 3000), (1.5, 1.0), 4000) == (4000, 2000)


def test_boxes_read_stretched_land_in_the_photo_as_it_is() -> None:
    read = photo_of(index(30, 40, x=500.0), size=(1024, 640))
    back = unstretched(read, (640, 640))
    card = back.piles[0][0]
    assert (back.width, back.height) == (640, 640)
    assert card.box == pytest.approx((312.5, 50.0, 331.25, 90.0))
    assert card.indices[0].box == card.box


def test_only_a_small_photo_of_one_players_cards_is_searched_for_a_squeeze() -> None:
    one_player = photo_of(index(30, 40), index(30, 40, x=200.0))
    table = replace(one_player, piles=(one_player.piles[0][:1], one_player.piles[0][1:]))
    assert stretches_to_search(one_player, 640) == SEARCHED_STRETCHES
    assert stretches_to_search(one_player, SEARCHED_UP_TO) == SEARCHED_STRETCHES
    assert stretches_to_search(one_player, SEARCHED_UP_TO + 1) == ()
    assert stretches_to_search(one_player, 1920) == SEARCHED_STRETCHES  # a 1080p webcam frame
    # a larger photo whose first read shows more piles than one player lays: not searched
    three = photo_of(*(index(19, 40, x=x) for x in (100.0, 200.0, 300.0)))  # as printed
    three_piles = replace(three, piles=tuple((card,) for card in three.piles[0]))
    assert stretches_to_search(three_piles, 640) == SEARCHED_STRETCHES
    assert stretches_to_search(three_piles, SEARCHED_FREELY_UP_TO) == SEARCHED_STRETCHES
    assert stretches_to_search(three_piles, SEARCHED_FREELY_UP_TO + 1) == ()
    assert stretches_to_search(replace(table, sides=("near", "far")), 640) == ()
    squeezed = photo_of(*(index(12, 40) for _ in range(4)))
    assert stretch_for(squeezed) is not None and stretches_to_search(squeezed, 640) == ()
    # 16:9 and 4:3 frames resized to a square, either way, and undone
    assert {round(max(stretch), 2) for stretch in SEARCHED_STRETCHES} == {1.33, 1.78}
    assert {stretch.index(1.0) for stretch in SEARCHED_STRETCHES} == {0, 1}


def test_a_read_is_surer_where_it_is_sure_of_more_cards_and_of_no_smaller_share() -> None:
    def read_of(sure: int, flagged: int) -> PhotoRead:
        cards = [ReadCard(parse_card("7H"), (0, 0, 1, 1), 0.99, (), ()) for _ in range(sure)]
        cards += [ReadCard(parse_card("7H"), (0, 0, 1, 1), 0.2, (), ()) for _ in range(flagged)]
        return PhotoRead(640, 640, (tuple(cards),))

    assert surer(read_of(3, 1), read_of(2, 2))
    assert not surer(read_of(2, 0), read_of(2, 0))  # as sure: the first read stays
    # one more sure card bought with three more flagged ones (a wrong stretch's phantoms)
    assert not surer(read_of(6, 2), read_of(5, 0))
    assert surer(read_of(1, 0), read_of(0, 0))


def read_of_confidences(*piles: tuple[float, ...]) -> PhotoRead:
    """A read of piles of 7H, each card read with one of the confidences given."""
    return PhotoRead(
        640,
        640,
        tuple(
            tuple(ReadCard(parse_card("7H"), (0, 0, 1, 1), p, (), ()) for p in pile)
            for pile in piles
        ),
    )


def test_a_read_is_likelier_right_where_more_of_its_cards_are_likely_right_than_wrong() -> None:
    assert right_over_wrong(read_of_confidences((0.99, 0.4))) == pytest.approx(0.98 - 0.2)
    three_sure = read_of_confidences((0.99, 0.99, 0.99))
    assert likelier_right(three_sure, read_of_confidences((0.99, 0.99, 0.3)))
    assert not likelier_right(three_sure, three_sure)  # a tie keeps the read so far
    # one more sure card bought with three unlikely ones (a wrong stretch's phantoms)
    assert not likelier_right(read_of_confidences((0.99, 0.99, 0.2, 0.2, 0.2)), three_sure)
    # a card flagged at 0.7 is likelier right than missing, where `surer` counts it for nothing
    flagged_too, alone = read_of_confidences((0.99, 0.7)), read_of_confidences((0.99,))
    assert likelier_right(flagged_too, alone) and not surer(flagged_too, alone)


def test_searched_reads_of_one_players_piles_are_judged_by_likely_right_cards() -> None:
    one_player = read_of_confidences((0.99, 0.7), (0.99,))
    assert chooser_of_searched(one_player, 640) is likelier_right
    # more piles than one player lays: perhaps a whole table too small to tell its sides
    assert chooser_of_searched(read_of_confidences((0.99,), (0.7,), (0.6,)), 640) is surer


def test_a_larger_photos_searched_read_must_be_likelier_right_by_a_margin() -> None:
    kept = read_of_confidences((0.99, 0.99, 0.99), (0.8,))
    better = chooser_of_searched(kept, SEARCHED_FREELY_UP_TO + 1)
    # 0.3 of a card likelier right: as often worse as better in a larger photo
    barely = read_of_confidences((0.99, 0.99, 0.99), (0.95,))
    assert likelier_right(barely, kept) and not better(barely, kept)
    clearly = read_of_confidences((0.99, 0.99, 0.99), (0.99, 0.7))
    assert right_over_wrong(clearly) - right_over_wrong(kept) > LARGER_PHOTO_MARGIN
    assert better(clearly, kept)
