"""The Black Cat scoring engine: features of a kitty pile, Queen values, and totals.

Everything here is a pure function of cards (and variant switches) returning frozen dataclasses;
it knows nothing of photos. The rules are in `RULES.md`; positions are 0-based, left to right.

How Queen values are chosen: no feature can involve two Queens, because two Queens are worth at
least 7 + 7 = 14, more than a Tomcat's 10 or a Black Cat's 13 (all other values are >= 0), and
Yowlers and Jellical Cats don't depend on values at all. So a pile's score is a constant plus one
independent term per Queen, and each Queen can be chosen on its own: it is worth 11 only when 11
scores strictly more than 7, otherwise 7. The result is a best assignment, and among the best
ones it has a 7 wherever any best assignment has a 7 (so "7 where the score doesn't care").
Each Queen's term only involves its neighbours and its run of black cards, so the choice costs
a small local computation per Queen, not 2**queens scorings of the pile.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Literal

from blackcat.games.cards import QUEEN_VALUES, Card, Rank, card_number
from blackcat.games.standings import Standings, leaders
from blackcat.i18n import ENGLISH, N_, LocalizedError, Translator

FeatureKind = Literal["tomcat", "yowler", "jellical", "black_cat"]
FEATURE_KINDS: tuple[FeatureKind, ...] = ("tomcat", "yowler", "jellical", "black_cat")
FEATURE_NAMES: dict[FeatureKind, str] = {
    "tomcat": N_("Tomcat"),
    "yowler": N_("Yowler"),
    "jellical": N_("Jellical Cat"),
    "black_cat": N_("Black Cat"),
}
"""Each feature's name in English; `feature_name` says it in another language."""

TOMCAT_SUM = 10
TOMCAT_POINTS = 3
LUCKY_TOM_POINTS = 5
YOWLER_POINTS = 1
JELLICAL_POINTS = 2
BLACK_CAT_SUM = 13
BLACK_CAT_POINTS = 6
DEFAULT_QUEEN_VALUE = min(QUEEN_VALUES)

# Choosing each Queen on its own (module docstring) is only right while this holds.
if 2 * min(QUEEN_VALUES) <= max(TOMCAT_SUM, BLACK_CAT_SUM):
    raise RuntimeError("two Queens could share a feature: choose_queens must search jointly")

PilePins = Mapping[int, int]
"""Pinned Queens of one pile: position -> value (7 or 11)."""


# ---------------------------------------------------------------------------------------------
# Values


@dataclass(frozen=True)
class Variants:
    """The optional rules, each off by default."""

    decks: int = 1  # "Long Night on the Fence": 2 decks, so a card may appear twice
    lucky_tom: bool = False  # a Tomcat of two 5s is worth 5 points instead of 3
    music_of_the_night: bool = False  # each Yowler is worth the number of Yowlers in its pile

    def __post_init__(self) -> None:
        if self.decks not in (1, 2):
            raise ValueError(f"decks must be 1 or 2, got {self.decks!r}")


DEFAULT_VARIANTS = Variants()


@dataclass(frozen=True)
class Feature:
    """One scoring feature of a pile: which cards make it and what it is worth."""

    kind: FeatureKind
    positions: tuple[int, ...]
    cards: tuple[Card, ...]
    points: int


@dataclass(frozen=True)
class QueenChoice:
    """The value used for one Queen of a pile."""

    position: int
    card: Card
    value: int
    pinned: bool  # the player fixed this value
    indifferent: bool  # 7 and 11 give the pile the same points


@dataclass(frozen=True)
class PileScore:
    """A scored pile: its cards, the Queen values used, and every feature found."""

    cards: tuple[Card, ...]
    queens: tuple[QueenChoice, ...]
    features: tuple[Feature, ...]

    @property
    def queen_values(self) -> dict[int, int]:
        """Position -> value of every Queen of the pile."""
        return {queen.position: queen.value for queen in self.queens}

    @property
    def counts(self) -> dict[FeatureKind, int]:
        """Number of features of each kind, every kind present (0 when none)."""
        found = Counter(feature.kind for feature in self.features)
        return {kind: found[kind] for kind in FEATURE_KINDS}

    @property
    def points(self) -> int:
        return sum(feature.points for feature in self.features)


