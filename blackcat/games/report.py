"""Scores as JSON-ready dicts and as text for people, shared by `score`, `scan` and the app."""

from __future__ import annotations

from typing import Any

from blackcat.games.black_cat import (
    FEATURE_NAMES,
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


def _positions_text(positions: tuple[int, ...]) -> str:
    if len(positions) == 1:
        return str(positions[0])
    return f"{positions[0]}-{positions[-1]}"


def _queen_text(queen: QueenChoice, symbols: bool) -> str:
    name = queen.card.label if symbols else queen.card.code
    note = ""
    if queen.pinned:
        note = " (pinned)"
    elif queen.indifferent:
        note = " (either value scores the same)"
    return f"{name} at {queen.position} = {queen.value}{note}"


def format_pile_report(pile: PileScore, title: str, *, symbols: bool = True) -> str:
    """A pile's cards, one line per feature (positions, cards, points), Queens and points."""
    lines = [f"{title}: {_cards_text(pile.cards, symbols) or '(empty)'}"]
    if not pile.features:
        lines.append("  no features")
    name_width = max(len(name) for name in FEATURE_NAMES.values())
    for feature in pile.features:
        points = plural(feature.points, "pt")
        lines.append(
            f"  {FEATURE_NAMES[feature.kind]:<{name_width}}  "
            f"{_positions_text(feature.positions):>5}  "
            f"{_cards_text(feature.cards, symbols):<24} {points:>6}"
        )
    if pile.queens:
        queens = ", ".join(_queen_text(queen, symbols) for queen in pile.queens)
        lines.append(f"  Queens: {queens}")
    lines.append(f"  Pile points: {pile.points}")
    return "\n".join(lines)


def format_player_report(player: PlayerScore, *, symbols: bool = True) -> str:
    """Every pile's report, then the total."""
    sections = [
        format_pile_report(pile, f"Pile {index}", symbols=symbols)
        for index, pile in enumerate(player.piles)
    ]
    return "\n".join([*sections, f"Total: {player.total}"])
