"""The layout step on hand-made detections: no model involved."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from blackcat.games.cards import Card, parse_pile
from blackcat.vision.calibration import Calibration
from blackcat.vision.layout import (
    ONE_DECK_DROP_BELOW,
    TAKEN_CONFIDENCE,
    agreeing,
    arrange,
    drop_repeated_detections,
    find_columns,
    missing_corner,
    nearest_beside_each,
    placed_once,
    row_angle,
    row_step,
    seen_as_a_cards_corners,
)
from blackcat.vision.types import Guess, IndexRead, PhotoRead, ReadCard

INDEX_W, INDEX_H = 12.0, 24.0
CARD_W, CARD_H = 63.0, 88.0


def index_at(centre: tuple[float, float], card: Card, probability: float = 0.99) -> IndexRead:
    x, y = centre
    box = (x - INDEX_W / 2, y - INDEX_H / 2, x + INDEX_W / 2, y + INDEX_H / 2)
    return IndexRead(box=box, detection_confidence=0.95, guesses=(Guess(card, probability),))


Point = tuple[float, float]


def turned(origin: Point, dx: float, dy: float, degrees: float) -> Point:
    angle = math.radians(degrees)
    return (
        origin[0] + dx * math.cos(angle) - dy * math.sin(angle),
        origin[1] + dx * math.sin(angle) + dy * math.cos(angle),
    )


def laid_row(
    text: str,
    *,
    origin: tuple[float, float] = (100.0, 100.0),
    step: float = 22.0,
    degrees: float = 0.0,
    all_corners: bool = False,
) -> list[IndexRead]:
    """A row as laid on the table: each card on top of the previous one, to its right, so every
    top-left index shows, and the bottom-right index of the last card (of all, if spread)."""
    cards = parse_pile(text)
    indices = []
    for position, card in enumerate(cards):
        top_left = turned(origin, position * step + 8, 14, degrees)
        indices.append(index_at(top_left, card))
        if all_corners or position == len(cards) - 1:
            bottom_right = turned(origin, position * step + CARD_W - 8, CARD_H - 14, degrees)
            indices.append(index_at(bottom_right, card))
    return indices


def codes(piles) -> list[list[str]]:
    return [[read.card.code for read in pile] for pile in piles]


def test_a_row_sloping_steeply_in_its_frame_makes_no_columns_of_every_other_card() -> None:
    # each card a third of its index height lower than the last: every other card lies below
    row = [(77.0 + 36.5 * n, 1132.0 + 22.0 * n) for n in range(7)]
    assert find_columns(row, [67.0] * 7, 67.0, 1.44, 38.3, {6}) == []
    column = [(100.0 + 5.0 * n, 100.0 + 80.0 * n) for n in range(5)]
    beside = [(x + 200.0, y) for x, y in column]
    found = find_columns(column + beside, [67.0] * 10, 67.0, 1.44, 38.3, {4, 9})
    assert found == [(0, 1, 2, 3, 4), (5, 6, 7, 8, 9)]


def test_an_empty_photo_has_no_piles() -> None:
    assert arrange([]).piles == ()


def test_two_corners_of_one_card_make_one_card() -> None:
    photo = arrange(laid_row("QS"))
    assert codes(photo.piles) == [["QS"]]
    assert len(photo.piles[0][0].indices) == 2


def test_one_row_is_ordered_left_to_right_whatever_the_detection_order() -> None:
    indices = laid_row("8D 2H 8H 10S 6C AH 3D 7D")
    photo = arrange(list(reversed(indices)))
    assert codes(photo.piles) == [["8D", "2H", "8H", "10S", "6C", "AH", "3D", "7D"]]


def test_two_rows_are_two_piles_top_first() -> None:
    top = laid_row("KS 9C 4S", origin=(50.0, 40.0))
    bottom = laid_row("6S QS 6C 10H", origin=(70.0, 200.0))
    photo = arrange(bottom + top)
    assert codes(photo.piles) == [["KS", "9C", "4S"], ["6S", "QS", "6C", "10H"]]


@pytest.mark.parametrize("degrees", [-20.0, -12.0, 7.0, 20.0])
def test_a_tilted_photo_keeps_rows_and_order(degrees: float) -> None:
    top = laid_row("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S", origin=(200.0, 150.0), degrees=degrees)
    bottom = turned((200.0, 150.0), 0, 140, degrees)
    second = laid_row("AH 2H 3H 4H 5H 6H 7H", origin=bottom, degrees=degrees)
    photo = arrange(second + top)
    assert codes(photo.piles) == [
        ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S"],
        ["AH", "2H", "3H", "4H", "5H", "6H", "7H"],
    ]
    assert math.degrees(row_angle([i.centre for i in top])) == pytest.approx(degrees, abs=0.5)


def test_each_points_nearest_neighbour_beside_it_points_right() -> None:
    # a row of three, a bottom corner straight below the first, and a point lying on the last
    points = [(0.0, 0.0), (30.0, 2.0), (70.0, 0.0), (0.0, 50.0), (70.0, 0.0)]
    assert nearest_beside_each(points) == [
        (30.0, 2.0),  # not the corner below: more than 45 degrees from across
        (30.0, 2.0),  # its left neighbour, nearer than its right, turned to point right
        (40.0, -2.0),
        (70.0, -50.0),  # the only point within 45 degrees of across
        (40.0, -2.0),
    ]
    assert nearest_beside_each([(5.0, 5.0)]) == [None]
    assert nearest_beside_each([]) == []


def test_row_step_skips_a_cards_own_corners() -> None:
    # 5H shows two top corners 20 apart, then 6S and 7S 45 apart
    points = [(0.0, 0.0), (20.0, 0.0), (45.0, 0.0), (90.0, 0.0)]
    cards = [Card.parse(code) for code in ("5H", "5H", "6S", "7S")]
    assert row_step(points, cards, fallback=99.0) == 35.0  # the median of 45, 25, 25, 45
    assert row_step(points[:2], cards[:2], fallback=99.0) == 99.0


def test_a_fully_spread_row_merges_each_cards_corners() -> None:
    photo = arrange(laid_row("5H 5D KS", step=CARD_W + 10, all_corners=True))
    assert codes(photo.piles) == [["5H", "5D", "KS"]]
    assert all(len(read.indices) == 2 for read in photo.piles[0])


def test_with_two_decks_two_copies_side_by_side_stay_two_cards() -> None:
    photo = arrange(laid_row("3C QH QH 7D"), decks=2)
    assert codes(photo.piles) == [["3C", "QH", "QH", "7D"]]


def test_with_two_decks_two_spread_copies_keep_their_own_corners() -> None:
    photo = arrange(laid_row("QH QH", step=CARD_W + 6, all_corners=True), decks=2)
    assert codes(photo.piles) == [["QH", "QH"]]
    assert [len(read.indices) for read in photo.piles[0]] == [2, 2]


def test_with_one_deck_a_far_away_duplicate_is_kept_for_the_person_to_see() -> None:
    top = laid_row("QH 2C", origin=(50.0, 40.0))
    bottom = laid_row("5D QH", origin=(50.0, 400.0))
    photo = arrange(top + bottom)
    assert codes(photo.piles) == [["QH", "2C"], ["5D", "QH"]]
    assert [card.doubtful for pile in photo.piles for card in pile].count(True) == 1


def test_doubtful_cards_are_flagged_with_their_alternatives() -> None:
    unsure = IndexRead(
        box=(10, 10, 22, 34),
        detection_confidence=0.9,
        guesses=(Guess(Card.parse("8C"), 0.55), Guess(Card.parse("6C"), 0.30)),
    )
    photo = arrange([unsure])
    read = photo.piles[0][0]
    assert read.doubtful
    assert [guess.card.code for guess in read.alternatives] == ["8C", "6C"]
    assert read.confidence == pytest.approx(0.9 * 0.55)


def test_confident_cards_are_not_doubtful() -> None:
    photo = arrange(laid_row("8C 2D"))
    assert not any(read.doubtful for read in photo.piles[0])


# ---------------------------------------------------------------------------------------------
# with the glyphs' orientations (the classifier's quarter turns)


def facing(index: IndexRead, turns: int, sure: float = 0.95) -> IndexRead:
    """The index with the classifier saying its glyph stands at `turns` quarter turns."""
    orientations = [(1 - sure) / 3] * 4
    orientations[turns % 4] = sure
    return replace(index, orientations=tuple(orientations))


def oriented_row(text: str, *, up: int = 0, **kwargs) -> list[IndexRead]:
    """A row whose top-left indices stand at quarter turn `up` and bottom-right ones opposite."""
    out = []
    for index in laid_row(text, **kwargs):
        is_bottom = index.centre[1] > kwargs.get("origin", (100.0, 100.0))[1] + CARD_H / 2
        out.append(facing(index, up + (2 if is_bottom else 0)))
    return out


def turn_quarter(index: IndexRead, width: float) -> IndexRead:
    """The index in the photo turned a quarter clockwise (the picture `width` wide before)."""
    x1, y1, x2, y2 = index.box
    return replace(index, box=(0 - y2 + width, x1, 0 - y1 + width, x2))


def test_an_upside_down_corner_read_as_another_card_is_dropped_not_a_pile() -> None:
    row = oriented_row("10H 10C 5S")
    misread = replace(row[-1], guesses=(Guess(Card.parse("QH"), 0.9),))
    photo = arrange([*row[:-1], misread])
    assert codes(photo.piles) == [["10H", "10C", "5S"]]


def test_an_upside_down_corner_confirms_its_card() -> None:
    photo = arrange(oriented_row("8C 2D QS"))
    assert codes(photo.piles) == [["8C", "2D", "QS"]]
    assert len(photo.piles[0][-1].indices) == 2


def test_a_card_showing_only_its_bottom_corner_is_read_from_it() -> None:
    row = oriented_row("8C 2D QS")
    # a card whose top corner lies under a book: only its bottom-right index shows, upside down
    hidden_top = facing(index_at((420.0, 400.0), Card.parse("KH")), 2)
    photo = arrange([*row, hidden_top])
    assert sorted(codes(photo.piles)) == [["8C", "2D", "QS"], ["KH"]]


def test_an_unsure_lone_bottom_corner_is_no_card() -> None:
    row = oriented_row("8C 2D QS")
    unsure = facing(index_at((420.0, 400.0), Card.parse("KH"), probability=0.6), 2)
    assert codes(arrange([*row, unsure]).piles) == [["8C", "2D", "QS"]]


def test_a_lone_bottom_corner_of_a_card_already_read_is_no_second_card() -> None:
    row = oriented_row("8C 2D QS")
    again = facing(index_at((420.0, 400.0), Card.parse("2D")), 2)
    assert codes(arrange([*row, again]).piles) == [["8C", "2D", "QS"]]


def _stranger_below_2d() -> IndexRead:
    """A sure upside-down 7S below the 2D of `oriented_row("8C 2D QS")`, its next guess 2D."""
    stranger = facing(index_at((150.0, 180.0), Card.parse("7S")), 2)
    return _misread(stranger, ("7S", 0.97), ("2D", 0.02))


def test_a_sure_corner_of_another_card_does_not_join_the_card_above_it() -> None:
    """A real photo: a 10S lying upside down beside a QS, its two sure corners read 10S (the QS's
    own guesses gave 10S 0.02), joined the QS, which came out doubtful."""
    photo = arrange([*oriented_row("8C 2D QS"), _stranger_below_2d()])
    assert codes(photo.piles) == [["8C", "2D", "QS"]]
    two = photo.piles[0][1]
    assert len(two.indices) == 1
    assert two.confidence > 0.9


def test_on_a_tables_side_a_sure_corner_of_another_card_joins_as_before() -> None:
    photo = arrange([*oriented_row("8C 2D QS"), _stranger_below_2d()], lone_corners=False)
    assert codes(photo.piles) == [["8C", "2D", "QS"]]
    assert len(photo.piles[0][1].indices) == 2


def test_four_index_decks_bottom_left_corners_make_no_second_pile() -> None:
    row = oriented_row("AS 7D 3H KC")
    bottom_left = [
        facing(index_at((index.centre[0], index.centre[1] + CARD_H - 28), index.card), 2)
        for index in row[:4]
    ]
    last = row[3]
    top_right = facing(index_at((last.centre[0] + CARD_W - 16, last.centre[1]), last.card), 0)
    photo = arrange([*row, *bottom_left, top_right])
    assert codes(photo.piles) == [["AS", "7D", "3H", "KC"]]
    assert len(photo.piles[0][-1].indices) == 4


def arrange_turned(
    indices: list[IndexRead], width: float, height: float, quarter_turns: int
) -> PhotoRead:
    """The layout of a photo of these indices, turned by quarter turns (the glyphs with it)."""
    for _ in range(quarter_turns):
        indices = [
            facing(turn_quarter(index, height), (index.orientation or 0) + 1) for index in indices
        ]
        width, height = height, width
    return arrange(indices, width=int(width), height=int(height))


@pytest.mark.parametrize("up", [0, 1, 2, 3])
def test_a_photo_turned_any_quarter_reads_rows_as_the_cards_stand(up: int) -> None:
    top = oriented_row("KS 9C 4S 5H 5D", origin=(100.0, 100.0))
    bottom = oriented_row("6S QS 6C 10H", origin=(100.0, 260.0))
    photo = arrange_turned(top + bottom, 400.0, 420.0, up)
    assert codes(photo.piles) == [["KS", "9C", "4S", "5H", "5D"], ["6S", "QS", "6C", "10H"]]


def test_what_the_classifier_calls_no_index_is_no_card() -> None:
    row = laid_row("8C 2D")
    pip = replace(index_at((300.0, 300.0), Card.parse("AS")), index_probability=0.2)
    assert codes(arrange([*row, pip]).piles) == [["8C", "2D"]]


def test_with_one_deck_a_duplicate_takes_its_next_guess() -> None:
    sure = index_at((100.0, 100.0), Card.parse("5S"), 0.95)
    unsure = replace(
        index_at((122.0, 100.0), Card.parse("5S")),
        guesses=(Guess(Card.parse("5S"), 0.6), Guess(Card.parse("6S"), 0.35)),
    )
    photo = arrange([sure, unsure])
    assert codes(photo.piles) == [["5S", "6S"]]
    assert photo.piles[0][1].doubtful


def test_with_one_deck_a_sure_card_is_not_pushed_to_a_far_fetched_guess() -> None:
    row = laid_row("JC 3D KC")
    row[0] = replace(row[0], guesses=(Guess(Card.parse("JC"), 0.92), Guess(Card.parse("JS"), 4e-4)))
    unsure = (Guess(Card.parse("KC"), 0.51), Guess(Card.parse("JC"), 0.14))
    far = replace(index_at((100.0, 400.0), Card.parse("KC")), guesses=unsure)
    photo = arrange([*row, far], decks=1)
    assert codes(photo.piles) == [["JC", "3D", "KC"], ["KC"]]
    assert [card.doubtful for card in photo.piles[1]] == [True]


@pytest.mark.parametrize("next_guess", [0.05, 0.2])
def test_with_one_deck_a_card_taken_already_and_unlikely_otherwise_is_a_gap(
    next_guess: float,
) -> None:
    row = laid_row("5S 9D KC")
    between = replace(
        index_at((row[1].centre[0] + 11.0, row[1].centre[1]), Card.parse("9D")),
        guesses=(Guess(Card.parse("9D"), 0.8), Guess(Card.parse("2C"), next_guess)),
    )
    photo = arrange([*row, between])
    if next_guess < ONE_DECK_DROP_BELOW:
        assert codes(photo.piles) == [["5S", "9D", "KC"]]
        assert photo.gaps == ((2,),)
    else:
        assert codes(photo.piles) == [["5S", "9D", "2C", "KC"]]


def test_with_two_decks_duplicates_stay() -> None:
    sure = index_at((100.0, 100.0), Card.parse("5S"), 0.95)
    unsure = replace(
        index_at((122.0, 100.0), Card.parse("5S")),
        guesses=(Guess(Card.parse("5S"), 0.6), Guess(Card.parse("6S"), 0.35)),
    )
    assert codes(arrange([sure, unsure], decks=2).piles) == [["5S", "5S"]]


def test_a_card_and_its_alternatives_share_one_calibrated_probability() -> None:
    calibration = Calibration((), (0.0, 0.5, 1.0), (0.0, 0.2, 0.9), doubtful_below=0.5)
    unsure = IndexRead(
        box=(10, 10, 22, 34),
        detection_confidence=1.0,
        guesses=(Guess(Card.parse("8C"), 0.6), Guess(Card.parse("6C"), 0.3)),
    )
    read = arrange([unsure], calibration=calibration).piles[0][0]
    assert read.confidence == pytest.approx(0.2 + 0.7 * 0.2)
    assert read.alternatives[0].probability == read.confidence
    # in the classifier's proportion to the best guess, and all together at most 1
    assert read.alternatives[1].probability == pytest.approx(read.confidence * 0.3 / 0.6)
    assert read.doubtful


def test_one_index_detected_twice_is_one_card_whatever_each_read() -> None:
    row = laid_row("8C 2D 9H")
    again = replace(
        index_at((row[1].centre[0] + 3, row[1].centre[1] + 2), Card.parse("3D")),
        detection_confidence=0.4,
    )
    assert codes(arrange([*row, again]).piles) == [["8C", "2D", "9H"]]


# ---------------------------------------------------------------------------------------------
# geometry measured in the photo itself: any index size, any spacing, any side of the table


def sized_index(centre: Point, card: Card, size: tuple[float, float], turns: int) -> IndexRead:
    x, y = centre
    w, h = size
    box = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
    return facing(
        IndexRead(box=box, detection_confidence=0.95, guesses=(Guess(card, 0.99),)), turns
    )


def dealt_row(
    text: str,
    *,
    index: tuple[float, float],
    step: float,
    origin: Point = (100.0, 100.0),
    spread: bool = False,
    four_index: bool = False,
    margin: float = 4.0,
    drift: float = 0.0,
) -> list[IndexRead]:
    """A row of cards CARD_W x CARD_H with indices of the given size, each card `step` to the
    right of the one before. Each card's left strip shows (its top-left index, and bottom-left
    on a four-index deck), the last card (every card, if spread) shows all its corners. Glyphs
    stand upright, bottom corners upside down. The second half of the row lies `drift` lower
    (a row laid carelessly)."""
    w, h = index
    left, top = margin + w / 2, margin + h / 2
    right, bottom = CARD_W - margin - w / 2, CARD_H - margin - h / 2
    cards = parse_pile(text)
    out = []
    for position, card in enumerate(cards):
        x = origin[0] + position * step
        y = origin[1] + (drift if position >= len(cards) / 2 else 0.0)
        whole = spread or position == len(cards) - 1
        out.append(sized_index((x + left, y + top), card, index, 0))
        if four_index:
            out.append(sized_index((x + left, y + bottom), card, index, 2))
        if whole:
            out.append(sized_index((x + right, y + bottom), card, index, 2))
        if whole and four_index:
            out.append(sized_index((x + right, y + top), card, index, 0))
    return out


def without_orientations(indices: list[IndexRead]) -> list[IndexRead]:
    return [replace(index, orientations=()) for index in indices]


JUMBO = (20.0, 40.0)  # an index 2.5 times taller than the row's offset below
TWO_JUMBO_ROWS = ("AS 7D 3H KC 9S 2C", "QD 4H 10C 8S JH")


@pytest.mark.parametrize("four_index", [False, True], ids=["two-index", "four-index"])
def test_jumbo_indices_taller_than_the_offset_keep_every_card(four_index: bool) -> None:
    top = dealt_row(TWO_JUMBO_ROWS[0], index=JUMBO, step=16.0, four_index=four_index)
    bottom = dealt_row(TWO_JUMBO_ROWS[1], index=JUMBO, step=16.0, origin=(90.0, 200.0))
    photo = arrange(top + bottom)
    assert codes(photo.piles) == [row.split() for row in TWO_JUMBO_ROWS]


def test_jumbo_indices_without_orientations_join_their_bottom_corner() -> None:
    row = without_orientations(dealt_row("AS 7D 3H KC 9S", index=JUMBO, step=16.0))
    photo = arrange(row)
    assert codes(photo.piles) == [["AS", "7D", "3H", "KC", "9S"]]
    assert len(photo.piles[0][-1].indices) == 2


@pytest.mark.parametrize("up", [1, 2, 3])
def test_jumbo_rows_in_a_turned_photo_read_as_the_cards_stand(up: int) -> None:
    top = dealt_row(TWO_JUMBO_ROWS[0], index=JUMBO, step=16.0)
    bottom = dealt_row(TWO_JUMBO_ROWS[1], index=JUMBO, step=16.0, origin=(90.0, 200.0))
    photo = arrange_turned(top + bottom, 400.0, 420.0, up)
    assert codes(photo.piles) == [row.split() for row in TWO_JUMBO_ROWS]


def test_tiny_indices_in_a_carelessly_laid_row_stay_one_row() -> None:
    row = without_orientations(
        dealt_row("AS 7D 3H KC 9S 2C", index=(5.0, 10.0), step=22.0, drift=20.0)
    )
    below = without_orientations(
        dealt_row("QD 4H 10C", index=(5.0, 10.0), step=22.0, origin=(100.0, 240.0))
    )
    photo = arrange(row + below)
    assert codes(photo.piles) == [["AS", "7D", "3H", "KC", "9S", "2C"], ["QD", "4H", "10C"]]


def test_a_tight_row_showing_less_than_an_index_width_of_each_card_keeps_every_card() -> None:
    row = dealt_row("8D 2H 8H 10S 6C AH 3D 7D", index=(INDEX_W, INDEX_H), step=INDEX_W - 1)
    photo = arrange(row)
    assert codes(photo.piles) == [["8D", "2H", "8H", "10S", "6C", "AH", "3D", "7D"]]


@pytest.mark.parametrize("degrees", [0.0, 10.0])
def test_wide_spread_rows_of_a_four_index_deck_are_two_rows_of_whole_cards(degrees) -> None:
    spread = {"index": (INDEX_W, INDEX_H), "step": 2.5 * CARD_W, "spread": True, "four_index": True}
    top = dealt_row("5H 5D KS", **spread)
    bottom = dealt_row("2C 9D", origin=(100, 230), **spread)
    indices = [
        replace(index, box=_turned_box(index.box, (100.0, 100.0), degrees))
        for index in top + bottom
    ]
    photo = arrange(indices)
    assert codes(photo.piles) == [["5H", "5D", "KS"], ["2C", "9D"]]
    assert all(len(read.indices) == 4 for pile in photo.piles for read in pile)


def test_cards_put_down_side_by_side_show_both_top_corners_as_one_card_each() -> None:
    """A hand put down loosely (one deck): each card's top-left and top-right index lie about
    as far apart as two neighbours do, and the row's cards don't overlap: four cards, not eight."""
    row = dealt_row(
        "7S 6S 8S 5S", index=(10.0, 20.0), step=CARD_W + 15, spread=True, four_index=True
    )
    photo = arrange(row)
    assert codes(photo.piles) == [["7S", "6S", "8S", "5S"]]
    assert all(len(read.indices) == 4 for read in photo.piles[0])


def _misread(index: IndexRead, *guesses: tuple[str, float]) -> IndexRead:
    return replace(index, guesses=tuple(Guess(Card.parse(code), p) for code, p in guesses))


def _top_right_of(row: list[IndexRead], card: str) -> int:
    """The position in `row` of the named card's top-right index (its rightmost upright one)."""
    upright = [
        n for n, index in enumerate(row) if index.card.code == card and index.orientation == 0
    ]
    return max(upright, key=lambda n: row[n].centre[0])


