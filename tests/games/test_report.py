"""Reports: the JSON dicts that `score`, `scan` and the app share, and the text for people."""

from __future__ import annotations

import json

from blackcat.games.black_cat import score_pile, score_player
from blackcat.games.cards import parse_pile
from blackcat.games.report import (
    feature_to_json,
    format_pile_report,
    format_player_report,
    pile_score_to_json,
    player_score_to_json,
    plural,
)


def test_pile_json_fields_and_types() -> None:
    pile = score_pile(parse_pile("QS 2C 3H 7H 10D"))
    data = pile_score_to_json(pile)
    assert list(data) == ["cards", "queens", "features", "counts", "points"]
    assert data["cards"] == ["QS", "2C", "3H", "7H", "10D"]
    assert data["queens"] == {"0": 11}
    assert data["counts"] == {"tomcat": 1, "yowler": 1, "jellical": 0, "black_cat": 1}
    assert data["points"] == 10
    assert {"kind": "black_cat", "positions": [0, 1], "cards": ["QS", "2C"], "points": 6} in (
        data["features"]
    )
    assert json.loads(json.dumps(data)) == data  # plain JSON types only


def test_feature_json() -> None:
    (feature,) = score_pile(parse_pile("8D 2S")).features
    assert feature_to_json(feature) == {
        "kind": "tomcat",
        "positions": [0, 1],
        "cards": ["8D", "2S"],
        "points": 3,
    }


def test_player_json_total() -> None:
    player = score_player([parse_pile("8D 2S"), parse_pile("")])
    data = player_score_to_json(player)
    assert list(data) == ["piles", "total"]
    assert len(data["piles"]) == 2
    assert data["total"] == 3


def test_text_reports() -> None:
    pile = score_pile(parse_pile("QS 2C 3H 7H"))
    text = format_pile_report(pile, "Ann's left pile")
    assert text.splitlines()[0] == "Ann's left pile: Q♠ 2♣ 3♥ 7♥"
    assert "Q♠ at 1.1 = 11" in text  # counted from 1, as in the app
    assert text.splitlines()[-1] == "  Pile points: 9"
    plain = format_pile_report(pile, "P", symbols=False)
    assert "♠" not in plain and "QS 2C" in plain
    player = format_player_report(score_player([parse_pile("QS 2C 3H 7H"), parse_pile("")]))
    assert "Pile 1: Q♠ 2♣ 3♥ 7♥" in player and "Pile 2: (empty)" in player
    assert "no features" in player
    assert player.splitlines()[-1] == "Total: 9"


def test_plural_words() -> None:
    assert plural(1, "point") == "1 point"
    assert plural(0, "point") == "0 points"
    assert plural(2, "pile") == "2 piles"
    assert plural(3, "Jellical Cat") == "3 Jellical Cats"
    assert plural(2, "party", "parties") == "2 parties"
