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
import sys
from collections.abc import Sequence
from typing import Any

from blackcat.cli import print_json, translator_for
from blackcat.games.black_lady import (
    ACE_HEARTS_VALUES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    DealScore,
    PlayerCountError,
    Problem,
    Rules,
    check_deal,
    default_names,
    score_deal,
)
from blackcat.games.cards import Card, CardParseError, format_pile, parse_pile
from blackcat.i18n import ENGLISH, Translator
from blackcat.tables.black_lady_table import typed_words


class LadyInputError(Exception):
    """Input that can't be scored; the message is one line for the person at the keyboard."""


def add_arguments(parser: argparse.ArgumentParser, tr: Translator = ENGLISH) -> None:
    parser.add_argument(
        "players",
        nargs="+",
        metavar="PLAYER",
        help=tr.gettext(
            "one player's tricks, in seat order: the cards separated by spaces or commas, "
            'e.g. "QS 10h 4♠"; "" is a player who took no trick ({low} to {high} players)'
        ).format(low=MIN_PLAYERS, high=MAX_PLAYERS),
    )
    add_ace_hearts(parser, tr)
    parser.add_argument("--json", action="store_true", help=tr.gettext("print the result as JSON"))


def add_ace_hearts(parser: argparse.ArgumentParser, tr: Translator = ENGLISH) -> None:
    parser.add_argument(
        "--ace-hearts",
        type=int,
        choices=ACE_HEARTS_VALUES,
        default=ACE_HEARTS_VALUES[0],
        help=tr.gettext("minus points of the ace of hearts (11, or 10 as some tables play)"),
    )


def parse_tricks(texts: Sequence[str], tr: Translator = ENGLISH) -> list[tuple[Card, ...]]:
    """Each player's cards; LadyInputError names the player (from 1) and the token."""
    if not MIN_PLAYERS <= len(texts) <= MAX_PLAYERS:
        raise LadyInputError(
            tr.gettext("{error}: give one argument per player").format(
                error=PlayerCountError(len(texts)).describe(tr)
            )
        )
    tricks = []
    for seat, text in enumerate(texts, start=1):
        try:
            tricks.append(parse_pile(text))
        except CardParseError as error:
            raise LadyInputError(
                tr.gettext("player {seat}: {error}").format(seat=seat, error=error.describe(tr))
            ) from None
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


def format_deal_report(
    score: DealScore, problems: Sequence[Problem], tr: Translator = ENGLISH
) -> str:
    """A line per player (cards that score, count, points), the total and the problems (their
    messages as given: in the same language)."""
    total = tr.gettext("Total")
    width = max(len(name) for name in [*(player.name for player in score.players), total])
    lines = []
    for player in score.players:
        if player.no_tricks:
            what = tr.gettext("no trick")
        else:
            scoring = format_pile(player.scoring_cards) or tr.gettext("nothing that scores")
            what = tr.ngettext(
                "{count} card, {scoring}", "{count} cards, {scoring}", len(player.cards)
            ).format(count=len(player.cards), scoring=scoring)
        lines.append(f"{player.name:<{width}}  {player.points:>+5}  {what}")
    lines.append(f"{total:<{width}}  {score.total:>+5}")
    if problems:
        lines.append(tr.gettext("Check these (the deal still scores as it stands):"))
        lines.extend(f"  - {problem.message}" for problem in problems)
    else:
        lines.append(tr.gettext("Every check passes."))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    tr = translator_for(args)
    try:
        tricks = parse_tricks(args.players, tr)
    except LadyInputError as error:
        print(f"blackcat lady: error: {error}", file=sys.stderr)
        return 2
    rules = Rules(ace_hearts=args.ace_hearts)
    # the tricks were typed: the checks say whose cards to look at, not whose photo
    if args.json:
        problems = check_deal(tricks, tr=typed_words(ENGLISH))
        print_json(deal_to_json(score_deal(tricks, rules), problems))
    else:
        names = default_names(len(tricks), tr)
        score = score_deal(tricks, rules, names)
        print(format_deal_report(score, check_deal(tricks, names, typed_words(tr)), tr))
    return 0