def test_a_four_index_cards_misread_top_right_corner_is_no_card_of_its_own() -> None:
    """Real photos of a four-index deck: a 6S's top-right index, under glare, read as 6C (0.57),
    6S its second guess; the other cards show that the deck's top corners lie that far apart."""
    row = dealt_row(
        "7S 6S 8S 5S", index=(10.0, 20.0), step=CARD_W + 15, spread=True, four_index=True
    )
    corner = _top_right_of(row, "6S")
    row[corner] = _misread(row[corner], ("6C", 0.57), ("6S", 0.40))
    photo = arrange(row)
    assert codes(photo.piles) == [["7S", "6S", "8S", "5S"]]
    assert [len(read.indices) for read in photo.piles[0]] == [4, 4, 4, 4]
    assert photo.gaps_of(0) == ()


def test_a_misread_neighbour_in_an_overlapping_row_stays_a_card_of_its_own() -> None:
    """The last card shows the deck's top-corner spacing, but the misread 6H lies one row
    offset from the 5H, much nearer than a card's two top corners: two cards."""
    row = dealt_row("4S 5H 6H 7C", index=(10.0, 20.0), step=22.0, four_index=True)
    six = next(n for n, index in enumerate(row) if index.card.code == "6H")
    row[six] = _misread(row[six], ("5H", 0.6), ("6H", 0.35))
    photo = arrange(row)
    assert codes(photo.piles) == [["4S", "5H", "6H", "7C"]]


