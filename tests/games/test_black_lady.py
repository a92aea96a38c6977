"""The Black Lady engine against hand-worked deals, the set-aside table, the game sheet and the
checks that catch misread cards."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blackcat.games.black_lady import (
    SET_ASIDE,
    AceHeartsError,
    PlayerCountError,
    Rules,
    card_points,
    cards_each,
    check_deal,
    deck_in_play,
    penalty_total,
    score_deal,
    score_game,
    set_aside,
)
from blackcat.games.cards import ALL_CARDS, Card, parse_card, parse_pile


def cards(text: str) -> tuple[Card, ...]:
    return parse_pile(text)


def deal(*texts: str) -> list[tuple[Card, ...]]:
    return [cards(text) for text in texts]


# Hand-worked deals: every card in play exactly once, each player a whole number of tricks.
THREE = deal(
    # Q♠ -40, A♥ -11, K♥ -10, 5♥ -5, 2♥ -2 = -68 (6 tricks)
    "QS AH KH 5H 2H AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS KS AD",
    # 3+4+6+7+8+9 = 37 and 10 J Q = 30: -67 (11 tricks)
    "3H 4H 6H 7H 8H 9H 10H JH QH 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AC 3C 4C 5C 6C 7C 8C 9C "
    "10C JC QC KC",
    "",  # no trick: +50
)
FOUR = deal(
    "QS 10H 2S 3S 4S 5S 6S 7S",  # -40 -10 = -50
    "AH 2H 3H 4H 5H 6H 7H 8H 9H 8S 9S 10S",  # -11 - (2+...+9 = 44) = -55
    "JH QH KH JS KS AS AD 2D 3D 4D 5D 6D 7D 8D 9D 10D",  # -30
    "JD QD KD AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC",  # 0
)
FIVE = deal(
    "QS AS KS JS 10S 9S 8S 7S 6S 5S",  # -40
    "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H 4S 3S",  # every heart: -95
    "2S AD KD QD JD",  # 0
    "10D 9D 8D 7D 6D 5D 4D 3D AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C",  # 0
    "",  # +50
)
NINE = deal(
    "QS 2H 3H 4H 5H 6H 7H 8H 9H",  # -40 - 44 = -84
    "10H JH QH KH AH AS KS JS 10S 9S 8S 7S 6S 5S 4S AD KD QD",  # -40 - 11 = -51
    "JD 10D 9D 8D 7D 6D 5D 4D AC",  # 0
    "KC QC JC 10C 9C 8C 7C 6C 5C",  # 0
    "",
    "",
    "",
    "",
    "",  # five players without a trick: +250
)


# ---------------------------------------------------------------------------------------------
# The deck in play


def test_set_aside_follows_the_seeds_nine_player_example() -> None:
    assert set_aside(9) == cards("2C 2D 2S 3C 3D 3S 4C")


@pytest.mark.parametrize(
    ("players", "aside", "each"),
    [
        (3, "2C", 17),
        (4, "", 13),
        (5, "2C 2D", 10),
        (6, "2C 2D 2S 3C", 8),
        (7, "2C 2D 2S", 7),
        (8, "2C 2D 2S 3C", 6),
        (9, "2C 2D 2S 3C 3D 3S 4C", 5),
    ],
)
def test_the_set_aside_table(players: int, aside: str, each: int) -> None:
    assert SET_ASIDE[players] == set_aside(players) == cards(aside)
    assert cards_each(players) == each
    assert len(deck_in_play(players)) == players * each
    in_play = set(deck_in_play(players))
    assert all(Card.parse(f"{rank}H") in in_play for rank in "A23456789JQK")
    assert parse_card("QS") in in_play


@pytest.mark.parametrize("players", [0, 1, 2, 10, 52])
def test_three_to_nine_players(players: int) -> None:
    with pytest.raises(PlayerCountError, match="3 to 9 players"):
        set_aside(players)
    with pytest.raises(PlayerCountError):
        score_deal([()] * players)


# ---------------------------------------------------------------------------------------------
# Scores


@pytest.mark.parametrize(
    ("code", "points"),
    [
        ("2H", -2),
        ("9H", -9),
        ("10H", -10),
        ("JH", -10),
        ("QH", -10),
        ("KH", -10),
        ("AH", -11),
        ("QS", -40),
        ("KS", 0),
        ("QD", 0),
        ("2C", 0),
    ],
)
def test_card_points(code: str, points: int) -> None:
    assert card_points(parse_card(code)) == points


def test_the_ace_of_hearts_switch() -> None:
    assert card_points(parse_card("AH"), Rules(ace_hearts=10)) == -10
    assert penalty_total() == -135
    assert penalty_total(Rules(ace_hearts=10)) == -134
    with pytest.raises(AceHeartsError, match="11 or minus 10"):
        Rules(ace_hearts=12)


@pytest.mark.parametrize(
    ("tricks", "points"),
    [
        (THREE, (-68, -67, 50)),
        (FOUR, (-50, -55, -30, 0)),
        (FIVE, (-40, -95, 0, 0, 50)),
        (NINE, (-84, -51, 0, 0, 50, 50, 50, 50, 50)),
    ],
    ids=["three", "four", "five", "nine"],
)
def test_hand_worked_deals(tricks: list[tuple[Card, ...]], points: tuple[int, ...]) -> None:
    score = score_deal(tricks)
    assert score.points == points
    no_tricks = sum(1 for cards in tricks if not cards)
    assert score.total == -135 + 50 * no_tricks
    assert check_deal(tricks) == ()


def test_the_ace_switch_changes_only_the_aces_holder() -> None:
    assert score_deal(THREE, Rules(ace_hearts=10)).points == (-67, -67, 50)
    assert score_deal(THREE, Rules(ace_hearts=10)).total == -84


def test_no_trick_is_plus_fifty_and_tricks_without_hearts_are_zero() -> None:
    score = score_deal(FOUR)
    assert score.players[3].points == 0 and not score.players[3].no_tricks
    score = score_deal(THREE)
    assert score.players[2].no_tricks and score.players[2].points == 50


def test_taking_every_heart_and_the_queen_of_spades_is_minus_135() -> None:
    everything = deal(
        "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH QS AS KS",
        "2S 3S 4S 5S 6S 7S 8S 9S 10S JS AD KD",
        "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD AC",
        "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC",
    )
    assert check_deal(everything) == ()
    assert score_deal(everything).points == (-135, 0, 0, 0)
    assert score_deal(everything, Rules(ace_hearts=10)).points == (-134, 0, 0, 0)


def test_names_and_the_cards_that_score() -> None:
    score = score_deal(FOUR, names=["Ann", "Ben", "Cat", "Dan"])
    assert [player.name for player in score.players] == ["Ann", "Ben", "Cat", "Dan"]
    assert score.players[0].scoring_cards == cards("QS 10H")
    with pytest.raises(ValueError, match="3 names for 4 players"):
        score_deal(FOUR, names=["Ann", "Ben", "Cat"])


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_any_full_deal_hands_out_minus_135_plus_50_a_player_without_tricks(data) -> None:
    players = data.draw(st.integers(3, 9))
    in_play = list(deck_in_play(players))
    order = data.draw(st.permutations(in_play))
    tricks_taken = [0] * players
    for _ in range(cards_each(players)):  # each trick goes to somebody
        tricks_taken[data.draw(st.integers(0, players - 1))] += 1
    tricks, start = [], 0
    for taken in tricks_taken:
        tricks.append(tuple(order[start : start + taken * players]))
        start += taken * players
    ace = data.draw(st.sampled_from((11, 10)))
    score = score_deal(tricks, Rules(ace_hearts=ace))
    assert score.total == penalty_total(Rules(ace_hearts=ace)) + 50 * tricks_taken.count(0)
    assert check_deal(tricks) == ()


# ---------------------------------------------------------------------------------------------
# The game


def test_running_totals_and_the_winner() -> None:
    game = score_game(["Ann", "Ben", "Cat"], [(-68, -67, 50), (50, -95, -40)])
    assert game.running == ((-68, -67, 50), (-18, -162, 10))
    assert game.totals == (-18, -162, 10)
    assert game.winners == ("Cat",) and game.winner == "Cat" and not game.is_tie


def test_equal_totals_tie_and_a_missing_score_counts_zero() -> None:
    game = score_game(["Ann", "Ben", "Cat"], [(-40, -95, 50), (50, None, -40)])
    assert game.totals == (10, -95, 10)
    assert game.winners == ("Ann", "Cat") and game.winner is None and game.is_tie


def test_a_game_before_the_first_deal() -> None:
    game = score_game(["Ann", "Ben", "Cat"], [])
    assert game.totals == (0, 0, 0) and game.winners == ()
    with pytest.raises(ValueError, match="deal 1 has 2 scores for 3 players"):
        score_game(["Ann", "Ben", "Cat"], [(1, 2)])


# ---------------------------------------------------------------------------------------------
# Checks that catch misreads

NAMES = ["Ann", "Ben", "Cat", "Dan"]


def misread(tricks: list[tuple[Card, ...]], player: int, was: str, read_as: str | None):
    """The deal with one card of one player read as another (None: not found at all)."""
    changed = list(tricks)
    old = parse_card(was)
    new = () if read_as is None else (parse_card(read_as),)
    changed[player] = tuple(c for c in tricks[player] if c != old) + new
    return changed


def test_a_heart_read_as_another_card_names_both_cards_and_whose_photos() -> None:
    tricks = misread(FOUR, 1, "9H", "9D")  # Ben's 9♥ read as Cat's 9♦
    problems = check_deal(tricks, NAMES)
    assert [(p.kind, p.cards, p.players) for p in problems] == [
        ("doubled", cards("9D"), ("Ben", "Cat")),
        ("missing", cards("9H"), ("Ben", "Cat")),
    ]
    assert problems[0].message == (
        "9♦ is in the tricks of Ben and Cat: one deck has one; look at their photos"
    )
    assert problems[1].message == "9♥ is in nobody's tricks: look at the photos of Ben and Cat"


def test_a_card_not_found_names_the_player_short_of_a_trick() -> None:
    tricks = misread(FOUR, 0, "QS", None)  # the reader missed Ann's Q♠
    problems = check_deal(tricks, NAMES)
    assert [(p.kind, p.cards, p.players) for p in problems] == [
        ("count", (), ("Ann",)),
        ("missing", cards("QS"), ("Ann",)),
        ("total", (), ("Ann",)),
    ]
    assert problems[0].message == (
        "Ann has 7 cards, not a whole number of tricks of 4 cards (1 trick is 4, 2 tricks 8): "
        "look at Ann's photo"
    )
    assert problems[1].message == "Q♠ is in nobody's tricks: look at Ann's photo"
    assert "the tricks hold 51 cards but 52 are dealt with 4 players" in problems[2].message
    assert score_deal(tricks).points[0] == -10  # it still scores as read


def test_fewer_cards_than_a_trick_are_said_plainly() -> None:
    tricks = [*FOUR[:3], cards("JD QD KD")]  # Dan's photo caught 3 cards of his 4-card trick
    count = next(p for p in check_deal(tricks, NAMES) if p.kind == "count")
    # it said "(0 tricks is 0, 1 trick 4)"
    assert count.message == "Dan has 3 cards, not a whole trick of 4 cards: look at Dan's photo"
    one = next(p for p in check_deal([*FOUR[:3], cards("JD")], NAMES) if p.kind == "count")
    assert one.message == "Dan has 1 card, not a whole trick of 4 cards: look at Dan's photo"


def test_a_missed_card_that_does_not_score_is_named_too() -> None:
    tricks = misread(FOUR, 3, "KC", None)
    kinds = {p.kind: p for p in check_deal(tricks, NAMES)}
    assert kinds["missing"].cards == cards("KC") and kinds["missing"].players == ("Dan",)


def test_missed_cards_that_do_not_score_are_one_problem() -> None:
    tricks = misread(misread(FOUR, 3, "KC", None), 3, "QC", None)
    missing = [p for p in check_deal(tricks, NAMES) if p.kind == "missing"]
    assert [(p.cards, p.players) for p in missing] == [(cards("QC KC"), ("Dan",))]
    assert missing[0].message == "Q♣ K♣ are in nobody's tricks: look at Dan's photo"


def test_the_same_card_twice_in_one_photo() -> None:
    tricks = list(FOUR)
    tricks[2] = (*tricks[2][:-1], parse_card("JH"))  # 10♦ read as a second J♥
    problems = check_deal(tricks, NAMES)
    assert problems[0].kind == "doubled" and problems[0].players == ("Cat",)
    assert problems[0].message.startswith("J♥ is in Cat's tricks 2 times")
    assert problems[1].kind == "missing" and problems[1].cards == cards("10D")


def test_a_set_aside_card_in_someones_tricks() -> None:
    tricks = misread(THREE, 0, "AD", "2C")  # with three players the 2♣ is out of the deal
    problems = check_deal(tricks, ["Ann", "Ben", "Cat"])
    assert (problems[0].kind, problems[0].cards, problems[0].players) == (
        "set_aside",
        cards("2C"),
        ("Ann",),
    )
    assert "2♣ is set aside with 3 players but is in Ann's tricks" in problems[0].message


def test_a_card_read_as_a_set_aside_one_is_looked_for_in_that_players_tricks() -> None:
    """Ben took no trick and Cat's count is whole: only Ann's photo can hide the missing A♦."""
    tricks = misread(THREE, 0, "AD", "2C")
    missing = [p for p in check_deal(tricks, ["Ann", "Ben", "Cat"]) if p.kind == "missing"]
    assert [(p.cards, p.players) for p in missing] == [(cards("AD"), ("Ann",))]
    assert missing[0].message == "A♦ is in nobody's tricks: look at Ann's photo"


def test_until_every_player_is_read_only_what_is_already_wrong_is_said() -> None:
    partial: list[tuple[Card, ...] | None] = [FOUR[0], None, None, None]
    assert check_deal(partial, NAMES) == ()
    partial[1] = FOUR[1][:-1]
    problems = check_deal(partial, NAMES)
    assert [p.kind for p in problems] == ["count"] and problems[0].players == ("Ben",)


def test_every_card_of_the_deck_scores_or_not_as_the_rules_say() -> None:
    scoring = [card for card in ALL_CARDS if card_points(card) != 0]
    assert len(scoring) == 14
    assert sum(card_points(card) for card in scoring) == -135