@dataclass(frozen=True)
class PlayerScore:
    """A player's piles and their total."""

    name: str
    piles: tuple[PileScore, ...]

    @property
    def total(self) -> int:
        return sum(pile.points for pile in self.piles)


@dataclass(frozen=True)
class TableScore(Standings):
    """Every player's score and who won."""

    players: tuple[PlayerScore, ...]

    @property
    def totals(self) -> dict[str, int]:
        return {player.name: player.total for player in self.players}

    @property
    def winners(self) -> tuple[str, ...]:
        """Every player with the highest total: one name, several on a tie, none without players."""
        return leaders(
            [player.name for player in self.players], [player.total for player in self.players]
        )


@dataclass(frozen=True)
class CardPlace:
    """Where a card lies on the table."""

    player: str
    pile: int
    position: int

    def describe(
        self, *, with_player: bool = True, numbered: bool = False, tr: Translator = ENGLISH
    ) -> str:
        """`pile 0 position 1`, counted from 0 as the engine and the JSON count; `numbered`: as
        people number the card, from 1 (`card 1.2`)."""
        if numbered:
            where = tr.gettext("card {number}").format(number=card_number(self.pile, self.position))
        else:
            where = tr.gettext("pile {pile} position {position}").format(
                pile=self.pile, position=self.position
            )
        if not with_player:
            return where
        return tr.gettext("player {player} {where}").format(player=repr(self.player), where=where)


@dataclass(frozen=True)
class DuplicateCard:
    """A card that appears on the table more often than the decks in play allow."""

    card: Card
    places: tuple[CardPlace, ...]
    allowed: int

    def describe(
        self, *, with_player: bool = True, numbered: bool = False, tr: Translator = ENGLISH
    ) -> str:
        """`card 9♣ (9C) appears 2 times but one deck has only 1: pile 0 position 1, pile 1
        position 0` (positions from 0, as the JSON's warnings say them); `numbered`, for the text
        people read, cards counted from 1: `9♣ (9C) appears 2 times ...: card 1.2, card 2.1`."""
        places = ", ".join(
            place.describe(with_player=with_player, numbered=numbered, tr=tr)
            for place in self.places
        )
        count = len(self.places)
        if numbered:
            times = tr.ngettext(
                "{card} appears {count} time", "{card} appears {count} times", count
            )
        else:
            times = tr.ngettext(
                "card {card} appears {count} time", "card {card} appears {count} times", count
            )
        times = times.format(card=f"{self.card.label} ({self.card.code})", count=count)
        decks = tr.ngettext(
            "but one deck has only {count}", "but {count} decks have only {count}", self.allowed
        ).format(count=self.allowed)
        return f"{times} {decks}: {places}"


class DuplicateCardError(ValueError):
    """The table holds a card more often than the decks in play allow (usually a misread)."""

    def __init__(self, duplicates: Sequence[DuplicateCard]) -> None:
        self.duplicates = tuple(duplicates)
        super().__init__("; ".join(duplicate.describe() for duplicate in self.duplicates))


class PinError(LocalizedError, ValueError):
    """A Queen pin that can't apply: not a Queen, out of range, or a value other than 7/11."""


def feature_name(kind: FeatureKind, tr: Translator = ENGLISH) -> str:
    """A feature's name for people: `Tomcat`; in Spanish the rules' own, `Gato Tom`."""
    return tr.gettext(FEATURE_NAMES[kind])


def queen_values_text(tr: Translator = ENGLISH) -> str:
    """What a Queen may be worth, for people: `7 or 11`."""
    first, second = QUEEN_VALUES
    return tr.gettext("{first} or {second}").format(first=first, second=second)


# ---------------------------------------------------------------------------------------------
# Features for fixed Queen values