def _corner_of(row: list[IndexRead], card: str, *, right: bool, bottom: bool) -> int:
    """The position in `row` of one corner index of the named card."""
    own = [
        n
        for n, index in enumerate(row)
        if index.card.code == card and (index.orientation == 2) == bottom
    ]
    return max(own, key=lambda n: row[n].centre[0] * (1 if right else -1))


def test_a_four_index_cards_glared_corner_read_as_a_stranger_is_no_card() -> None:
    """A real photo: a 6H's top-left index under glare read as QH (no guess shared with the
    6H), its other three corners read 6H: the 6H alone, read from its three, no QH beside it."""
    row = dealt_row(
        "7H 6H 8H 5H", index=(10.0, 20.0), step=CARD_W + 15, spread=True, four_index=True
    )
    corner = _corner_of(row, "6H", right=False, bottom=False)
    row[corner] = _misread(row[corner], ("QH", 0.8), ("2H", 0.1))
    photo = arrange(row)
    assert codes(photo.piles) == [["7H", "6H", "8H", "5H"]]
    assert [len(read.indices) for read in photo.piles[0]] == [4, 3, 4, 4]
    assert (
        photo.piles[0][1].confidence
        == arrange(row[:corner] + row[corner + 1 :]).piles[0][1].confidence
    )


def test_a_rows_next_card_is_no_misread_fourth_corner_of_a_card_under_it() -> None:
    """A four-index row (kitty k00063 of `--style four_index`): the 10H's bottom-left index
    misread KH joins the KH three cards before it, which then seems seen at three corners; the
    10H's top-left index lies where its fourth would. The JS and 2H lie on that "card": it is
    no card seen whole, and the 10H stays."""
    row = dealt_row("KH JS 2H 10H JD", index=(10.0, 20.0), step=22.0, four_index=True)
    ten = _corner_of(row, "10H", right=False, bottom=True)
    row[ten] = _misread(row[ten], ("KH", 0.99))
    photo = arrange(row)
    assert codes(photo.piles) == [["KH", "JS", "2H", "10H", "JD"]]


