"""Cards: parsing the accepted forms, naming bad tokens, formatting round trips."""

from __future__ import annotations

import pytest

from blackcat.games.cards import (
    ALL_CARDS,
    Card,
    CardParseError,
    Rank,
    Suit,
    format_pile,
    parse_card,
    parse_pile,
)

QUEEN_OF_SPADES = Card(Rank.QUEEN, Suit.SPADES)
TEN_OF_HEARTS = Card(Rank.TEN, Suit.HEARTS)
TEN_OF_DIAMONDS = Card(Rank.TEN, Suit.DIAMONDS)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("QS", QUEEN_OF_SPADES),
        ("qs", QUEEN_OF_SPADES),
        ("Q♠", QUEEN_OF_SPADES),
        ("q♤", QUEEN_OF_SPADES),
        (" QS ", QUEEN_OF_SPADES),
        ("10H", TEN_OF_HEARTS),
        ("10h", TEN_OF_HEARTS),
        ("10♥", TEN_OF_HEARTS),
        ("Td", TEN_OF_DIAMONDS),
        ("TD", TEN_OF_DIAMONDS),
        ("AD", Card(Rank.ACE, Suit.DIAMONDS)),
        ("7♣", Card(Rank.SEVEN, Suit.CLUBS)),
        ("kc", Card(Rank.KING, Suit.CLUBS)),
        ("J♦", Card(Rank.JACK, Suit.DIAMONDS)),
        ("Q\u2660\ufe0f", QUEEN_OF_SPADES),  # as an emoji keyboard sends ♠️
        ("10\u2665\ufe0e", TEN_OF_HEARTS),  # the text form of ♥
    ],
)
def test_parse_card_accepts_every_documented_form(text: str, expected: Card) -> None:
    assert parse_card(text) == expected


@pytest.mark.parametrize("text", ["", "Q", "S", "1S", "11H", "QX", "QSS", "ZZ", "10", "0H", "T"])
def test_parse_card_rejects_bad_tokens(text: str) -> None:
    with pytest.raises(CardParseError) as caught:
        parse_card(text)
    assert caught.value.token == text
    assert repr(text) in str(caught.value)
    assert "QS" in str(caught.value), "the message should say what is accepted"


def test_card_parse_error_is_a_value_error() -> None:
    assert issubclass(CardParseError, ValueError)


@pytest.mark.parametrize(
    "text",
    [
        "QS 10h Td",
        "QS,10h,Td",
        "QS, 10h ,Td",
        "  QS\t10h\nTd  ",
        "Q♠ 10♥ 10♦",
        "qs;10H;td",
        # pasted from a chat or a spreadsheet: invisible separators and marks
        "\ufeffQS\u200b10h\u2060Td",
        "QS\u00a010\u200dh Td\u200e",
        "QS\u2066 10\u00adh \u202aTd\u202c",  # a direction isolate, a soft hyphen, an embedding
    ],
)
def test_parse_pile_separators_and_forms(text: str) -> None:
    assert parse_pile(text) == (QUEEN_OF_SPADES, TEN_OF_HEARTS, TEN_OF_DIAMONDS)


@pytest.mark.parametrize("text", ["Q S 10 h T d", "q ♠, 10 ♥️ Td", "QS 10 H, T,D"])
def test_parse_pile_joins_a_rank_and_a_suit_typed_apart(text: str) -> None:
    assert parse_pile(text) == (QUEEN_OF_SPADES, TEN_OF_HEARTS, TEN_OF_DIAMONDS)


@pytest.mark.parametrize(
    ("text", "token", "position"), [("Q S S", "S", 1), ("Q 5H", "Q", 0), ("QS S", "S", 1)]
)
def test_parse_pile_joins_only_a_rank_alone_and_a_suit_alone(
    text: str, token: str, position: int
) -> None:
    with pytest.raises(CardParseError) as caught:
        parse_pile(text)
    assert (caught.value.token, caught.value.position) == (token, position)


@pytest.mark.parametrize("text", ["", "   ", ",", " , "])
def test_parse_pile_empty_text_is_an_empty_pile(text: str) -> None:
    assert parse_pile(text) == ()


def test_parse_pile_names_the_bad_token_and_its_position() -> None:
    with pytest.raises(CardParseError) as caught:
        parse_pile("QS 10H XX 4C")
    assert caught.value.token == "XX"
    assert caught.value.position == 2
    assert "'XX'" in str(caught.value)
    assert "(card 3)" in str(caught.value)  # people count from 1


def test_all_cards_is_one_deck() -> None:
    assert len(ALL_CARDS) == 52
    assert len(set(ALL_CARDS)) == 52


@pytest.mark.parametrize("card", ALL_CARDS, ids=lambda card: card.code)
def test_every_card_round_trips_in_both_formats(card: Card) -> None:
    assert parse_card(card.code) == card
    assert parse_card(card.label) == card
    assert parse_card(card.code.lower()) == card


@pytest.mark.parametrize("symbols", [True, False])
def test_whole_deck_round_trips_through_format_pile(symbols: bool) -> None:
    assert parse_pile(format_pile(ALL_CARDS, symbols=symbols)) == ALL_CARDS


def test_format_pile_forms() -> None:
    pile = (QUEEN_OF_SPADES, TEN_OF_HEARTS)
    assert format_pile(pile) == "Q♠ 10♥"
    assert format_pile(pile, symbols=False) == "QS 10H"


@pytest.mark.parametrize(
    ("code", "value"),
    [("AS", 1), ("2H", 2), ("9D", 9), ("10C", 10), ("JS", 0), ("KH", 0)],
)
def test_values(code: str, value: int) -> None:
    assert parse_card(code).value() == value


def test_queen_value_is_chosen() -> None:
    assert QUEEN_OF_SPADES.value(7) == 7
    assert QUEEN_OF_SPADES.value(11) == 11


def test_colours_and_faces() -> None:
    assert parse_card("2S").is_black and parse_card("2C").is_black
    assert parse_card("2H").is_red and parse_card("2D").is_red
    assert {card.rank for card in ALL_CARDS if card.is_face} == {Rank.JACK, Rank.QUEEN, Rank.KING}


@pytest.mark.parametrize(
    ("typed", "meant"), [("SQ", "QS"), ("♠Q", "Q♠"), ("1OH", "10H"), ("S10", "10S")]
)
def test_an_unknown_card_says_which_card_a_likely_typo_meant(typed: str, meant: str) -> None:
    with pytest.raises(CardParseError) as raised:
        parse_card(typed)
    assert str(raised.value).endswith(f"; did you mean {meant}?")


@pytest.mark.parametrize("typed", ["11H", "XX", "Q", "1H"])
def test_an_unknown_card_with_no_likely_fix_suggests_nothing(typed: str) -> None:
    with pytest.raises(CardParseError) as raised:
        parse_card(typed)
    assert "did you mean" not in str(raised.value)
