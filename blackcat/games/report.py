"""Scores as JSON-ready dicts and as text for people, shared by `score`, `scan` and the app.

The JSON keeps the engine's positions (from 0); the text counts piles and cards from 1, as the app
and the annotated photo do: `1.3` is the third card of the first pile."""

from __future__ import annotations

from typing import Any

from blackcat.games.black_cat import (
    FEATURE_NAMES,
    DuplicateCard,
    Feature,
    PileScore,
    PlayerScore,
    QueenChoice,
)
from blackcat.games.cards import Card, format_pile


def plural(count: int, word: str, many: str | None = None) -> str:
    """`1 point`, `2 points`, `0 points`; `many` where adding an s won't do."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def feature_to_json(feature: Feature) -> dict[str, Any]:
    return {
        "kind": feature.kind,
        "positions": list(feature.positions),
        "cards": [card.code for card in feature.cards],
        "points": feature.points,
    }


def pile_score_to_json(pile: PileScore) -> dict[str, Any]:
    """`{"cards", "queens", "features", "counts", "points"}`; Queen keys are positions as text."""
    return {
        "cards": [card.code for card in pile.cards],
        "queens": {str(position): value for position, value in pile.queen_values.items()},
        "features": [feature_to_json(feature) for feature in pile.features],
        "counts": dict(pile.counts),
        "points": pile.points,
    }


def player_score_to_json(player: PlayerScore) -> dict[str, Any]:
    """`{"piles": [pile, ...], "total": n}`."""
    return {
        "piles": [pile_score_to_json(pile) for pile in player.piles],
        "total": player.total,
    }


def _cards_text(cards: tuple[Card, ...], symbols: bool) -> str:
    return format_pile(cards, symbols=symbols)


def card_number(pile_index: int, position: int) -> str:
    """A card as people count it (both from 1): pile 1, card 3 is `1.3`."""
    return f"{pile_index + 1}.{position + 1}"


def _positions_text(pile_index: int, positions: tuple[int, ...]) -> str:
    first = card_number(pile_index, positions[0])
    if len(positions) == 1:
        return first
    return f"{first}-{card_number(pile_index, positions[-1])}"


def _queen_text(pile_index: int, queen: QueenChoice, symbols: bool) -> str:
    name = queen.card.label if symbols else queen.card.code
    note = ""
    if queen.pinned:
        note = " (pinned)"
    elif queen.indifferent:
        note = " (either value scores the same)"
    return f"{name} at {card_number(pile_index, queen.position)} = {queen.value}{note}"


def format_pile_report(
    pile: PileScore, title: str, *, symbols: bool = True, pile_index: int = 0
) -> str:
    """A pile's cards, one line per feature (card numbers, cards, points), Queens and points;
    cards are numbered as those of pile `pile_index + 1`."""
    lines = [f"{title}: {_cards_text(pile.cards, symbols) or '(empty)'}"]
    if not pile.features:
        lines.append("  no features")
    name_width = max(len(name) for name in FEATURE_NAMES.values())
    for feature in pile.features:
        points = plural(feature.points, "pt")
        lines.append(
            f"  {FEATURE_NAMES[feature.kind]:<{name_width}}  "
            f"{_positions_text(pile_index, feature.positions):>9}  "
            f"{_cards_text(feature.cards, symbols):<24} {points:>6}"
        )
    if pile.queens:
        queens = ", ".join(_queen_text(pile_index, queen, symbols) for queen in pile.queens)
        lines.append(f"  Queens: {queens}")
    lines.append(f"  Pile points: {pile.points}")
    return "\n".join(lines)


def format_player_report(player: PlayerScore, *, symbols: bool = True) -> str:
    """Every pile's report (`Pile 1`, `Pile 2`, ...), then the total."""
    sections = [
        format_pile_report(pile, f"Pile {index + 1}", symbols=symbols, pile_index=index)
        for index, pile in enumerate(player.piles)
    ]
    return "\n".join([*sections, f"Total: {player.total}"])


def duplicate_text(duplicate: DuplicateCard) -> str:
    """A card on the table too often, for people: `9♣ (9C) appears 2 times but one deck has only
    1: card 1.2, card 2.1`."""
    places = ", ".join(
        f"card {card_number(place.pile, place.position)}" for place in duplicate.places
    )
    decks = "one deck has" if duplicate.allowed == 1 else f"{duplicate.allowed} decks have"
    return (
        f"{duplicate.card.label} ({duplicate.card.code}) appears {len(duplicate.places)} times "
        f"but {decks} only {duplicate.allowed}: {places}"
    )