def test_on_a_tables_side_a_lone_index_at_a_cards_fourth_corner_stays_a_card() -> None:
    row = dealt_row(
        "7H 6H 8H 5H", index=(10.0, 20.0), step=CARD_W + 15, spread=True, four_index=True
    )
    corner = _corner_of(row, "6H", right=False, bottom=False)
    row[corner] = _misread(row[corner], ("QH", 0.8), ("2H", 0.1))
    photo = arrange(row, lone_corners=False)
    assert sorted(code for pile in codes(photo.piles) for code in pile) == [
        "5H",
        "6H",
        "7H",
        "8H",
        "QH",
    ]


def test_a_misread_bottom_left_corner_is_no_card() -> None:
    row = dealt_row(
        "7S 6S 8S 5S", index=(10.0, 20.0), step=CARD_W + 15, spread=True, four_index=True
    )
    corner = _corner_of(row, "6S", right=False, bottom=True)
    row[corner] = _misread(row[corner], ("6C", 0.99))
    photo = arrange(row)
    assert codes(photo.piles) == [["7S", "6S", "8S", "5S"]]
    assert [len(read.indices) for read in photo.piles[0]] == [4, 3, 4, 4]


def test_a_card_whose_index_lies_over_anothers_missing_corner_stays_a_card() -> None:
    """A loose KD laid over a 6S's bottom-right corner: its upright index lies where the 6S's
    upside-down corner would show. It stands as no bottom corner does: a card of its own."""
    row = dealt_row("6S", index=(10.0, 20.0), step=CARD_W + 15, four_index=True)
    hidden = _corner_of(row, "6S", right=True, bottom=True)
    over = facing(index_at(row[hidden].centre, Card.parse("KD")), 0)
    photo = arrange([index for n, index in enumerate(row) if n != hidden] + [over])
    assert sorted(code for pile in codes(photo.piles) for code in pile) == ["6S", "KD"]


def test_three_indices_at_no_right_angle_are_no_three_corners_of_a_card() -> None:
    framed = [(0.0, 0.0), (50.0, 0.0), (25.0, 60.0)]  # a bottom index between the top ones
    assert missing_corner([0, 1, 2], framed, {2}) is None
    square = [(0.0, 0.0), (50.0, 0.0), (0.0, 65.0)]
    assert missing_corner([0, 1, 2], square, {2}) == ((50.0, 65.0), True)
    upper = [(0.0, 65.0), (50.0, 65.0), (50.0, 0.0)]  # two bottom corners and the top-right
    assert missing_corner([0, 1, 2], upper, {0, 1}) == ((0.0, 0.0), False)
    flat = [(0.0, 0.0), (50.0, 0.0), (0.0, 10.0)]  # far too short for a card
    assert missing_corner([0, 1, 2], flat, {2}) is None
    # a real photo's misread 4C: along its bottom corners' edge, its top one lies 1.6 of it away
    beyond = [(660.0, 477.0), (732.0, 454.0), (736.0, 315.0)]
    assert missing_corner([0, 1, 2], beyond, {0, 1}) is None


def test_a_card_seen_at_three_or_four_of_its_corners_says_so() -> None:
    spread = dealt_row(
        "7S 6S 8S", index=(10.0, 20.0), step=CARD_W + 15, spread=True, four_index=True
    )
    assert [card.evidence.framed for card in arrange(spread).piles[0]] == [True, True, True]
    # overlapping, each card but the last shows its left edge's two corners only
    overlapping = dealt_row("7S 6S 8S", index=(10.0, 20.0), step=22.0, four_index=True)
    assert [card.evidence.framed for card in arrange(overlapping).piles[0]] == [False, False, True]
    sevens = [index_at((0.0, 0.0), Card.parse("7S"))] * 4
    between = [(0.0, 0.0), (50.0, 0.0), (25.0, 60.0)]  # a bottom index between the top ones
    assert not seen_as_a_cards_corners([0, 1, 2], sevens, between, {2})
    square = [(0.0, 0.0), (50.0, 0.0), (0.0, 65.0), (50.0, 65.0)]
    assert seen_as_a_cards_corners([0, 1, 2, 3], sevens, square, {2, 3})
    assert not seen_as_a_cards_corners([0, 1], sevens, square, {2, 3})
    queen = index_at((0.0, 65.0), Card.parse("QH"))  # a corner reading another card
    assert not seen_as_a_cards_corners([0, 1, 2], [*sevens[:2], queen], square, {2})


def test_only_the_corners_reading_the_card_count_as_its_corners() -> None:
    seven, queen = Card.parse("7S"), Card.parse("QH")
    corners = [index_at((0.0, 0.0), seven), index_at((50.0, 0.0), seven, 0.6)]
    misread = replace(index_at((0.0, 65.0), seven), guesses=(Guess(queen, 0.7), Guess(seven, 0.3)))
    assert agreeing([0, 1, 2], [*corners, misread]) == [0, 1]
    assert agreeing([0, 1, 2], [*corners, index_at((0.0, 65.0), seven)]) == [0, 1, 2]


def test_without_a_card_seen_whole_no_misread_corner_is_joined() -> None:
    """No card shows both top corners, so nothing tells how far apart a card's corners lie:
    two loose cards side by side, the second read as the first at 0.6, stay two cards."""
    row = dealt_row("5H 6H", index=(10.0, 20.0), step=CARD_W + 15)
    second = next(n for n, index in enumerate(row) if index.card.code == "6H")
    row[second] = _misread(row[second], ("6H", 0.6), ("5H", 0.38))
    photo = arrange(row)
    assert codes(photo.piles) == [["5H", "6H"]]


def _turned_box(box, origin: Point, degrees: float):
    x1, y1, x2, y2 = box
    cx, cy = turned(origin, (x1 + x2) / 2 - origin[0], (y1 + y2) / 2 - origin[1], degrees)
    return (cx - (x2 - x1) / 2, cy - (y2 - y1) / 2, cx + (x2 - x1) / 2, cy + (y2 - y1) / 2)


def test_a_card_stands_where_its_own_top_left_index_is_not_where_a_misread_one_is() -> None:
    """A one-deck photo of two piles; the eighth card's index is misread as the second card
    (2H) and lies a little higher: the 2H stays second and the eighth card keeps its place."""
    top = laid_row("KS 2H 9C 4S 5H 5D 8C JD 3C", origin=(50.0, 40.0))
    misread = top[7]
    top[7] = replace(
        misread,
        box=(misread.box[0], misread.box[1] - 3, misread.box[2], misread.box[3] - 3),
        guesses=(Guess(Card.parse("2H"), 0.6), Guess(Card.parse("JD"), 0.35)),
    )
    bottom = laid_row("6S QS 6C 10H", origin=(70.0, 200.0))
    photo = arrange(top + bottom)
    assert codes(photo.piles) == [
        ["KS", "2H", "9C", "4S", "5H", "5D", "8C", "JD", "3C"],
        ["6S", "QS", "6C", "10H"],
    ]


# ---------------------------------------------------------------------------------------------
# no card lost in silence: where a card may be missing, the pile says so


def test_an_evenly_laid_row_has_no_gap() -> None:
    photo = arrange(oriented_row("8D 2H 8H 10S 6C AH 3D 7D"))
    assert photo.gaps == ((),)


@pytest.mark.parametrize("missing", [1, 4, 6])
def test_a_card_taken_out_of_a_row_leaves_a_gap_before_the_next(missing: int) -> None:
    text = ["8D", "2H", "8H", "10S", "6C", "AH", "3D", "7D"]
    row = [
        index for index in oriented_row(" ".join(text)) if index.card != Card.parse(text[missing])
    ]
    photo = arrange(row)
    assert codes(photo.piles) == [text[:missing] + text[missing + 1 :]]
    assert photo.gaps == ((missing,),)


def laid_apart(cards: list[tuple[str, float, float]]) -> list[IndexRead]:
    """Cards each lying whole on the table (nothing on them), as (card, left edge x, size: 1 for
    a card as far from the camera as the others): both corners of each show."""
    indices = []
    for text, left, size in cards:
        card = Card.parse(text)
        indices.append(facing(index_at((left + 8, 114.0), card), 0))
        far = (left + size * CARD_W - 8, 100.0 + size * CARD_H - 14)
        indices.append(facing(index_at(far, card), 2))
    return indices


def test_cards_laid_apart_leave_no_gap_where_no_card_could_lie_between() -> None:
    # a hand laid apart, the first card put further off (seen on real photos: the nearest card
    # larger in the photo), with no room for a card between it and the next
    row = laid_apart([("6H", 0.0, 1.6), ("8H", 125.0, 1), ("7H", 195.0, 1), ("5H", 265.0, 1)])
    photo = arrange(row)
    assert codes(photo.piles) == [["6H", "8H", "7H", "5H"]]
    assert photo.gaps == ((),)


def test_a_card_lost_between_cards_laid_apart_leaves_a_gap() -> None:
    row = laid_apart([("6H", 0.0, 1), ("8H", 70.0, 1), ("5H", 210.0, 1), ("9C", 280.0, 1)])
    photo = arrange(row)
    assert codes(photo.piles) == [["6H", "8H", "5H", "9C"]]  # 7H lost before 5H
    assert photo.gaps == ((2,),)