def card_values(cards: Sequence[Card], queen_values: PilePins) -> tuple[int, ...]:
    """Each card's value, Queens taking their value from `queen_values` (7 where absent)."""
    return tuple(
        card.value(queen_values.get(position, DEFAULT_QUEEN_VALUE))
        for position, card in enumerate(cards)
    )


def tomcat_points(first: Card, second: Card, variants: Variants = DEFAULT_VARIANTS) -> int:
    """Points of a Tomcat made of these two cards (Lucky Tom: two 5s are worth more)."""
    lucky = variants.lucky_tom and first.rank is Rank.FIVE and second.rank is Rank.FIVE
    return LUCKY_TOM_POINTS if lucky else TOMCAT_POINTS


def find_tomcats(
    cards: Sequence[Card], values: Sequence[int], variants: Variants = DEFAULT_VARIANTS
) -> tuple[Feature, ...]:
    """Every pair of adjacent cards whose values add to exactly 10."""
    return tuple(
        Feature(
            "tomcat",
            (left, left + 1),
            (cards[left], cards[left + 1]),
            tomcat_points(cards[left], cards[left + 1], variants),
        )
        for left in range(len(cards) - 1)
        if values[left] + values[left + 1] == TOMCAT_SUM
    )


def find_yowlers(
    cards: Sequence[Card], variants: Variants = DEFAULT_VARIANTS
) -> tuple[Feature, ...]:
    """Every 10; with Music of the Night each is worth the number of Yowlers in the pile."""
    positions = [position for position, card in enumerate(cards) if card.rank is Rank.TEN]
    points = len(positions) if variants.music_of_the_night else YOWLER_POINTS
    return tuple(
        Feature("yowler", (position,), (cards[position],), points) for position in positions
    )


def face_runs(cards: Sequence[Card]) -> tuple[range, ...]:
    """Maximal runs of adjacent face cards of one rank, as ranges of positions."""
    runs: list[range] = []
    start = 0
    while start < len(cards):
        end = start + 1
        if cards[start].is_face:
            while end < len(cards) and cards[end].rank is cards[start].rank:
                end += 1
            runs.append(range(start, end))
        start = end
    return tuple(runs)


def find_jellicals(cards: Sequence[Card]) -> tuple[Feature, ...]:
    """Every face card of a same-rank face run whose two neighbours exist and share a rank."""
    features: list[Feature] = []
    for run in face_runs(cards):
        before, after = run.start - 1, run.stop
        if before >= 0 and after < len(cards) and cards[before].rank is cards[after].rank:
            features.extend(
                Feature("jellical", (position,), (cards[position],), JELLICAL_POINTS)
                for position in run
            )
    return tuple(features)


def find_black_cats(cards: Sequence[Card], values: Sequence[int]) -> tuple[Feature, ...]:
    """Every stretch of two or more adjacent black cards whose values add to exactly 13.

    Values are never negative, so a stretch stops growing once past 13; zero-valued J and K
    can still extend a stretch that has reached 13, and each extension is another Black Cat.
    """
    features: list[Feature] = []
    for start in range(len(cards)):
        if not cards[start].is_black:
            continue
        total = values[start]
        for end in range(start + 1, len(cards)):
            if not cards[end].is_black:
                break
            total += values[end]
            if total > BLACK_CAT_SUM:
                break
            if total == BLACK_CAT_SUM:
                positions = tuple(range(start, end + 1))
                cards_in = tuple(cards[start : end + 1])
                features.append(Feature("black_cat", positions, cards_in, BLACK_CAT_POINTS))
    return tuple(features)


def find_features(
    cards: Sequence[Card],
    queen_values: PilePins | None = None,
    variants: Variants = DEFAULT_VARIANTS,
) -> tuple[Feature, ...]:
    """All features of a pile for the given Queen values (7 for a Queen not given), by kind."""
    cards = tuple(cards)
    values = card_values(cards, queen_values or {})
    return (
        find_tomcats(cards, values, variants)
        + find_yowlers(cards, variants)
        + find_jellicals(cards)
        + find_black_cats(cards, values)
    )


