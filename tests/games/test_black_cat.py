"""The scoring engine: RULES.md's worked examples and rule statements, variants, Queen choice,
players and tables, the deck check, and properties against a brute-force reference."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blackcat.games.black_cat import (
    BLACK_CAT_SUM,
    FEATURE_KINDS,
    TOMCAT_SUM,
    DuplicateCardError,
    PinError,
    PlayerScore,
    TableScore,
    Variants,
    check_decks,
    choose_queens,
    find_duplicates,
    find_features,
    score_pile,
    score_player,
    score_table,
)
from blackcat.games.cards import ALL_CARDS, QUEEN_VALUES, Card, Rank, parse_card, parse_pile

LUCKY = Variants(lucky_tom=True)
MUSIC = Variants(music_of_the_night=True)


def features_of(pile_text: str, **kwargs: object) -> list[tuple[str, tuple[int, ...], int]]:
    score = score_pile(parse_pile(pile_text), **kwargs)  # type: ignore[arg-type]
    return [(feature.kind, feature.positions, feature.points) for feature in score.features]


# ---------------------------------------------------------------------------------------------
# RULES.md: the worked examples

WORKED_EXAMPLES = [
    # pile, (tomcat, yowler, jellical, black_cat), queens, points, points with the variant
    ("8D 2H 8H 10S 6C AH 3D 7D", (3, 1, 0, 0), {}, 10, None),
    (
        "QS 6C QH 5H 5D 8D 2S QD QC 2H 8H 7S 3H 4S 6S",
        (5, 0, 2, 1),
        {0: 7, 2: 7, 7: 7, 8: 7},
        25,
        ("lucky_tom", 27),
    ),
    ("KS 9C 4S", (0, 0, 0, 2), {}, 12, None),
    ("6S QS 6C", (0, 0, 1, 2), {1: 7}, 14, None),
    ("QS 2C 3H 7H", (1, 0, 0, 1), {0: 11}, 9, None),
    ("10S 10H KD 10C", (2, 3, 1, 0), {}, 11, ("music_of_the_night", 17)),
    ("QC QS", (0, 0, 0, 0), {0: 7, 1: 7}, 0, None),
    ("", (0, 0, 0, 0), {}, 0, None),
]


@pytest.mark.parametrize(
    ("pile", "counts", "queens", "points", "variant"),
    WORKED_EXAMPLES,
    ids=[example[0] or "empty" for example in WORKED_EXAMPLES],
)
def test_worked_example(
    pile: str,
    counts: tuple[int, int, int, int],
    queens: dict[int, int],
    points: int,
    variant: tuple[str, int] | None,
) -> None:
    score = score_pile(parse_pile(pile))
    assert score.counts == dict(zip(FEATURE_KINDS, counts, strict=True))
    assert score.queen_values == queens
    assert score.points == points
    if variant is not None:
        switch, variant_points = variant
        assert score_pile(parse_pile(pile), variants=Variants(**{switch: True})).points == (
            variant_points
        )


def test_worked_example_queen_at_7_loses_the_black_cat() -> None:
    pinned = score_pile(parse_pile("QS 2C 3H 7H"), pins={0: 7})
    assert pinned.points == 3
    assert pinned.counts["black_cat"] == 0


def test_rules_first_example_as_two_piles_of_one_player() -> None:
    player = score_player(
        [parse_pile("8D 2H 8H 10S 6C AH 3D 7D"), parse_pile("KS 9C 4S")], name="Ann"
    )
    assert [pile.points for pile in player.piles] == [10, 12]
    assert player.total == 22
    assert player.name == "Ann"


# ---------------------------------------------------------------------------------------------
# RULES.md: each rule statement


def test_tomcats_overlap() -> None:
    assert features_of("8H 2D 8D") == [("tomcat", (0, 1), 3), ("tomcat", (1, 2), 3)]


def test_three_cards_adding_to_ten_are_no_tomcat() -> None:
    assert features_of("6H AD 3H") == []


def test_ten_and_king_are_a_tomcat() -> None:
    assert features_of("10H KD") == [("tomcat", (0, 1), 3), ("yowler", (0,), 1)]


def test_queen_valued_7_makes_a_tomcat_with_3() -> None:
    score = score_pile(parse_pile("QH 3D"))
    assert score.queen_values == {0: 7}
    assert [(f.kind, f.positions) for f in score.features] == [("tomcat", (0, 1))]
    assert score_pile(parse_pile("QH 3D"), pins={0: 11}).features == ()


def test_every_ten_is_a_yowler() -> None:
    assert features_of("10S 5H 10D") == [("yowler", (0,), 1), ("yowler", (2,), 1)]


def test_nested_black_cats_both_count() -> None:
    assert features_of("K♠ 9♣ 4♠") == [("black_cat", (0, 1, 2), 6), ("black_cat", (1, 2), 6)]


def test_zero_cards_extend_a_black_cat_into_new_stretches() -> None:
    stretches = [positions for _, positions, _ in features_of("KS 9C 4S KC")]
    assert sorted(stretches) == [(0, 1, 2), (0, 1, 2, 3), (1, 2), (1, 2, 3)]


def test_a_single_black_card_is_no_black_cat() -> None:
    # Two or more cards: a lone card never counts, even beside zero-valued red cards.
    assert features_of("KH 4S KD") == []


@pytest.mark.parametrize("value", QUEEN_VALUES)
def test_a_red_card_breaks_a_black_cat(value: int) -> None:
    assert features_of("6♣ Q♥", pins={1: value}) == []


def test_red_card_in_the_middle_breaks_a_stretch() -> None:
    assert features_of("9C 2H 4S") == []


def test_jellical_run_of_two_queens() -> None:
    assert features_of("2♠ Q♦ Q♣ 2♥") == [("jellical", (1,), 2), ("jellical", (2,), 2)]


def test_jellical_between_kings() -> None:
    assert features_of("KH QH KD") == [("jellical", (1,), 2)]


def test_queens_alone_have_no_bread() -> None:
    assert features_of("QH QD QC") == []


def test_jellical_run_must_be_one_rank() -> None:
    assert features_of("2H QD KD 2D") == []


def test_jellical_needs_both_neighbours() -> None:
    assert features_of("JH 5H") == []
    assert features_of("5H JH") == []


def test_jellical_bread_must_share_a_rank_not_a_suit() -> None:
    assert features_of("5H JS JC 5D") == [("jellical", (1,), 2), ("jellical", (2,), 2)]
    assert features_of("5H JS JC 6H") == []


def test_jellical_runs_of_kings_and_alternating_faces() -> None:
    kings = features_of("3H KS KD KH 3D")
    assert [(kind, positions) for kind, positions, _ in kings] == [
        ("jellical", (1,)),
        ("jellical", (2,)),
        ("jellical", (3,)),
    ]
    # Each face card is a run of its own, with the neighbouring runs as bread.
    alternating = features_of("QH KH QD KD QC")
    assert [positions for kind, positions, _ in alternating if kind == "jellical"] == [
        (1,),
        (2,),
        (3,),
    ]


def test_jellical_bread_may_be_face_cards_of_the_run_rank_elsewhere() -> None:
    # The run is maximal, so `K K Q K K` has runs K K / Q / K K: only the Queen has bread.
    assert [p for k, p, _ in features_of("KH KD QH KS KC") if k == "jellical"] == [(2,)]


# ---------------------------------------------------------------------------------------------
# Variants


def test_lucky_tom_only_for_two_fives() -> None:
    assert features_of("5H 5D", variants=LUCKY) == [("tomcat", (0, 1), 5)]
    assert features_of("5H 5D") == [("tomcat", (0, 1), 3)]
    assert features_of("4H 6D", variants=LUCKY) == [("tomcat", (0, 1), 3)]


def test_music_of_the_night_each_yowler_worth_the_count() -> None:
    score = score_pile(parse_pile("10S 2H 10H 10D"), variants=MUSIC)
    assert [f.points for f in score.features if f.kind == "yowler"] == [3, 3, 3]
    assert score.points == 9
    assert score_pile(parse_pile("10S"), variants=MUSIC).points == 1


def test_music_of_the_night_counts_per_pile() -> None:
    player = score_player([parse_pile("10S 10H"), parse_pile("10D")], variants=MUSIC)
    assert [pile.points for pile in player.piles] == [4, 1]


@pytest.mark.parametrize("decks", [0, 3, -1])
def test_variants_reject_other_deck_counts(decks: int) -> None:
    with pytest.raises(ValueError, match="decks must be 1 or 2"):
        Variants(decks=decks)


def test_variants_are_off_by_default() -> None:
    assert Variants() == Variants(decks=1, lucky_tom=False, music_of_the_night=False)


# ---------------------------------------------------------------------------------------------
# Queens


def test_no_feature_can_hold_two_queens() -> None:
    # choose_queens picks each Queen on its own; that is only right while this holds.
    assert 2 * min(QUEEN_VALUES) > max(TOMCAT_SUM, BLACK_CAT_SUM)


def test_queen_tie_reports_7() -> None:
    # Q=7: 6C QS is a Black Cat; Q=11: QS 2C is one. Same points either way.
    score = score_pile(parse_pile("6C QS 2C"))
    assert score.queen_values == {1: 7}
    assert score.queens[0].indifferent
    assert score_pile(parse_pile("6C QS 2C"), pins={1: 11}).points == score.points


def test_queen_choice_reports_card_and_flags() -> None:
    score = score_pile(parse_pile("QS 2C 3H 7H QH"), pins={4: 11})
    first, second = score.queens
    assert (first.position, first.card, first.value, first.pinned) == (
        0,
        parse_card("QS"),
        11,
        False,
    )
    assert not first.indifferent
    assert (second.position, second.value, second.pinned, second.indifferent) == (4, 11, True, True)


def test_pin_against_the_best_choice_is_respected() -> None:
    assert score_pile(parse_pile("QH 3D"), pins={0: 11}).queen_values == {0: 11}
    assert score_pile(parse_pile("QS 2C"), pins={0: 7}).queen_values == {0: 7}


def test_queen_chosen_for_black_cats_nested_by_zero_cards() -> None:
    # Q=7: 4 Q 2 and K 4 Q 2 (two Black Cats, 12) beat Q=11: Q 2 (one, 6).
    assert score_pile(parse_pile("KS 4S QS 2C")).queen_values == {2: 7}
    assert score_pile(parse_pile("KS 4S QS 2C")).counts["black_cat"] == 2
    # Q=11: Q 2, J Q 2, Q 2 K and J Q 2 K.
    eleven = score_pile(parse_pile("JC QS 2C KS"))
    assert eleven.queen_values == {1: 11}
    assert sorted(f.positions for f in eleven.features if f.kind == "black_cat") == [
        (0, 1, 2),
        (0, 1, 2, 3),
        (1, 2),
        (1, 2, 3),
    ]


def test_queen_choice_counts_every_left_start_with_the_same_sum() -> None:
    # Q=7: 6 J Q (one Black Cat, 6). Q=11: Q 2 and J Q 2 (two, 12): the J adds a second start.
    score = score_pile(parse_pile("6S JC QS 2C"))
    assert score.queen_values == {2: 11}
    assert score.points == 12


def test_queens_decided_independently_in_one_black_run() -> None:
    # First Queen: 11 makes QS 2C; second: 7 makes QC 6S. Together: 2 Black Cats.
    score = score_pile(parse_pile("QS 2C QC 6S"))
    assert score.queen_values == {0: 11, 2: 7}
    assert score.counts["black_cat"] == 2


@pytest.mark.parametrize(
    ("pins", "message"),
    [
        ({1: 7}, "position 1 is 2♣ (2C), not a Queen"),
        ({5: 7}, "outside the pile (3 cards, positions 0-2)"),
        ({-1: 7}, "outside the pile"),
        ({0: 9}, "pinned to 9: a Queen is worth 7 or 11"),
        ({0: True}, "a Queen is worth 7 or 11"),
        ({0: 7.0}, "a Queen is worth 7 or 11"),
        ({0: "11"}, "a Queen is worth 7 or 11"),
    ],
)
def test_bad_pins_are_errors_with_clear_messages(pins: dict, message: str) -> None:
    with pytest.raises(PinError) as caught:
        score_pile(parse_pile("QS 2C 3H"), pins=pins)
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_pin_on_empty_pile_is_an_error() -> None:
    with pytest.raises(PinError, match="no positions"):
        choose_queens((), {0: 7})


def test_player_pins_for_a_missing_pile_are_an_error() -> None:
    with pytest.raises(PinError, match="pile 2, which doesn't exist"):
        score_player([parse_pile("QS"), parse_pile("QH")], pins={2: {0: 7}})


def test_player_pins_reach_the_right_pile() -> None:
    player = score_player([parse_pile("QS 2C"), parse_pile("QS 2C")], pins={1: {0: 7}})
    assert [pile.queen_values for pile in player.piles] == [{0: 11}, {0: 7}]


def test_find_features_with_explicit_values() -> None:
    cards = parse_pile("QS 2C")
    assert [f.kind for f in find_features(cards, {0: 11})] == ["black_cat"]
    assert find_features(cards, {0: 7}) == ()
    assert find_features(cards) == ()  # a Queen not given is worth 7


def test_feature_cards_match_positions() -> None:
    score = score_pile(parse_pile("QS 6C QH 5H 5D 8D 2S QD QC 2H 8H 7S 3H 4S 6S"))
    for feature in score.features:
        assert feature.cards == tuple(score.cards[p] for p in feature.positions)


# ---------------------------------------------------------------------------------------------
# Players and tables


def test_table_winner() -> None:
    table = score_table(
        {"Ann": [parse_pile("KS 9C 4S"), parse_pile("")], "Bob": [parse_pile("8D 2H 8H")]}
    )
    assert isinstance(table, TableScore)
    assert table.totals == {"Ann": 12, "Bob": 6}
    assert table.winners == ("Ann",)
    assert table.winner == "Ann"
    assert not table.is_tie
    assert all(isinstance(player, PlayerScore) for player in table.players)


def test_table_tie() -> None:
    table = score_table({"Ann": [parse_pile("8D 2H")], "Bob": [parse_pile("7S 3S")]})
    assert table.is_tie
    assert table.winner is None
    assert table.winners == ("Ann", "Bob")


def test_empty_table_has_no_winner() -> None:
    table = score_table({})
    assert table.winners == ()
    assert table.winner is None
    assert not table.is_tie


def test_table_pins_and_variants() -> None:
    table = score_table(
        {"Ann": [parse_pile("QS 2C")], "Bob": [parse_pile("5H 5D")]},
        pins={"Ann": {0: {0: 7}}},
        variants=LUCKY,
    )
    assert table.totals == {"Ann": 0, "Bob": 5}
    with pytest.raises(PinError, match="unknown player 'Cy'"):
        score_table({"Ann": [parse_pile("QS")]}, pins={"Cy": {0: {0: 7}}})


def test_duplicate_card_with_one_deck_names_every_place() -> None:
    table = {"Ann": [parse_pile("QS 2C"), parse_pile("3H QS")], "Bob": [parse_pile("5D QS")]}
    with pytest.raises(DuplicateCardError) as caught:
        score_table(table)
    message = str(caught.value)
    assert "Q♠" in message and "3 times" in message
    for place in ("'Ann' pile 0 position 0", "'Ann' pile 1 position 1", "'Bob' pile 0 position 1"):
        assert place in message
    assert isinstance(caught.value, ValueError)
    (duplicate,) = caught.value.duplicates
    assert duplicate.card == parse_card("QS")
    assert [(p.player, p.pile, p.position) for p in duplicate.places] == [
        ("Ann", 0, 0),
        ("Ann", 1, 1),
        ("Bob", 0, 1),
    ]


def test_duplicate_within_one_pile() -> None:
    with pytest.raises(DuplicateCardError, match=r"pile 0 position 0, .*pile 0 position 2"):
        check_decks({"Ann": [parse_pile("7S 2H 7S")]})


def test_two_decks_allow_two_copies_not_three() -> None:
    twice = {"Ann": [parse_pile("QS 2C")], "Bob": [parse_pile("QS")]}
    assert score_table(twice, variants=Variants(decks=2)).totals == {"Ann": 6, "Bob": 0}
    thrice = {"Ann": [parse_pile("QS QS")], "Bob": [parse_pile("QS")]}
    with pytest.raises(DuplicateCardError, match="3 times but 2 decks have only 2"):
        score_table(thrice, variants=Variants(decks=2))


def test_find_duplicates_lists_without_raising() -> None:
    table = {"Ann": [parse_pile("QS 2C 7H")], "Bob": [parse_pile("2C QS 8D")]}
    duplicates = find_duplicates(table)
    assert [d.card.code for d in duplicates] == ["QS", "2C"]
    assert find_duplicates(table, decks=2) == []
    assert find_duplicates({"Ann": [ALL_CARDS]}) == []


def test_whole_deck_on_the_table_is_fine() -> None:
    check_decks({"Ann": [ALL_CARDS[:26]], "Bob": [ALL_CARDS[26:]]})


# ---------------------------------------------------------------------------------------------
# Properties against a slow, obviously correct reference

Key = tuple[str, tuple[int, ...], int]


def reference_features(
    cards: Sequence[Card], queen_values: Mapping[int, int], variants: Variants
) -> list[Key]:
    """Every feature, straight from RULES.md, by enumerating pairs, cards and stretches."""
    values = [card.value(queen_values.get(i, 7)) for i, card in enumerate(cards)]
    n = len(cards)
    found: list[Key] = []
    for i in range(n - 1):
        if values[i] + values[i + 1] == 10:
            fives = cards[i].rank is Rank.FIVE and cards[i + 1].rank is Rank.FIVE
            found.append(("tomcat", (i, i + 1), 5 if variants.lucky_tom and fives else 3))
    tens = [i for i in range(n) if cards[i].rank is Rank.TEN]
    for i in tens:
        found.append(("yowler", (i,), len(tens) if variants.music_of_the_night else 1))
    for i in range(n):
        if not cards[i].is_face:
            continue
        first = i
        while first > 0 and cards[first - 1].rank is cards[i].rank:
            first -= 1
        last = i
        while last < n - 1 and cards[last + 1].rank is cards[i].rank:
            last += 1
        if first > 0 and last < n - 1 and cards[first - 1].rank is cards[last + 1].rank:
            found.append(("jellical", (i,), 2))
    for first in range(n):
        for last in range(first + 1, n):
            stretch = range(first, last + 1)
            if all(cards[k].is_black for k in stretch) and sum(values[k] for k in stretch) == 13:
                found.append(("black_cat", tuple(stretch), 6))
    return found


def reference_points(
    cards: Sequence[Card], queen_values: Mapping[int, int], variants: Variants
) -> int:
    return sum(points for _, _, points in reference_features(cards, queen_values, variants))


def reference_best(
    cards: Sequence[Card], pins: Mapping[int, int], variants: Variants
) -> tuple[dict[int, int], int]:
    """Try every Queen assignment; best points, then most 7s, then 7s earliest."""
    queens = [i for i, card in enumerate(cards) if card.is_queen]
    best: tuple[tuple[int, int, tuple[bool, ...]], dict[int, int]] | None = None
    for assignment in itertools.product(QUEEN_VALUES, repeat=len(queens)):
        values = dict(zip(queens, assignment, strict=True))
        if any(values[position] != value for position, value in pins.items()):
            continue
        sevens = tuple(value == 7 for value in assignment)
        key = (reference_points(cards, values, variants), sum(sevens), sevens)
        if best is None or key > best[0]:
            best = (key, values)
    assert best is not None
    return best[1], best[0][0]


# Cards that make features often: Queens, black low cards, zero-valued faces, 3s, 5s and 10s.
INTERESTING = parse_pile(
    "QS QC QH QD KS KC JS JC KH JH AS 2C 2S 3C 4S 5C 6S 9C 3H 5H 5D 10S 10H 7D 8C"
)
card_strategy = st.one_of(st.sampled_from(ALL_CARDS), st.sampled_from(INTERESTING))
variants_strategy = st.builds(
    Variants,
    decks=st.sampled_from([1, 2]),
    lucky_tom=st.booleans(),
    music_of_the_night=st.booleans(),
)
# Black Cats need runs of black cards; piles of only black low cards, faces and Queens are dense
# in nested and overlapping stretches.
BLACK_LOW = [card for card in ALL_CARDS if card.is_black and card.value(7) <= 7]
small_piles = st.one_of(
    st.lists(card_strategy, max_size=12), st.lists(st.sampled_from(BLACK_LOW), max_size=12)
).filter(lambda pile: sum(card.is_queen for card in pile) <= 7)


@st.composite
def piles_with_pins(draw: st.DrawFn, piles: st.SearchStrategy[list[Card]] = small_piles):
    cards = draw(piles)
    queens = [i for i, card in enumerate(cards) if card.is_queen]
    pinned = draw(st.lists(st.sampled_from(queens), unique=True) if queens else st.just([]))
    pins = {position: draw(st.sampled_from(QUEEN_VALUES)) for position in pinned}
    return cards, pins


def as_keys(features: Sequence) -> list[Key]:
    return sorted((f.kind, f.positions, f.points) for f in features)


@settings(max_examples=300, deadline=None)
@given(piles_with_pins(), variants_strategy)
def test_engine_matches_brute_force_reference(
    pile_and_pins: tuple[list[Card], dict[int, int]], variants: Variants
) -> None:
    cards, pins = pile_and_pins
    score = score_pile(cards, pins, variants)
    best_values, best_points = reference_best(cards, pins, variants)
    assert score.points == best_points
    assert score.queen_values == best_values
    reference = reference_features(cards, best_values, variants)
    assert as_keys(score.features) == sorted(reference)
    assert score.counts == {
        kind: Counter(k for k, _, _ in reference)[kind] for kind in FEATURE_KINDS
    }


@settings(max_examples=60, deadline=None)
@given(
    st.lists(card_strategy, min_size=13, max_size=104).filter(
        lambda pile: sum(card.is_queen for card in pile) <= 4
    ),
    variants_strategy,
)
def test_engine_matches_reference_on_long_piles(cards: list[Card], variants: Variants) -> None:
    score = score_pile(cards, variants=variants)
    best_values, best_points = reference_best(cards, {}, variants)
    assert score.points == best_points
    assert score.queen_values == best_values
    assert as_keys(score.features) == sorted(reference_features(cards, best_values, variants))


@settings(max_examples=200, deadline=None)
@given(piles_with_pins(), variants_strategy)
def test_reported_queen_values_achieve_the_score(
    pile_and_pins: tuple[list[Card], dict[int, int]], variants: Variants
) -> None:
    cards, pins = pile_and_pins
    score = score_pile(cards, pins, variants)
    assert score.points >= 0
    assert reference_points(cards, score.queen_values, variants) == score.points
    for position, value in pins.items():
        assert score.queen_values[position] == value
    assert {q.position for q in score.queens if q.pinned} == set(pins)
    for queen in score.queens:
        flipped = {**score.queen_values, queen.position: 18 - queen.value}
        flipped_points = reference_points(cards, flipped, variants)
        assert queen.indifferent == (flipped_points == score.points)
        if not queen.pinned and queen.value == 11:
            assert flipped_points < score.points, "an 11 that doesn't score more should be a 7"


@settings(max_examples=200, deadline=None)
@given(st.lists(card_strategy, max_size=40), variants_strategy)
def test_reversing_a_pile_keeps_its_score(cards: list[Card], variants: Variants) -> None:
    forward = score_pile(cards, variants=variants)
    backward = score_pile(cards[::-1], variants=variants)
    assert backward.points == forward.points
    assert backward.counts == forward.counts
    last = len(cards) - 1
    assert backward.queen_values == {last - p: v for p, v in forward.queen_values.items()}
    assert forward.points >= 0


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(card_strategy, max_size=15), max_size=4), variants_strategy)
def test_player_total_is_the_sum_of_piles(piles: list[list[Card]], variants: Variants) -> None:
    player = score_player(piles, variants=variants)
    assert player.total == sum(score_pile(pile, variants=variants).points for pile in piles)