def test_a_pip_taken_for_an_index_on_a_card_laid_apart_marks_no_gap() -> None:
    # a club of an 8♣ seen whole, found as an index and then called no index (real photos)
    # the 8♣ nearest the camera, larger; the pip halfway across it, far from every corner
    row = laid_apart([("8C", 0.0, 1.6), ("7C", 125.0, 1), ("5C", 195.0, 1)])
    pip = replace(facing(index_at((60.0, 114.0), Card.parse("AC")), 0), index_probability=0.2)
    photo = arrange([*row, pip])
    assert codes(photo.piles) == [["8C", "7C", "5C"]]
    assert photo.gaps == ((),)


@pytest.mark.parametrize("up", [1, 2, 3])
def test_a_gap_in_a_turned_photo_is_at_the_same_place(up: int) -> None:
    top = [index for index in oriented_row("KS 9C 4S 5H 5D", origin=(100.0, 100.0))]
    bottom = [
        index
        for index in oriented_row("6S QS 6C 10H JD", origin=(100.0, 260.0))
        if index.card != Card.parse("6C")
    ]
    photo = arrange_turned(top + bottom, 400.0, 420.0, up)
    assert codes(photo.piles) == [["KS", "9C", "4S", "5H", "5D"], ["6S", "QS", "10H", "JD"]]
    assert photo.gaps == ((), (2,))


def test_a_confident_detection_called_no_index_in_a_row_marks_a_gap_there() -> None:
    row = oriented_row("8C 2D 9H 4S")
    after_last = (row[-1].centre[0] - CARD_W + 16 + 22, row[0].centre[1])
    unreadable = replace(facing(index_at(after_last, Card.parse("AS")), 0), index_probability=0.2)
    assert arrange([*row, unreadable]).gaps == ((4,),)
    weak = replace(unreadable, detection_confidence=0.3)
    assert arrange([*row, weak]).gaps == ((),)


def test_a_card_too_unsure_to_show_marks_a_gap_where_it_lies() -> None:
    calibration = Calibration((), (0.0, 1.0), (0.0, 1.0), doubtful_below=0.5, drop_below=0.3)
    row = oriented_row("8C 2D 9H 4S")
    unsure = replace(row[1], guesses=(Guess(Card.parse("2D"), 0.2), Guess(Card.parse("3D"), 0.2)))
    photo = arrange([row[0], unsure, *row[2:]], calibration=calibration)
    assert codes(photo.piles) == [["8C", "9H", "4S"]]
    assert photo.gaps == ((1,),)


UNSURE = Calibration((), (0.0, 1.0), (0.0, 1.0), doubtful_below=0.5, drop_below=0.3)


def test_printed_matter_beside_a_lone_card_marks_no_gap() -> None:
    # real photos of one card on a cereal box or a flyer: a word read as an unlikely 3♥ a card's
    # width beside it, and the only other "card" to measure a neighbour's offset by
    card = oriented_row("AC")
    word = facing(
        index_at((card[0].centre[0] - 60.0, card[0].centre[1]), Card.parse("3H"), 0.04), 0
    )
    photo = arrange([*card, word], calibration=UNSURE)
    assert codes(photo.piles) == [["AC"]]
    assert photo.gaps == ((),)


@pytest.mark.parametrize("unreadable", ["unsure", "no index"])
def test_a_lone_cards_neighbour_unread_marks_a_gap_where_other_rows_measure_the_step(
    unreadable: str,
) -> None:
    top = oriented_row("KS 9C 4S 5H")
    bottom = oriented_row("6S QS", origin=(100.0, 260.0))  # the QS seen at both corners
    if unreadable == "unsure":
        unsure = (Guess(Card.parse("QS"), 0.2), Guess(Card.parse("QC"), 0.2))
        lost = [replace(index, guesses=unsure) for index in bottom[1:]]
    else:
        lost = [replace(index, index_probability=0.2) for index in bottom[1:]]
    photo = arrange([*top, bottom[0], *lost], calibration=UNSURE)
    assert codes(photo.piles) == [["KS", "9C", "4S", "5H"], ["6S"]]
    assert photo.gaps == ((), (1,))


def test_a_gap_belongs_to_its_own_row_only() -> None:
    top = [index for index in laid_row("KS 9C 4S 5H 5D", origin=(50.0, 40.0))]
    bottom = [
        index
        for index in laid_row("6S QS 6C 10H", origin=(50.0, 200.0))
        if index.card != Card.parse("QS")
    ]
    photo = arrange(top + bottom)
    assert photo.gaps == ((), (1,))
    assert photo.gaps_of(1) == (1,) and photo.gaps_of(5) == ()


# ---------------------------------------------------------------------------------------------
# printed matter that is no index


def small_mark(centre: Point, card: Card, probability: float, of_index: float = 1 / 3) -> IndexRead:
    """A maker's mark on a card's face: `of_index` of an index high, read as a card."""
    x, y = centre
    half_w, half_h = INDEX_W * of_index / 2, INDEX_H * of_index / 2
    box = (x - half_w, y - half_h, x + half_w, y + half_h)
    return IndexRead(box=box, detection_confidence=0.6, guesses=(Guess(card, probability),))


@pytest.mark.parametrize("of_index", [1 / 3, 0.53])
def test_a_small_doubtful_mark_on_a_card_face_makes_no_pile(of_index: float) -> None:
    # a court card's maker's mark ("KDE") stands about half an index high (harder kitty k00078)
    mark = small_mark((120.0, 260.0), Card.parse("3C"), probability=0.4, of_index=of_index)
    photo = arrange([*laid_row("8C 2D QH KS"), mark])
    assert codes(photo.piles) == [["8C", "2D", "QH", "KS"]]


def test_a_small_index_read_with_confidence_stays_a_pile() -> None:
    mark = replace(small_mark((120.0, 260.0), Card.parse("3C"), 0.999), detection_confidence=0.95)
    photo = arrange([*laid_row("8C 2D QH KS"), mark])
    assert codes(photo.piles) == [["8C", "2D", "QH", "KS"], ["3C"]]


def test_a_doubtful_card_of_index_size_stays_a_pile() -> None:
    unsure = replace(index_at((120.0, 260.0), Card.parse("3C")), detection_confidence=0.6)
    unsure = replace(unsure, guesses=(Guess(Card.parse("3C"), 0.4),))
    photo = arrange([*laid_row("8C 2D QH KS"), unsure])
    assert codes(photo.piles) == [["8C", "2D", "QH", "KS"], ["3C"]]


def test_a_doubtful_card_lying_a_quarter_turn_stays_a_pile() -> None:
    # a loose card turned a quarter shows its index's width up the photo, half an index height
    # (scattered s61_000117's 9H); its glyphs are as tall as the others
    x, y = 120.0, 260.0
    sideways = (x - INDEX_H / 2, y - INDEX_W / 2, x + INDEX_H / 2, y + INDEX_W / 2)
    unsure = IndexRead(
        box=sideways, detection_confidence=0.6, guesses=(Guess(Card.parse("3C"), 0.4),)
    )
    photo = arrange([*laid_row("8C 2D QH KS"), unsure])
    assert codes(photo.piles) == [["8C", "2D", "QH", "KS"], ["3C"]]


def test_a_doubtful_read_of_face_art_low_on_the_row_above_makes_no_pile() -> None:
    # The row's reach (top-left to the last card's bottom-right index) is 60 px; a king's face
    # near the bottom of a card lies 72 px below the row's indices: on the cards, not a row.
    face = replace(index_at((130.0, 186.0), Card.parse("5S")), detection_confidence=0.7)
    doubtful_face = replace(face, guesses=(Guess(Card.parse("5S"), 0.5),))
    assert codes(arrange([*laid_row("8C 2D QH KS"), doubtful_face]).piles) == [
        ["8C", "2D", "QH", "KS"]
    ]
    sure = replace(face, detection_confidence=0.99, guesses=(Guess(Card.parse("5S"), 0.99),))
    assert codes(arrange([*laid_row("8C 2D QH KS"), sure]).piles) == [
        ["8C", "2D", "QH", "KS"],
        ["5S"],
    ]


def test_a_mark_read_as_a_card_of_the_pile_leaves_that_card_alone_with_one_deck() -> None:
    row = laid_row("8C 2D QH KS")
    unsure = (Guess(Card.parse("2D"), 0.7), Guess(Card.parse("2H"), 0.3))
    row[1] = replace(row[1], guesses=unsure)  # the 2D's top-left index
    mark = small_mark((420.0, 260.0), Card.parse("2D"), probability=0.85)  # too far to join
    mark = replace(mark, detection_confidence=0.9)  # 0.77 in all: likelier a 2D than the real one
    assert codes(arrange([*row, mark], decks=1).piles) == [["8C", "2D", "QH", "KS"]]


@pytest.mark.parametrize("apart", [84.0, 88.0, 100.0])
def test_a_card_lying_between_two_rows_does_not_weave_them_into_one(apart: float) -> None:
    step = CARD_W + 10
    top = oriented_row("AS 2S 3S 4S", origin=(100.0, 100.0), step=step, all_corners=True)
    bottom = oriented_row("AH 2H 3H 4H", origin=(100.0, 100.0 + apart), step=step, all_corners=True)
    between = oriented_row("KD", origin=(100.0 + 1.5 * step, 100.0 + apart / 2), all_corners=True)
    photo = arrange(top + bottom + between)
    assert codes(photo.piles) == [["AS", "2S", "3S", "4S"], ["KD"], ["AH", "2H", "3H", "4H"]]


