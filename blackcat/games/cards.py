"""Playing cards: ranks, suits, values, and parsing/formatting of cards and piles."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from blackcat.i18n import ENGLISH, N_, LocalizedError, Translator

QUEEN_VALUES: tuple[int, int] = (7, 11)


class Rank(Enum):
    """A card's rank. The value is the rank as printed in machine text (`10`, not `T`)."""

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"

    @property
    def is_face(self) -> bool:
        return self in (Rank.JACK, Rank.QUEEN, Rank.KING)

    @property
    def base_value(self) -> int | None:
        """Points value for scoring; None for the Queen, whose value (7 or 11) is chosen."""
        return _RANK_VALUES[self]


_RANK_VALUES: dict[Rank, int | None] = {
    Rank.ACE: 1,
    **{rank: int(rank.value) for rank in Rank if rank.value.isdigit()},
    Rank.JACK: 0,
    Rank.QUEEN: None,
    Rank.KING: 0,
}


class Suit(Enum):
    """A card's suit. The value is the letter used in machine text."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_black(self) -> bool:
        return self in (Suit.SPADES, Suit.CLUBS)


_SUIT_SYMBOLS: dict[Suit, str] = {
    Suit.SPADES: "♠",
    Suit.HEARTS: "♥",
    Suit.DIAMONDS: "♦",
    Suit.CLUBS: "♣",
}


@dataclass(frozen=True, order=False)
class Card:
    """One playing card."""

    rank: Rank
    suit: Suit

    @property
    def is_black(self) -> bool:
        return self.suit.is_black

    @property
    def is_red(self) -> bool:
        return not self.suit.is_black

    @property
    def is_face(self) -> bool:
        return self.rank.is_face

    @property
    def is_queen(self) -> bool:
        return self.rank is Rank.QUEEN

    def value(self, queen_value: int = 7) -> int:
        """Scoring value; a Queen is worth `queen_value` (7 or 11)."""
        base = self.rank.base_value
        return queen_value if base is None else base

    @property
    def code(self) -> str:
        """Machine text: `QS`, `10H`."""
        return f"{self.rank.value}{self.suit.value}"

    @property
    def label(self) -> str:
        """Text for people: `Q♠`, `10♥`."""
        return f"{self.rank.value}{self.suit.symbol}"

    def __str__(self) -> str:
        return self.code

    @classmethod
    def parse(cls, text: str) -> Card:
        return parse_card(text)


ALL_CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in Rank)
"""The 52 cards of one deck, suit by suit (spades, hearts, diamonds, clubs), A to K."""

ACCEPTED_FORMAT = N_(
    "a rank (A 2-10 T J Q K) followed by a suit (S H D C or ♠ ♥ ♦ ♣), e.g. QS, 10h, Td, Q♠"
)


def accepted_format(tr: Translator = ENGLISH) -> str:
    """How a card is typed, for people (`ACCEPTED_FORMAT` in English)."""
    return tr.gettext(ACCEPTED_FORMAT)


class CardParseError(LocalizedError, ValueError):
    """A card token that can't be read; names the token and its position."""

    def __init__(self, token: str, position: int | None = None) -> None:
        self.token = token
        self.position = position
        super().__init__(lambda tr: _unknown_card(tr, token, position))


def _unknown_card(tr: Translator, token: str, position: int | None) -> str:
    if position is None:
        text = tr.gettext("unknown card {token}: expected {accepted}")
    else:  # people count from 1
        text = tr.gettext("unknown card {token} (card {number}): expected {accepted}")
    number = position + 1 if position is not None else None
    said = text.format(token=repr(token), number=number, accepted=accepted_format(tr))
    meant = likely_meant(token)
    if meant is None:
        return said
    return f"{said}; " + tr.gettext("did you mean {card}?").format(card=meant)


