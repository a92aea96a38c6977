"""`blackcat lady`: score one deal of Black Lady from each player's tricks given as text.

`blackcat lady [--ace-hearts {11,10}] [--json] PLAYER [PLAYER ...]`: one argument per player in
seat order, the cards of the tricks they took (as `blackcat score` reads cards); `""` is a player
who took no trick. `--json` prints `{"players": [{"cards", "points", "no_tricks"}], "total",
"problems"}`. A deal that fails a check still scores (exit 0) and lists its problems; a card that
can't be read, or a player count outside 3-9, exits 2 with one line saying so.

Kept light on purpose (no vision stack), like `blackcat score`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from blackcat.cli.score import tolerate_narrow_consoles
from blackcat.games.black_lady import (
    ACE_HEARTS_VALUES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    DealScore,
    PlayerCountError,
    Problem,
    Rules,
    check_deal,
    score_deal,
)
from blackcat.games.cards import Card, CardParseError, format_pile, parse_pile


class LadyInputError(Exception):
    """Input that can't be scored; the message is one line for the person at the keyboard."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "players",
        nargs="+",
        metavar="PLAYER",
        help="one player's tricks, in seat order: the cards separated by spaces or commas, "
        f'e.g. "QS 10h 4♠"; "" is a player who took no trick ({MIN_PLAYERS} to {MAX_PLAYERS} '
        "players)",
    )
    add_ace_hearts(parser)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def add_ace_hearts(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ace-hearts",
        type=int,
        choices=ACE_HEARTS_VALUES,
        default=ACE_HEARTS_VALUES[0],
        help="minus points of the ace of hearts (11, or 10 as some tables play)",
    )


def parse_tricks(texts: Sequence[str]) -> list[tuple[Card, ...]]:
    """Each player's cards; LadyInputError names the player (from 1) and the token."""
    if not MIN_PLAYERS <= len(texts) <= MAX_PLAYERS:
        raise LadyInputError(f"{PlayerCountError(len(texts))}: give one argument per player")
    tricks = []
    for seat, text in enumerate(texts, start=1):
        try:
            tricks.append(parse_pile(text))
        except CardParseError as error:
            raise LadyInputError(f"player {seat}: {error}") from None
    return tricks


def deal_to_json(score: DealScore, problems: Sequence[Problem]) -> dict[str, Any]:
    """`{"players": [{"cards", "points", "no_tricks"}], "total", "problems"}`."""
    return {
        "players": [
            {
                "cards": [card.code for card in player.cards],
                "points": player.points,
                "no_tricks": player.no_tricks,
            }
            for player in score.players
        ],
        "total": score.total,
        "problems": [problem.message for problem in problems],
    }


def format_deal_report(score: DealScore, problems: Sequence[Problem]) -> str:
    """A line per player (cards that score, count, points), the total and the problems."""
    width = max(len(player.name) for player in score.players)
    lines = []
    for player in score.players:
        if player.no_tricks:
            what = "no trick"
        else:
            scoring = format_pile(player.scoring_cards) or "nothing that scores"
            what = f"{len(player.cards)} cards, {scoring}"
        lines.append(f"{player.name:<{width}}  {player.points:>+5}  {what}")
    lines.append(f"{'Total':<{width}}  {score.total:>+5}")
    if problems:
        lines.append("Check these (the deal still scores as read):")
        lines.extend(f"  - {problem.message}" for problem in problems)
    else:
        lines.append("Every check passes.")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    tolerate_narrow_consoles(sys.stdout, sys.stderr)
    try:
        tricks = parse_tricks(args.players)
    except LadyInputError as error:
        print(f"blackcat lady: error: {error}", file=sys.stderr)
        return 2
    score = score_deal(tricks, Rules(ace_hearts=args.ace_hearts))
    problems = check_deal(tricks)
    if args.json:
        print(json.dumps(deal_to_json(score, problems)))
    else:
        print(format_deal_report(score, problems))
    return 0