# columns: each card laid lower on the one before, its top index showing


def laid_column(
    text: str, *, origin: tuple[float, float] = (100.0, 100.0), step: float = 36.0
) -> list[IndexRead]:
    """A column as laid on the table: each card on top of the previous one, lower down, so every
    top-left index shows, and the bottom-right index of the last card."""
    cards = parse_pile(text)
    x, y = origin
    indices = [
        facing(index_at((x + 8, y + position * step + 14), card), 0)
        for position, card in enumerate(cards)
    ]
    last = (len(cards) - 1) * step
    indices.append(facing(index_at((x + CARD_W - 8, y + last + CARD_H - 14), cards[-1]), 2))
    return indices


@pytest.mark.parametrize("step", [30.0, 36.0, 50.0])
def test_a_column_is_one_pile_top_card_first(step: float) -> None:
    photo = arrange(laid_column("7C JH 6D 6S AS KS", step=step))
    assert codes(photo.piles) == [["7C", "JH", "6D", "6S", "AS", "KS"]]


def test_columns_side_by_side_are_two_piles() -> None:
    left = laid_column("7C JH 6D 6S", origin=(100.0, 100.0))
    right = laid_column("2D 9C QH", origin=(100.0 + CARD_W + 25, 104.0), step=40.0)
    photo = arrange(left + right)
    assert sorted(codes(photo.piles)) == [["2D", "9C", "QH"], ["7C", "JH", "6D", "6S"]]


def test_a_row_above_a_column_stays_a_row() -> None:
    row = oriented_row("KS 9C 4S 5H", origin=(100.0, 60.0))
    column = laid_column("7C JH 6D", origin=(140.0, 60.0 + CARD_H + 30))
    photo = arrange(row + column)
    assert codes(photo.piles) == [["KS", "9C", "4S", "5H"], ["7C", "JH", "6D"]]


def test_a_column_of_cards_half_showing_is_one_pile() -> None:
    # each card lower than the one before by a whole reach (top corner to bottom corner, 60)
    photo = arrange(laid_column("7C JH 6D 6S", step=60.0))
    assert codes(photo.piles) == [["7C", "JH", "6D", "6S"]]


@pytest.mark.parametrize("missing", [2, 3, 4])
def test_a_column_missing_a_card_is_one_pile_with_a_gap_where_it_lies(missing: int) -> None:
    # each card half showing: with one lost, the next lies lower by more than a card's reach
    column = laid_column("7C JH 6D 6S AS KS", step=54.0)
    lost = column[missing]
    photo = arrange([index for index in column if index is not lost])
    kept = [code for n, code in enumerate(["7C", "JH", "6D", "6S", "AS", "KS"]) if n != missing]
    assert codes(photo.piles) == [kept]
    assert photo.gaps == ((missing,),)


def test_two_columns_one_below_the_other_stay_two_piles() -> None:
    # the upper one's last card shows its bottom corner: nothing lies on it
    upper = laid_column("7C JH 6D", origin=(100.0, 100.0))
    lower = laid_column("2D 9C QH", origin=(100.0, 100.0 + 2 * 36.0 + CARD_H + 5))
    photo = arrange(upper + lower)
    assert codes(photo.piles) == [["7C", "JH", "6D"], ["2D", "9C", "QH"]]


@pytest.mark.parametrize("gap", [85.0, 110.0])
def test_the_end_card_of_a_row_just_above_a_column_stays_in_its_row(gap: float) -> None:
    # no card's bottom corner shows how far cards reach: a column's step may be long
    row = oriented_row("KS 9C 4S 5H", origin=(100.0, 60.0))
    column = laid_column("7C JH 6D 6S", origin=(100.0, 60.0 + gap), step=30.0)
    top_corners = [index for index in row + column if index.orientation == 0]
    photo = arrange(top_corners)
    assert codes(photo.piles) == [["KS", "9C", "4S", "5H"], ["7C", "JH", "6D", "6S"]]


def test_two_cards_a_reach_apart_are_not_a_column() -> None:
    photo = arrange(laid_column("7C JH", step=60.0))
    assert codes(photo.piles) == [["7C"], ["JH"]]


def seen_nearer(indices: list[IndexRead], factor: float, origin: Point) -> list[IndexRead]:
    """Indices as a seated camera sees cards nearer to it: larger by `factor`, spaced as much."""

    def scaled(x: float, y: float) -> Point:
        return (origin[0] + (x - origin[0]) * factor, origin[1] + (y - origin[1]) * factor)

    return [
        replace(index, box=(*scaled(*index.box[:2]), *scaled(*index.box[2:]))) for index in indices
    ]


def test_a_column_nearer_the_camera_than_a_row_is_one_pile() -> None:
    row = laid_row("KS 9C 4S 5H 2D 3C 8H QD", origin=(100.0, 60.0))
    origin = (140.0, 60.0 + CARD_H + 30)
    column = seen_nearer(laid_column("7C JH 6D 6S AS", origin=origin, step=50.0), 2.0, origin)
    photo = arrange(row + column)
    assert codes(photo.piles) == [
        ["KS", "9C", "4S", "5H", "2D", "3C", "8H", "QD"],
        ["7C", "JH", "6D", "6S", "AS"],
    ]


JUMBO_INDEX_H = 36.0  # a jumbo index: half again as tall, on a card of the same size


def jumbo_card(card: Card, top_left: Point, *, last: bool = False) -> list[IndexRead]:
    """A jumbo-index card's top-left index (and its bottom-right one where `last`): the two
    corners lie only about an index height apart (the reach: 44 px, 1.2 index heights)."""

    def index(centre: Point, turn: int) -> IndexRead:
        x, y = centre
        box = (x - INDEX_W / 2, y - JUMBO_INDEX_H / 2, x + INDEX_W / 2, y + JUMBO_INDEX_H / 2)
        return facing(
            IndexRead(box=box, detection_confidence=0.95, guesses=(Guess(card, 0.99),)), turn
        )

    x, y = top_left
    corners = [index((x + 8, y + 22), 0)]
    if last:
        corners.append(index((x + CARD_W - 8, y + CARD_H - 22), 2))
    return corners


def jumbo_column(text: str, step: float) -> list[IndexRead]:
    """A column of jumbo-index cards, each `step` lower than the one before."""
    cards = parse_pile(text)
    return [
        index
        for position, card in enumerate(cards)
        for index in jumbo_card(card, (100.0, 100.0 + step * position), last=card == cards[-1])
    ]


def test_a_column_of_a_jumbo_deck_is_one_pile_though_its_steps_exceed_the_cards_reach() -> None:
    column = jumbo_column("7C JH 6D 6S AS", step=56.0)
    assert codes(arrange(column).piles) == [["7C", "JH", "6D", "6S", "AS"]]


def test_two_rows_of_a_jumbo_deck_stay_two_rows() -> None:
    rows = [parse_pile("7C JH 6D 6S"), parse_pile("2D 9C QH KS")]
    indices = [
        index
        for row, cards in enumerate(rows)
        for position, card in enumerate(cards)
        for index in jumbo_card(
            card, (100.0 + 22.0 * position, 100.0 + (CARD_H + 8) * row), last=position == 3
        )
    ]
    assert codes(arrange(indices).piles) == [["7C", "JH", "6D", "6S"], ["2D", "9C", "QH", "KS"]]


def test_the_end_card_of_a_keystoned_row_stays_in_its_row() -> None:
    # seen at a slant, the upper row rises and its steps grow towards the far end: its last
    # card lies higher than a level row's break, but on the row's own line
    def slanted_row(text: str, xs: list[float], slope: float, y: float) -> list[IndexRead]:
        return [
            index_at((x, y + slope * (x - xs[0])), card)
            for x, card in zip(xs, parse_pile(text), strict=True)
        ]

    upper = slanted_row("7C 5H JH QS QH", [100, 160, 230, 320, 470], -0.35, 300.0)
    level = slanted_row("KD 6D 9C 4D 6C 10H", [100, 150, 200, 250, 300, 350], 0.0, 500.0)
    assert codes(arrange(upper + level).piles) == [
        ["7C", "5H", "JH", "QS", "QH"],
        ["KD", "6D", "9C", "4D", "6C", "10H"],
    ]


def test_a_row_laid_at_an_angle_to_the_others_stays_one_row() -> None:
    # a far pile seen from a seat: its cards' reach short (40), the row below laid at an angle
    # to the first, each card lower than the one before by more than two rows woven apart
    # (0.65 of a reach) but steadily: one row, not rows woven together
    level = parse_pile("KS 9C 4S 5H 2D 7H")
    tilted = parse_pile("7C 6S 9S 2H")
    indices = [facing(index_at((100 + 22 * k, 100), card), 0) for k, card in enumerate(level)]
    indices.append(facing(index_at((100 + 22 * 5 + 40, 140), level[-1]), 2))
    indices += [
        facing(index_at((150 + 60 * k, 250 + 28 * k), card), 0) for k, card in enumerate(tilted)
    ]
    photo = arrange(indices)
    assert codes(photo.piles) == [["KS", "9C", "4S", "5H", "2D", "7H"], ["7C", "6S", "9S", "2H"]]