def likely_meant(token: str) -> str | None:
    """The card a typo most likely meant, as typed with its fix: the suit first (`SQ`, `♠Q`),
    or a letter O for the 0 of 10 (`1OH`); None where no one fix makes a card."""
    text = _visible(token).strip()
    tries = [text[1:] + text[:1], text.replace("O", "0").replace("o", "0")]
    for attempt in tries:
        if attempt != text and _card_of(attempt) is not None:
            return attempt
    return None


def _card_of(text: str) -> Card | None:
    """The card `text` names exactly (its visible marks, case aside); None: none."""
    match = _CARD_PATTERN.match(_visible(text).strip().upper())
    if match is None or match.group(2) not in _SUIT_ALIASES:
        return None
    return Card(_RANK_ALIASES[match.group(1)], _SUIT_ALIASES[match.group(2)])


_RANK_ALIASES: dict[str, Rank] = {rank.value: rank for rank in Rank} | {"T": Rank.TEN}
_SUIT_ALIASES: dict[str, Suit] = (
    {suit.value: suit for suit in Suit}
    | {symbol: suit for suit, symbol in _SUIT_SYMBOLS.items()}
    | {"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS}
)
_CARD_PATTERN = re.compile(r"^(10|[2-9TAJQK])(.)$")
# Emoji keyboards send a suit as its symbol and a presentation mark (♠️ is "♠" + U+FE0F, or
# + U+FE0E for the text form): the mark changes how it looks, not which suit it is.
_PRESENTATION_MARKS = "\ufe0e\ufe0f"
# Text pasted from a chat or a spreadsheet may hold invisible marks: a zero-width space or a
# word joiner between cards separates them; any other format character (a joiner, a direction
# mark or isolate, a soft hyphen) in a card is nothing.
_SEPARATORS = re.compile(r"[\s,;\u200b\u2060\ufeff]+")


def _visible(text: str) -> str:
    """`text` without presentation marks and invisible format characters."""
    return "".join(
        c for c in text if c not in _PRESENTATION_MARKS and unicodedata.category(c) != "Cf"
    )


def parse_card(text: str, position: int | None = None) -> Card:
    """Read one card such as `QS`, `qs`, `10h`, `Td` or `Q♠`."""
    card = _card_of(text)
    if card is None:
        raise CardParseError(text, position)
    return card


def parse_pile(text: str) -> tuple[Card, ...]:
    """Read a pile, left to right, cards separated by spaces or commas; a rank and a suit typed
    apart (`Q S`, `10 ♥`) are one card. Empty text: no cards."""
    tokens = card_tokens(token for token in _SEPARATORS.split(text.strip()) if token)
    return tuple(parse_card(token, position) for position, token in enumerate(tokens))


def card_tokens(tokens: Iterable[str]) -> list[str]:
    """The tokens as one per card: a rank alone followed by a suit alone joined (a phone's
    keyboard puts a space after a word; nothing else can be meant)."""
    joined: list[str] = []
    for token in tokens:
        if joined and _is_suit(token) and _is_rank(joined[-1]):
            joined[-1] += token
        else:
            joined.append(token)
    return joined


def _is_rank(token: str) -> bool:
    return token.strip().upper() in _RANK_ALIASES


def _is_suit(token: str) -> bool:
    return _visible(token).strip().upper() in _SUIT_ALIASES


def format_pile(cards: tuple[Card, ...] | list[Card], *, symbols: bool = True) -> str:
    """`Q♠ 10♥` for people (symbols=True), `QS 10H` for machines."""
    return " ".join(card.label if symbols else card.code for card in cards)


def card_number(pile_index: int, position: int) -> str:
    """A card as people number it, on the photo, in the app and in the text reports (both counted
    from 1, where the engine counts from 0): pile 1, card 3 is `1.3`."""
    return f"{pile_index + 1}.{position + 1}"


def card_from_code(code: str) -> Card:
    """Card from its exact machine code (`QS`, `10H`), as used for class names."""
    return parse_card(code)
