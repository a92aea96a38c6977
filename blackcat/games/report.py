"""Scores as JSON-ready dicts and as text for people, shared by `score`, `scan` and the app.

The JSON is the same in every language and keeps the engine's positions (from 0); the text is in
the language of the `tr` given and counts piles and cards from 1, as the app and the annotated
photo do: `1.3` is the third card of the first pile.
"""

from __future__ import annotations

from typing import Any

from blackcat.games.black_cat import (
    FEATURE_KINDS,
    Feature,
    PileScore,
    PlayerScore,
    QueenChoice,
    feature_name,
)
from blackcat.games.cards import Card, card_number, format_pile
from blackcat.i18n import ENGLISH, Translator


def plural(count: int, word: str, many: str | None = None) -> str:
    """`1 point`, `2 points`, `0 points`; `many` where adding an s won't do. English only:
    translated text says its counts with `tr.ngettext`."""
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


def _positions_text(pile_index: int, positions: tuple[int, ...]) -> str:
    first = card_number(pile_index, positions[0])
    if len(positions) == 1:
        return first
    return f"{first}-{card_number(pile_index, positions[-1])}"


def _queen_text(pile_index: int, queen: QueenChoice, symbols: bool, tr: Translator) -> str:
    text = tr.gettext("{card} at {number} = {value}").format(
        card=queen.card.label if symbols else queen.card.code,
        number=card_number(pile_index, queen.position),
        value=queen.value,
    )
    if queen.pinned:
        note = tr.gettext("pinned")
    elif queen.indifferent:
        note = tr.gettext("either value scores the same")
    else:
        return text
    return f"{text} ({note})"


def _points_text(points: int, tr: Translator) -> str:
    return tr.ngettext("{count} pt", "{count} pts", points).format(count=points)


def format_pile_report(
    pile: PileScore,
    title: str,
    *,
    symbols: bool = True,
    pile_index: int = 0,
    tr: Translator = ENGLISH,
) -> str:
    """A pile's cards, one line per feature (card numbers, cards, points), Queens and points;
    cards are numbered as those of pile `pile_index + 1`."""
    cards = _cards_text(pile.cards, symbols) or tr.gettext("(empty)")
    lines = [f"{title}: {cards}"]
    if not pile.features:
        lines.append("  " + tr.gettext("no features"))
    name_width = max(len(feature_name(kind, tr)) for kind in FEATURE_KINDS)
    points = [_points_text(feature.points, tr) for feature in pile.features]
    # as wide as two-digit points (`12 pts`), so that every pile's column lines up
    points_width = max(map(len, [_points_text(10, tr), *points]))
    for feature, feature_points in zip(pile.features, points, strict=True):
        lines.append(
            f"  {feature_name(feature.kind, tr):<{name_width}}  "
            f"{_positions_text(pile_index, feature.positions):>9}  "
            f"{_cards_text(feature.cards, symbols):<24} {feature_points:>{points_width}}"
        )
    if pile.queens:
        queens = ", ".join(_queen_text(pile_index, queen, symbols, tr) for queen in pile.queens)
        lines.append("  " + tr.gettext("Queens: {queens}").format(queens=queens))
    lines.append("  " + tr.gettext("Pile points: {points}").format(points=pile.points))
    return "\n".join(lines)


def format_player_report(
    player: PlayerScore, *, symbols: bool = True, tr: Translator = ENGLISH
) -> str:
    """Every pile's report (`Pile 1`, `Pile 2`, ...), then the total."""
    sections = [
        format_pile_report(
            pile,
            tr.gettext("Pile {number}").format(number=index + 1),
            symbols=symbols,
            pile_index=index,
            tr=tr,
        )
        for index, pile in enumerate(player.piles)
    ]
    return "\n".join([*sections, tr.gettext("Total: {total}").format(total=player.total)])