def test_a_card_read_where_a_pile_lost_one_is_shown_flagged_in_its_place() -> None:
    calibration = Calibration((), (0.0, 1.0), (0.0, 1.0), doubtful_below=0.8, drop_below=0.3)
    row = oriented_row("8C 2D 9H 4S")
    unsure = replace(row[1], guesses=(Guess(Card.parse("2D"), 0.2),))
    # the layout dropped the unsure 2D and marked a gap; the classifier read it there again
    read_again = replace(row[1], detection_confidence=0.0, in_gap=True)
    for surely in (0.99, 0.1):
        found = replace(read_again, guesses=(Guess(Card.parse("2D"), surely),))
        photo = arrange([row[0], unsure, *row[2:], found], calibration=calibration)
        assert codes(photo.piles) == [["8C", "2D", "9H", "4S"]]
        assert photo.gaps == ((),)
        two = photo.piles[0][1]
        assert two.doubtful and 0.3 <= two.confidence < 0.8  # shown, never sure


def test_an_index_read_again_in_a_gap_wins_over_the_detection_dropped_there() -> None:
    detected = index_at((50.0, 50.0), Card.parse("QC"), probability=0.3)
    read_again = replace(detected, detection_confidence=0.0, in_gap=True)
    assert drop_repeated_detections([detected, read_again]) == [read_again]
    elsewhere = index_at((90.0, 50.0), Card.parse("KC"))
    assert len(drop_repeated_detections([detected, elsewhere])) == 2


def read_card(*guesses: tuple[str, float]) -> ReadCard:
    """A card as read, its guesses best first, as sure as its best one."""
    alternatives = tuple(Guess(Card.parse(code), p) for code, p in guesses)
    return ReadCard(alternatives[0].card, (0, 0, 1, 1), guesses[0][1], alternatives, ())


def test_with_one_deck_a_card_whose_every_guess_is_taken_is_said_unplaced() -> None:
    sure_9c, sure_qs = read_card(("9C", 0.99)), read_card(("QS", 0.95))
    cards, unplaced = placed_once([sure_9c, read_card(("9C", 0.6), ("QS", 0.3)), sure_qs])
    assert unplaced == {1}
    assert [c.card.code for c in cards] == ["9C", "9C", "QS"]
    assert cards[1].confidence == TAKEN_CONFIDENCE  # shown flagged where the step keeps it
    # a card that can take its next guess is placed there
    cards, unplaced = placed_once([sure_9c, read_card(("9C", 0.6), ("QD", 0.3))])
    assert unplaced == frozenset() and cards[1].card.code == "QD"


@pytest.mark.parametrize("between", [0, 1, 3])
def test_with_one_deck_two_cards_read_equally_surely_as_one_give_it_to_the_later(
    between: int,
) -> None:
    others = [read_card((code, 1.0)) for code in ("2H", "3H", "4H")[:between]]
    _, unplaced = placed_once([read_card(("6D", 1.0)), *others, read_card(("6D", 1.0))])
    assert unplaced == {0}


def test_a_column_whose_first_card_lies_farther_above_than_its_steps_is_one_pile() -> None:
    # the last card's bottom corner measures a reach (60 px) too short for the first step
    column = laid_column("7C JH 6D 6S AS", step=36.0)
    first = replace(column[0], box=shifted_box(column[0].box, 0.0, -40.0))
    photo = arrange([first, *column[1:]])
    assert codes(photo.piles) == [["7C", "JH", "6D", "6S", "AS"]]


def test_a_card_lying_above_a_column_beside_a_row_is_that_rows_end_card() -> None:
    row = oriented_row("KS 9C 4S", origin=(100.0, 60.0))
    column = laid_column("7C JH 6D 6S", origin=(100.0 + 3 * 22.0, 60.0 + 80.0), step=36.0)
    photo = arrange([index for index in row + column if index.orientation == 0])
    assert codes(photo.piles) == [["KS", "9C", "4S"], ["7C", "JH", "6D", "6S"]]


def shifted_box(box: tuple[float, float, float, float], dx: float, dy: float):
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


def test_a_pile_spread_wide_at_its_own_slope_is_one_pile_not_single_cards() -> None:
    # a far player's pile seen from a seat (its cards' reach squeezed to 30 px), every card
    # showing both corners, each lower than the one before by more than that reach
    level = oriented_row("KS 9C 4S 5H 2D 3C 8H QD", origin=(100.0, 60.0))
    sloping = []
    for position, card in enumerate(parse_pile("7C JH 6D 6S AS")):
        x, y = turned((100.0, 240.0), 60.0 * position, 0.0, 28.0)
        sloping += [facing(index_at((x, y), card), 0), facing(index_at((x + 47, y + 30), card), 2)]
    photo = arrange(level + sloping)
    assert sorted(codes(photo.piles)) == [
        ["7C", "JH", "6D", "6S", "AS"],
        ["KS", "9C", "4S", "5H", "2D", "3C", "8H", "QD"],
    ]


def test_a_pip_read_unsurely_as_its_card_above_its_index_keeps_the_column_in_order() -> None:
    column = laid_column("7C JH 6D 6S AS", step=36.0)
    x, y = column[2].centre  # the 6D's index
    pip = facing(index_at((x + 14.0, y - 24.0), Card.parse("6D"), probability=0.45), 0)
    photo = arrange([*column, pip])
    assert codes(photo.piles) == [["7C", "JH", "6D", "6S", "AS"]]


def test_a_mark_read_unsurely_as_a_card_by_another_rows_end_leaves_the_card_in_its_row() -> None:
    upper = oriented_row("9D 2D KD 9C", origin=(100.0, 100.0))
    lower = oriented_row("QC 8H JS AD", origin=(100.0, 100.0 + CARD_H + 20))
    x, y = upper[3].centre  # the 9C's top index
    mark = facing(index_at((x + 30.0, y), Card.parse("QC"), probability=0.3), 1)
    photo = arrange([*upper, *lower, mark])
    assert codes(photo.piles) == [["9D", "2D", "KD", "9C"], ["QC", "8H", "JS", "AD"]]


def test_a_mark_beside_a_jumbo_columns_last_card_does_not_break_the_column() -> None:
    # its steps barely longer than its indices, a mark beside the last card lies within an
    # index height of the middle of the last step
    column = jumbo_column("2C JD 10H", step=40.0)
    x, y = column[2].centre  # the 10H's top index
    mark = facing(index_at((x + 20.0, y + 5.0), Card.parse("7H"), probability=0.9), 0)
    assert ["2C", "JD", "10H"] in codes(arrange([*column, mark]).piles)


# a grid: cards overlapping both ways read as rows as well as columns


def laid_grid(rows: list[str], *, across: float = 22.0, down: float = 40.0) -> list[IndexRead]:
    """Rows laid each lower than the one before by less than a card (`down`), so each covers
    the lower part of the row above: every top-left index shows, and the bottom-right index of
    the last row's last card."""
    indices = []
    for place, text in enumerate(rows):
        cards = parse_pile(text)
        y = 100.0 + place * down
        indices += [
            facing(index_at((100.0 + n * across + 8, y + 14), card), 0)
            for n, card in enumerate(cards)
        ]
    last = 100.0 + (len(cards) - 1) * across
    indices.append(facing(index_at((last + CARD_W - 8, y + CARD_H - 14), cards[-1]), 2))
    return indices


@pytest.mark.parametrize("across", [22.0, 40.0])
def test_two_rows_pushed_into_each_other_read_as_rows_and_say_they_may_be_columns(
    across: float,
) -> None:
    photo = arrange(laid_grid(["AS 2S 3S 7C 8C", "4H 5H 6H 9D 10D"], across=across))
    assert codes(photo.piles) == [["AS", "2S", "3S", "7C", "8C"], ["4H", "5H", "6H", "9D", "10D"]]
    assert photo.rows_or_columns == (True, True)
    assert photo.grid_piles == (0, 1)
    assert not photo.unsure  # every card sure: a sharper photo would not settle the grid


def test_a_grid_of_fewer_columns_than_rows_reads_as_columns_and_says_they_may_be_rows() -> None:
    photo = arrange(laid_grid(["AS 2S", "4H 5H", "7C 8C"]))
    assert codes(photo.piles) == [["AS", "4H", "7C"], ["2S", "5H", "8C"]]
    assert photo.rows_or_columns == (True, True)


def test_columns_laid_a_card_apart_are_no_grid() -> None:
    # level cards, but each column's cards clear of the next column's: columns, surely
    photo = arrange(laid_grid(["AS 2S 3S", "4H 5H 6H"], across=CARD_W + 2))
    assert codes(photo.piles) == [["AS", "4H"], ["2S", "5H"], ["3S", "6H"]]
    assert photo.rows_or_columns == ()


def test_rows_a_card_apart_are_no_grid() -> None:
    upper = oriented_row("9D 2D KD 9C", origin=(100.0, 100.0))
    lower = oriented_row("QC 8H JS AD", origin=(100.0, 100.0 + CARD_H + 20))
    photo = arrange([*upper, *lower])
    assert codes(photo.piles) == [["9D", "2D", "KD", "9C"], ["QC", "8H", "JS", "AD"]]
    assert photo.rows_or_columns == ()