# ---------------------------------------------------------------------------------------------
# Queen values


def validate_pins(cards: Sequence[Card], pins: PilePins) -> None:
    """Raise PinError unless every pin is a Queen's position in the pile and a value 7 or 11."""
    for position, value in pins.items():
        if not isinstance(position, int) or not 0 <= position < len(cards):
            raise PinError(partial(_outside_pile, position=position, cards=len(cards)))
        card = cards[position]
        if not card.is_queen:
            raise PinError(partial(_not_a_queen, position=position, card=card))
        if not isinstance(value, int) or isinstance(value, bool) or value not in QUEEN_VALUES:
            raise PinError(partial(_not_a_queen_value, position=position, card=card, value=value))


def _not_a_queen(tr: Translator, *, position: int, card: Card) -> str:
    return tr.gettext(
        "position {position} is {card}, not a Queen: only Queens can be pinned"
    ).format(position=position, card=f"{card.label} ({card.code})")


def _not_a_queen_value(tr: Translator, *, position: int, card: Card, value: object) -> str:
    return tr.gettext(
        "Queen {card} at position {position} pinned to {value}: a Queen is worth {values}"
    ).format(card=card.label, position=position, value=repr(value), values=queen_values_text(tr))


def _outside_pile(tr: Translator, *, position: object, cards: int) -> str:
    span = tr.gettext("no positions")
    if cards == 1:
        span = tr.gettext("position 0")
    elif cards:
        span = tr.gettext("positions 0-{last}").format(last=cards - 1)
    count = tr.ngettext("{count} card", "{count} cards", cards).format(count=cards)
    return tr.gettext("Queen pin position {position} is outside the pile ({count}, {span})").format(
        position=repr(position), count=count, span=span
    )


def _black_cats_through(cards: Sequence[Card], values: Sequence[int], position: int) -> int:
    """How many Black Cats include `position`.

    A stretch through `position` is some black cards to its left, the card, and some to its
    right: count each left sum once, then look up the sum each right end needs.
    """
    needed = BLACK_CAT_SUM - values[position]
    if not cards[position].is_black or needed < 0:
        return 0
    left_sums = Counter({0: 1})  # a stretch may start at `position` itself
    total = 0
    for left in range(position - 1, -1, -1):
        total += values[left]
        if not cards[left].is_black or total > needed:
            break
        left_sums[total] += 1
    # Stretches ending at `position`: all but the card alone (a Black Cat has 2+ cards).
    count = left_sums[needed] - (needed == 0)
    total = 0
    for right in range(position + 1, len(cards)):
        total += values[right]
        if not cards[right].is_black or total > needed:
            break
        count += left_sums[needed - total]
    return count


def _queen_points(
    cards: Sequence[Card], values: Sequence[int], position: int, variants: Variants
) -> int:
    """Points of the Tomcats and Black Cats that include the Queen at `position`.

    Other Queens may hold any value: no feature can include two Queens.
    """
    points = BLACK_CAT_POINTS * _black_cats_through(cards, values, position)
    for left in (position - 1, position):
        if left >= 0 and left + 1 < len(cards) and values[left] + values[left + 1] == TOMCAT_SUM:
            points += tomcat_points(cards[left], cards[left + 1], variants)
    return points


def choose_queens(
    cards: Sequence[Card], pins: PilePins | None = None, variants: Variants = DEFAULT_VARIANTS
) -> tuple[QueenChoice, ...]:
    """The value of every Queen that maximises the pile's points, pinned Queens kept as pinned.

    A Queen is 11 only when 11 scores strictly more than 7 (see the module docstring for why
    choosing each Queen on its own gives a best assignment).
    """
    cards = tuple(cards)
    pins = pins or {}
    validate_pins(cards, pins)
    values = list(card_values(cards, {}))
    choices: list[QueenChoice] = []
    for position, card in enumerate(cards):
        if not card.is_queen:
            continue
        points: dict[int, int] = {}
        for value in QUEEN_VALUES:
            values[position] = value
            points[value] = _queen_points(cards, values, position, variants)
        values[position] = DEFAULT_QUEEN_VALUE
        best = max(points.values())
        preferred = next(value for value in QUEEN_VALUES if points[value] == best)
        choices.append(
            QueenChoice(
                position=position,
                card=card,
                value=pins.get(position, preferred),
                pinned=position in pins,
                indifferent=len(set(points.values())) == 1,
            )
        )
    return tuple(choices)


