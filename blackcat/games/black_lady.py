"""The Black Lady engine: a Hearts relative scored from the cards in each player's tricks.

The seed (`003_cf658a0473078d36.txt`) is the source; where it is silent the decisions are the
project's, written here and in the app's "How we score" panel (`app/how_black_lady_scores.md`):

- 3 to 9 players. When 52 cards don't deal out evenly, the lowest cards that are neither hearts
  nor the Q♠ are set aside, rank by rank from the 2s up, and within a rank in the order clubs,
  diamonds, spades (bridge order, hearts left out). Nine players set aside the three 2s, the
  three 3s and the 4♣: the seed's own example. See `SET_ASIDE` for every player count.
- A deal's scores: hearts 2-9 minus their face value, 10/J/Q/K of hearts minus 10, the A♥ minus
  11 (or minus 10 with `Rules(ace_hearts=10)`), the Q♠ minus 40; a player who took no trick
  (no cards) gets plus 50. No other card scores. There is no shoot-the-moon rule in the seed:
  taking every heart and the Q♠ is -135.
- The game: after any number of deals, the highest total (the fewest minus points) wins; equal
  totals tie.

Checks that catch misread cards (`check_deal`): no card twice; no set-aside card in play; each
player's card count a whole number of tricks (a trick is one card from each player); and, once
every player's tricks are read, every card in play found exactly once (hearts and the Q♠ by
name, since they score) and the cards adding up to the deck in play. Each problem names the
card and the players whose photos to look at.

Everything here is a pure function returning frozen dataclasses; it knows nothing of photos.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from blackcat.games.cards import ALL_CARDS, Card, Rank, Suit
from blackcat.games.standings import Standings, leaders
from blackcat.i18n import ENGLISH, LocalizedError, Translator, and_list

MIN_PLAYERS = 3
MAX_PLAYERS = 9
QUEEN_OF_SPADES = Card(Rank.QUEEN, Suit.SPADES)
QUEEN_OF_SPADES_POINTS = -40
HONOUR_HEART_POINTS = -10  # 10, J, Q and K of hearts
NO_TRICKS_POINTS = 50
ACE_HEARTS_VALUES: tuple[int, int] = (11, 10)  # minus points of the A♥: usual, and the switch

_RANK_ORDER: tuple[Rank, ...] = (
    Rank.TWO,
    Rank.THREE,
    Rank.FOUR,
    Rank.FIVE,
    Rank.SIX,
    Rank.SEVEN,
    Rank.EIGHT,
    Rank.NINE,
    Rank.TEN,
    Rank.JACK,
    Rank.QUEEN,
    Rank.KING,
    Rank.ACE,
)
SET_ASIDE_SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES)
"""Within a rank, the order in which cards are set aside (hearts always stay)."""


class PlayerCountError(LocalizedError, ValueError):
    """Black Lady is played by 3 to 9 players."""

    def __init__(self, players: int) -> None:
        self.players = players
        super().__init__(
            lambda tr: tr.gettext("Black Lady needs {low} to {high} players, got {players}").format(
                low=MIN_PLAYERS, high=MAX_PLAYERS, players=players
            )
        )


class AceHeartsError(ValueError):
    """The A♥ is worth minus 11 or minus 10, nothing else."""


# ---------------------------------------------------------------------------------------------
# The deck in play


def _check_players(players: int) -> None:
    if isinstance(players, bool) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise PlayerCountError(players)


def _set_aside_order() -> tuple[Card, ...]:
    """Every card that may be set aside, first to go first: lowest rank, clubs-diamonds-spades."""
    return tuple(
        Card(rank, suit)
        for rank in _RANK_ORDER
        for suit in SET_ASIDE_SUITS
        if Card(rank, suit) != QUEEN_OF_SPADES
    )


def set_aside(players: int) -> tuple[Card, ...]:
    """The cards left out of the deal so that the rest deal out evenly among `players`."""
    _check_players(players)
    return _set_aside_order()[: len(ALL_CARDS) % players]


def deck_in_play(players: int) -> tuple[Card, ...]:
    """The cards dealt with `players` players, in `ALL_CARDS` order."""
    out = set(set_aside(players))
    return tuple(card for card in ALL_CARDS if card not in out)


def cards_each(players: int) -> int:
    """Cards dealt to each player, which is also the number of tricks in a deal."""
    return len(deck_in_play(players)) // players


SET_ASIDE: dict[int, tuple[Card, ...]] = {
    players: set_aside(players) for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)
}
"""Player count -> set-aside cards: 3: 2♣; 4: none; 5: 2♣ 2♦; 6: 2♣ 2♦ 2♠ 3♣; 7: 2♣ 2♦ 2♠;
8: 2♣ 2♦ 2♠ 3♣; 9: 2♣ 2♦ 2♠ 3♣ 3♦ 3♠ 4♣."""


# ---------------------------------------------------------------------------------------------
# Scores


@dataclass(frozen=True)
class Rules:
    """The one switch the seed mentions: the A♥ is minus 11, "sometimes only ten"."""

    ace_hearts: int = 11

    def __post_init__(self) -> None:
        if isinstance(self.ace_hearts, bool) or self.ace_hearts not in ACE_HEARTS_VALUES:
            raise AceHeartsError(f"the A♥ is worth minus 11 or minus 10, got {self.ace_hearts!r}")


DEFAULT_RULES = Rules()


def card_points(card: Card, rules: Rules = DEFAULT_RULES) -> int:
    """A card's points in a player's tricks (0 for a card that doesn't score)."""
    if card == QUEEN_OF_SPADES:
        return QUEEN_OF_SPADES_POINTS
    if card.suit is not Suit.HEARTS:
        return 0
    if card.rank is Rank.ACE:
        return -rules.ace_hearts
    if card.rank.is_face or card.rank is Rank.TEN:
        return HONOUR_HEART_POINTS
    return -int(card.rank.value)


def penalty_total(rules: Rules = DEFAULT_RULES) -> int:
    """The minus points one deal hands out in all: -135 (-134 with the A♥ at 10)."""
    return sum(card_points(card, rules) for card in ALL_CARDS)


@dataclass(frozen=True)
class PlayerDeal:
    """One player's tricks in a deal and what they score."""

    name: str
    cards: tuple[Card, ...]
    points: int

    @property
    def no_tricks(self) -> bool:
        return not self.cards

    @property
    def scoring_cards(self) -> tuple[Card, ...]:
        """The hearts and the Q♠ among the player's cards, Q♠ first, then hearts A to 2."""
        return tuple(sorted((c for c in self.cards if card_points(c) != 0), key=card_points))


@dataclass(frozen=True)
class DealScore:
    players: tuple[PlayerDeal, ...]
    rules: Rules = DEFAULT_RULES

    @property
    def points(self) -> tuple[int, ...]:
        return tuple(player.points for player in self.players)

    @property
    def total(self) -> int:
        return sum(self.points)


def score_player(cards: Sequence[Card], rules: Rules = DEFAULT_RULES, name: str = "") -> PlayerDeal:
    """A player's deal: the sum of their cards' points, or +50 for no trick (no cards)."""
    cards = tuple(cards)
    if not cards:
        return PlayerDeal(name, cards, NO_TRICKS_POINTS)
    return PlayerDeal(name, cards, sum(card_points(card, rules) for card in cards))


def default_names(players: int, tr: Translator = ENGLISH) -> tuple[str, ...]:
    """`player 1`, `player 2`, ...: the names of players nobody named."""
    return tuple(tr.gettext("player {seat}").format(seat=seat) for seat in range(1, players + 1))


def score_deal(
    tricks: Sequence[Sequence[Card]],
    rules: Rules = DEFAULT_RULES,
    names: Sequence[str] | None = None,
) -> DealScore:
    """Every player's points for one deal, players in seat order. Scores whatever was read:
    a deal that fails `check_deal` still scores (the checks say what to look at)."""
    _check_players(len(tricks))
    names = _names(names, len(tricks))
    return DealScore(
        tuple(score_player(cards, rules, name) for cards, name in zip(tricks, names, strict=True)),
        rules,
    )


def _names(names: Sequence[str] | None, players: int, tr: Translator = ENGLISH) -> tuple[str, ...]:
    if names is None:
        return default_names(players, tr)
    if len(names) != players:
        raise ValueError(f"{len(names)} names for {players} players")
    return tuple(names)


# ---------------------------------------------------------------------------------------------
# The game


@dataclass(frozen=True)
class GameScore(Standings):
    """A score sheet: each deal's points (None: that player's tricks aren't in yet, counted 0),
    the running totals after each deal, and who is ahead."""

    names: tuple[str, ...]
    deals: tuple[tuple[int | None, ...], ...]

    @property
    def running(self) -> tuple[tuple[int, ...], ...]:
        """Each player's total after each deal."""
        totals = [0] * len(self.names)
        rows = []
        for deal in self.deals:
            totals = [total + (points or 0) for total, points in zip(totals, deal, strict=True)]
            rows.append(tuple(totals))
        return tuple(rows)

    @property
    def totals(self) -> tuple[int, ...]:
        return self.running[-1] if self.deals else tuple(0 for _ in self.names)

    @property
    def winners(self) -> tuple[str, ...]:
        """Every player with the highest total (the fewest minus points); none before a deal."""
        return leaders(self.names, self.totals) if self.deals else ()


def score_game(names: Sequence[str], deals: Sequence[Sequence[int | None]]) -> GameScore:
    """The score sheet of a game from each deal's points per player (seat order)."""
    _check_players(len(names))
    for number, deal in enumerate(deals, start=1):
        if len(deal) != len(names):
            raise ValueError(f"deal {number} has {len(deal)} scores for {len(names)} players")
    return GameScore(tuple(names), tuple(tuple(deal) for deal in deals))


# ---------------------------------------------------------------------------------------------
# Checks that catch misreads

ProblemKind = Literal["doubled", "set_aside", "count", "missing", "total"]


@dataclass(frozen=True)
class Problem:
    """A deal check that failed: what, which cards, and whose photos to look at."""

    kind: ProblemKind
    cards: tuple[Card, ...]
    players: tuple[str, ...]  # whose tricks (photos) to look at
    message: str

    def __str__(self) -> str:
        return self.message


def _cards_text(cards: Sequence[Card]) -> str:
    return " ".join(card.label for card in cards)


def _tricks_word(count: int, tr: Translator = ENGLISH) -> str:
    return tr.ngettext("{count} trick", "{count} tricks", count).format(count=count)


def find_doubled(
    tricks: Sequence[Sequence[Card] | None], names: Sequence[str], tr: Translator = ENGLISH
) -> list[Problem]:
    """Every card read more than once, in the order first seen, with the players holding it."""
    holders: dict[Card, list[str]] = {}
    for name, cards in zip(names, tricks, strict=True):
        for card in cards or ():
            holders.setdefault(card, []).append(name)
    problems = []
    for card, where in holders.items():
        if len(where) < 2:
            continue
        players = tuple(dict.fromkeys(where))
        if len(players) == 1:
            message = tr.ngettext(
                "{card} is in {player}'s tricks {count} time: one deck has one; "
                "look at {player}'s photo",
                "{card} is in {player}'s tricks {count} times: one deck has one; "
                "look at {player}'s photo",
                len(where),
            ).format(card=card.label, player=players[0], count=len(where))
        else:
            message = tr.gettext(
                "{card} is in the tricks of {players}: one deck has one; look at their photos"
            ).format(card=card.label, players=and_list(players, tr))
        problems.append(Problem("doubled", (card,), players, message))
    return problems


def find_set_aside(
    tricks: Sequence[Sequence[Card] | None], names: Sequence[str], tr: Translator = ENGLISH
) -> list[Problem]:
    """Cards that are set aside with this many players but were read in someone's tricks."""
    out = set(set_aside(len(tricks)))
    problems = []
    for name, cards in zip(names, tricks, strict=True):
        found = tuple(dict.fromkeys(card for card in cards or () if card in out))
        if found:
            message = tr.ngettext(
                "{cards} is set aside with {players} players but is in {player}'s tricks: "
                "look at {player}'s photo",
                "{cards} are set aside with {players} players but are in {player}'s tricks: "
                "look at {player}'s photo",
                len(found),
            ).format(cards=_cards_text(found), players=len(tricks), player=name)
            problems.append(Problem("set_aside", found, (name,), message))
    return problems


def find_bad_counts(
    tricks: Sequence[Sequence[Card] | None], names: Sequence[str], tr: Translator = ENGLISH
) -> list[Problem]:
    """Players whose card count is not a whole number of tricks (one card from each player)."""
    players = len(tricks)
    problems = []
    for name, cards in zip(names, tricks, strict=True):
        if cards is None or len(cards) % players == 0:
            continue
        message = _bad_count_words(name, len(cards), players, tr)
        problems.append(Problem("count", (), (name,), message))
    return problems


def _bad_count_words(name: str, count: int, players: int, tr: Translator = ENGLISH) -> str:
    """`count` cards that make no whole number of tricks, in words, with the nearest counts
    that would."""
    below = count // players
    if not below:  # less than a trick: "(0 tricks is 0, 1 trick 4)" read oddly
        return tr.ngettext(
            "{player} has {count} card, not a whole trick of {players} cards: "
            "look at {player}'s photo",
            "{player} has {count} cards, not a whole trick of {players} cards: "
            "look at {player}'s photo",
            count,
        ).format(player=name, count=count, players=players)
    return tr.ngettext(
        "{player} has {count} card, not a whole number of tricks of {players} cards "
        "({below} is {below_cards}, {above} {above_cards}): look at {player}'s photo",
        "{player} has {count} cards, not a whole number of tricks of {players} cards "
        "({below} is {below_cards}, {above} {above_cards}): look at {player}'s photo",
        count,
    ).format(
        player=name,
        count=count,
        players=players,
        below=_tricks_word(below, tr),
        below_cards=below * players,
        above=_tricks_word(below + 1, tr),
        above_cards=(below + 1) * players,
    )


def _suspects(tricks: Sequence[Sequence[Card]], names: Sequence[str]) -> tuple[str, ...]:
    """Whose photos to look at for a missing card: players with a wrong count, else players
    holding a doubled or a set-aside card (a misread there hides the missing one), else
    everyone."""
    players = len(tricks)
    odd = tuple(name for name, cards in zip(names, tricks, strict=True) if len(cards) % players)
    if odd:
        return odd
    counts = Counter(card for cards in tricks for card in cards)
    out = set(set_aside(players))
    misread = tuple(
        name
        for name, cards in zip(names, tricks, strict=True)
        if any(counts[card] > 1 or card in out for card in cards)
    )
    return misread or tuple(names)


def find_missing(
    tricks: Sequence[Sequence[Card]], names: Sequence[str], tr: Translator = ENGLISH
) -> list[Problem]:
    """With every player's tricks read: each heart and the Q♠ not found (one problem each, as
    they score), the other cards in play not found (one problem), and the number of cards
    read against the deck in play."""
    players = len(tricks)
    seen = {card for cards in tricks for card in cards}
    in_play = deck_in_play(players)
    suspects = _suspects(tricks, names)
    look = tr.gettext("look at the photos of {players}").format(players=and_list(suspects, tr))
    if len(suspects) == 1:
        look = tr.gettext("look at {player}'s photo").format(player=suspects[0])
    missing = [card for card in in_play if card not in seen]
    problems = [
        Problem("missing", (card,), suspects, _nobody_has((card,), look, tr))
        for card in missing
        if card_points(card) != 0
    ]
    others = tuple(card for card in missing if card_points(card) == 0)
    if others:
        problems.append(Problem("missing", others, suspects, _nobody_has(others, look, tr)))
    read = sum(len(cards) for cards in tricks)
    if read != len(in_play):
        message = tr.ngettext(
            "the tricks hold {count} card but {dealt} are dealt with {players} players: {look}",
            "the tricks hold {count} cards but {dealt} are dealt with {players} players: {look}",
            read,
        ).format(count=read, dealt=len(in_play), players=players, look=look)
        problems.append(Problem("total", (), suspects, message))
    return problems


def _nobody_has(cards: Sequence[Card], look: str, tr: Translator) -> str:
    return tr.ngettext(
        "{cards} is in nobody's tricks: {look}",
        "{cards} are in nobody's tricks: {look}",
        len(cards),
    ).format(cards=_cards_text(cards), look=look)


def check_deal(
    tricks: Sequence[Sequence[Card] | None],
    names: Sequence[str] | None = None,
    tr: Translator = ENGLISH,
) -> tuple[Problem, ...]:
    """Everything in a deal that can't be right, each naming whose photos to look at.

    `tricks[i]` is None while player i's tricks aren't read yet: the checks that need every
    player (missing cards, the total) wait until all are in. An empty sequence is a player who
    took no trick. The messages are in `tr`'s language, players nobody named too."""
    _check_players(len(tricks))
    names = _names(names, len(tricks), tr)
    problems = (
        find_doubled(tricks, names, tr)
        + find_set_aside(tricks, names, tr)
        + find_bad_counts(tricks, names, tr)
    )
    if all(cards is not None for cards in tricks):
        problems += find_missing([tuple(cards or ()) for cards in tricks], names, tr)
    return tuple(problems)