def pushed_rows(rows: list[tuple[str, float]], *, down: float = 45.0) -> list[IndexRead]:
    """Rows laid each lower than the one before by less than a card (`down`), each on its own
    step (text, step): the cards of one row lie beside the others' at no common place. Every top
    index shows, and the bottom-right index of the last row's last card."""
    indices = []
    for place, (text, step) in enumerate(rows):
        cards = parse_pile(text)
        y = 100.0 + place * down
        x = 100.0 + 7.0 * place
        indices += [
            facing(index_at((x + n * step + 8, y + 14), card), 0) for n, card in enumerate(cards)
        ]
    last = x + (len(cards) - 1) * step
    indices.append(facing(index_at((last + CARD_W - 8, y + CARD_H - 14), cards[-1]), 2))
    return indices


@pytest.mark.parametrize("down", [34.0, 45.0, 60.0])
def test_rows_pushed_into_each_other_stay_rows(down: float) -> None:
    photo = arrange(
        pushed_rows([("AS 2S 3S 7C 8C 9C", 22.0), ("4H 5H 6H 9D 10D", 27.0)], down=down)
    )
    assert codes(photo.piles) == [
        ["AS", "2S", "3S", "7C", "8C", "9C"],
        ["4H", "5H", "6H", "9D", "10D"],
    ]
    assert photo.rows_or_columns == ()  # their cards lie at no common places: rows, surely


def test_three_rows_pushed_into_each_other_stay_three_rows() -> None:
    rows = [("AS 2S 3S 7C", 22.0), ("4H 5H 6H 9D 10D", 26.0), ("JC QC KC 2D", 31.0)]
    photo = arrange(pushed_rows(rows, down=40.0))
    assert codes(photo.piles) == [
        ["AS", "2S", "3S", "7C"],
        ["4H", "5H", "6H", "9D", "10D"],
        ["JC", "QC", "KC", "2D"],
    ]


def test_a_pushed_row_showing_only_its_end_beyond_the_row_above_stays_a_row_of_its_own() -> None:
    # the middle row lies under the last row but for its last two cards, which stand past the
    # end of the first row: a level beside the last row's, not the first row bending down
    first = [
        facing(index_at((108.0 + 22.0 * n, 114.0), card), 0)
        for n, card in enumerate(parse_pile("9D 7D 7S AC 2D 4S AD 8D"))
    ]
    middle = [
        facing(index_at((290.0 + 24.0 * n, 134.0), card), 0)
        for n, card in enumerate(parse_pile("3C JH"))
    ]
    last_cards = parse_pile("2C QC AS 5D 5H KH 5C QH 2S")
    last = [
        facing(index_at((110.0 + 27.0 * n, 154.0), card), 0) for n, card in enumerate(last_cards)
    ]
    corner = facing(
        index_at((110.0 + 27.0 * 8 + CARD_W - 16, 154.0 + CARD_H - 28), last_cards[-1]), 2
    )
    photo = arrange(first + middle + last + [corner])
    assert codes(photo.piles) == [
        ["9D", "7D", "7S", "AC", "2D", "4S", "AD", "8D"],
        ["3C", "JH"],
        ["2C", "QC", "AS", "5D", "5H", "KH", "5C", "QH", "2S"],
    ]


@pytest.mark.parametrize(("lower_step", "lower_from"), [(52.0, 90.0), (53.0, 80.0), (54.0, 70.0)])
def test_pushed_rows_of_cards_overlapping_by_a_fifth_stay_whole(
    lower_step: float, lower_from: float
) -> None:
    # each card 50 px right of the last, 63 wide: where a lower card lies straight below an upper
    # one the two look like a short column
    upper = [
        facing(index_at((108.0 + 50.0 * n, 114.0), card), 0)
        for n, card in enumerate(parse_pile("2C JH 6C 10C AS 8C 4S 3C 8D KD"))
    ]
    lower_cards = parse_pile("7C 9D 2D 8S 7S 9S 5S 9H JS 3D")
    lower = [
        facing(index_at((lower_from + lower_step * n, 159.0), card), 0)
        for n, card in enumerate(lower_cards)
    ]
    last = lower_from + lower_step * 9
    corner = facing(index_at((last + CARD_W - 16, 159.0 + CARD_H - 28), lower_cards[-1]), 2)
    assert codes(arrange(upper + lower + [corner]).piles) == [
        ["2C", "JH", "6C", "10C", "AS", "8C", "4S", "3C", "8D", "KD"],
        ["7C", "9D", "2D", "8S", "7S", "9S", "5S", "9H", "JS", "3D"],
    ]


def cloth_marks(card: str, xs: list[float], probability: float) -> list[IndexRead]:
    """A patterned cloth cut by the photo's top edge, read at each x as a small, unlikely
    `card` (a third of the cards' index height)."""
    return [
        replace(
            index_at((x, 4.0), Card.parse(card), probability),
            box=(x - 2.0, 0.0, x + 2.0, 8.0),
            detection_confidence=0.4,
        )
        for x in xs
    ]


@pytest.mark.parametrize(("probability", "marks"), [(0.3, 20), (0.45, 20), (0.6, 3)])
def test_marks_at_the_photo_edge_read_as_a_rows_card_leave_the_rows_as_they_lie(
    probability: float, marks: int
) -> None:
    # many marks cut by the edge would set the cards' index height; a likelier one, a third of
    # the cards' size, would take the row's ace as its corner
    rows = [("AS 2S 3S 7C", 22.0), ("4H 5H 6H 9D 10D", 26.0), ("JC QC KC 2D", 31.0)]
    cloth = cloth_marks("AS", [60.0 + 7.0 * n for n in range(marks)], probability)
    photo = arrange(pushed_rows(rows, down=40.0) + cloth, width=600, height=400)
    assert codes(photo.piles) == [
        ["AS", "2S", "3S", "7C"],
        ["4H", "5H", "6H", "9D", "10D"],
        ["JC", "QC", "KC", "2D"],
    ]


def test_a_row_with_one_card_laid_lower_stays_one_row() -> None:
    row = laid_row("AS 2S 3S 7C 8C 9C")
    lower = [
        replace(index, box=(x1, y1 + 30, x2, y2 + 30))
        if index.card == Card.parse("3S") and n == 2
        else index
        for n, index in enumerate(row)
        for x1, y1, x2, y2 in [index.box]
    ]
    assert codes(arrange(lower).piles) == [["AS", "2S", "3S", "7C", "8C", "9C"]]


def test_two_columns_converging_are_each_one_pile() -> None:
    # a near player's two columns as a table's read found them (fresh table t00026), one sloping
    # right and the other left as they go down: each card's neighbour "along a row" is the
    # other column's, far off, and framed along it the left column broke in two
    tops = {
        "3D": (805, 647, 834, 688),
        "8D": (817, 698, 847, 739),
        "QC": (835, 748, 867, 789),
        "8H": (848, 801, 882, 844),
        "2D": (1026, 956, 1061, 1005),
        "10C": (1000, 1015, 1036, 1067),
        "AH": (982, 1087, 1012, 1139),
        "2S": (959, 1149, 1000, 1207),
        "6S": (935, 1218, 974, 1279),
        "9C": (906, 1294, 947, 1361),
    }
    bottoms = {"8H": (939, 853, 974, 900), "9C": (969, 1412, 1008, 1482)}
    indices = [
        facing(IndexRead(box, 0.8, (Guess(Card.parse(code), 0.99),)), turns)
        for turns, boxes in ((0, tops), (2, bottoms))
        for code, box in boxes.items()
    ]
    photo = arrange(indices, width=1224, height=1632, up=0, lone_corners=False)
    assert codes(photo.piles) == [["3D", "8D", "QC", "8H"], ["2D", "10C", "AH", "2S", "6S", "9C"]]


@pytest.mark.parametrize(("read_as", "probability"), [("4D", 0.3), ("7D", 0.99)])
def test_a_pip_between_a_whole_cards_corners_is_no_card(read_as: str, probability: float) -> None:
    # the last card shows its whole face: a pip read as a card of its suit, or as itself
    row = oriented_row("10H QC AS 5S 7D")
    pip = facing(index_at((220.0, 144.0), Card.parse(read_as), probability), 0)
    photo = arrange([*row, pip])
    assert codes(photo.piles) == [["10H", "QC", "AS", "5S", "7D"]]
    assert photo.gaps == ((),)


def test_a_sure_card_of_another_suit_on_a_whole_cards_face_stays() -> None:
    row = oriented_row("10H QC AS 5S 7D")
    other = facing(index_at((220.0, 144.0), Card.parse("KS"), 0.99), 0)
    photo = arrange([*row, other])
    assert sum(len(pile) for pile in photo.piles) == 6


def test_a_card_between_two_corners_read_alike_but_unsurely_stays() -> None:
    # a far card's top corner and another card's bottom corner misread as it (0.63) span no
    # card's face: the unsure JD between them is a row's card (fresh table t00106)
    row = oriented_row("9S 3S JD QD")
    row[2] = replace(row[2], guesses=(Guess(Card.parse("JD"), 0.5),))
    top = facing(index_at((120.0, 30.0), Card.parse("5D")), 0)
    misread = facing(index_at((200.0, 190.0), Card.parse("5D"), 0.63), 2)
    photo = arrange([*row, top, misread])
    assert "JD" in [code for pile in codes(photo.piles) for code in pile]