# ---------------------------------------------------------------------------------------------
# Scores


def score_pile(
    cards: Sequence[Card],
    pins: PilePins | None = None,
    variants: Variants = DEFAULT_VARIANTS,
) -> PileScore:
    """Score one pile: best Queen values (respecting pins) and every feature they give."""
    cards = tuple(cards)
    queens = choose_queens(cards, pins, variants)
    values = {queen.position: queen.value for queen in queens}
    return PileScore(cards=cards, queens=queens, features=find_features(cards, values, variants))


def score_player(
    piles: Sequence[Sequence[Card]],
    pins: Mapping[int, PilePins] | None = None,
    variants: Variants = DEFAULT_VARIANTS,
    name: str = "",
) -> PlayerScore:
    """Score a player's piles; `pins` maps pile index -> that pile's pins."""
    pins = pins or {}
    for pile_index in pins:
        if not isinstance(pile_index, int) or not 0 <= pile_index < len(piles):
            raise PinError(partial(_no_such_pile, pile_index=pile_index, piles=len(piles)))
    return PlayerScore(
        name=name,
        piles=tuple(
            score_pile(pile, pins.get(index), variants) for index, pile in enumerate(piles)
        ),
    )


def score_table(
    table: Mapping[str, Sequence[Sequence[Card]]],
    pins: Mapping[str, Mapping[int, PilePins]] | None = None,
    variants: Variants = DEFAULT_VARIANTS,
) -> TableScore:
    """Score every player (name -> piles), after checking no card appears too often.

    Raises DuplicateCardError when a card appears more often than `variants.decks` allows,
    and PinError for a pin that can't apply.
    """
    check_decks(table, variants.decks)
    pins = pins or {}
    unknown = [name for name in pins if name not in table]
    if unknown:
        raise PinError(
            lambda tr: tr.gettext("Queen pins for unknown player {player}").format(
                player=repr(unknown[0])
            )
        )
    return TableScore(
        players=tuple(
            score_player(piles, pins.get(name), variants, name=name)
            for name, piles in table.items()
        )
    )


def _no_such_pile(tr: Translator, *, pile_index: object, piles: int) -> str:
    span = tr.gettext("piles 0-{last}").format(last=piles - 1) if piles else tr.gettext("no piles")
    if piles == 1:
        span = tr.gettext("pile 0")
    return tr.gettext("Queen pin for pile {pile}, which doesn't exist ({span})").format(
        pile=repr(pile_index), span=span
    )


# ---------------------------------------------------------------------------------------------
# Cards that appear too often


def find_duplicates(
    table: Mapping[str, Sequence[Sequence[Card]]], decks: int = 1
) -> list[DuplicateCard]:
    """Every card that appears more than `decks` times on the table, with all its places.

    Cards are listed in the order they are first seen (player, pile, position).
    """
    places: dict[Card, list[CardPlace]] = {}
    for player, piles in table.items():
        for pile_index, pile in enumerate(piles):
            for position, card in enumerate(pile):
                places.setdefault(card, []).append(CardPlace(player, pile_index, position))
    return [
        DuplicateCard(card, tuple(where), allowed=decks)
        for card, where in places.items()
        if len(where) > decks
    ]


def check_decks(table: Mapping[str, Sequence[Sequence[Card]]], decks: int = 1) -> None:
    """Raise DuplicateCardError if any card appears more than `decks` times on the table."""
    duplicates = find_duplicates(table, decks)
    if duplicates:
        raise DuplicateCardError(duplicates)
