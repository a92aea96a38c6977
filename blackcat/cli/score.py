"""`blackcat score`: score one player's piles given as text.

Kept light on purpose (no vision stack): it must start in a blink.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass

from blackcat.cli import print_json, translator_for
from blackcat.games.black_cat import (
    PinError,
    Variants,
    find_duplicates,
    queen_values_text,
    score_player,
    validate_pins,
)
from blackcat.games.cards import Card, CardParseError, parse_pile
from blackcat.games.report import format_player_report, player_score_to_json
from blackcat.i18n import ENGLISH, N_, Translator

_PIN_PATTERN = re.compile(r"^(\d+):(\d+)=(\d+)$")
_PIN_SEPARATORS = re.compile(r"[\s,;]+")


class ScoreInputError(Exception):
    """Input that can't be scored; the message is one line for the person at the keyboard, in
    their language."""


@dataclass(frozen=True)
class QueenPin:
    text: str  # as typed, for messages
    pile: int
    position: int
    value: int


def add_variant_arguments(parser: argparse.ArgumentParser, tr: Translator = ENGLISH) -> None:
    """The table's variants, as `score` and `scan` take them (read back by `variants_of`)."""
    parser.add_argument(
        "--decks",
        type=int,
        choices=(1, 2),
        default=1,
        help=tr.gettext("decks in play: with 2 (Long Night on the Fence) a card may appear twice"),
    )
    parser.add_argument(
        "--lucky-tom", action="store_true", help=tr.gettext("a Tomcat of two 5s is worth 5 points")
    )
    parser.add_argument(
        "--music-of-the-night",
        action="store_true",
        help=tr.gettext("each Yowler is worth the number of Yowlers in its pile"),
    )


def variants_of(args: argparse.Namespace) -> Variants:
    return Variants(
        decks=args.decks, lucky_tom=args.lucky_tom, music_of_the_night=args.music_of_the_night
    )


def add_arguments(parser: argparse.ArgumentParser, tr: Translator = ENGLISH) -> None:
    parser.add_argument(
        "piles",
        nargs="+",
        metavar="PILE",
        help=tr.gettext(
            'one pile, cards left to right separated by spaces or commas, e.g. "QS 10h 4♠"; '
            '"" is an empty pile. All piles belong to one player.'
        ),
    )
    add_variant_arguments(parser, tr)
    parser.add_argument(
        "--queen",
        action="append",
        default=[],
        metavar="P:I=V",
        help=tr.gettext(
            "pin the Queen at position I of pile P (both from 0) to V ({values}); "
            "repeat it, or give several separated by commas: --queen 0:4=11,1:0=7"
        ).format(values=queen_values_text(tr)),
    )
    parser.add_argument("--json", action="store_true", help=tr.gettext("print the result as JSON"))


def pin_format(tr: Translator = ENGLISH) -> str:
    """How `--queen` is written, for the messages that refuse one."""
    return tr.gettext(
        "PILE:POSITION=VALUE, e.g. 0:4=11 (pile and position counted from 0, value {values})"
    ).format(values=queen_values_text(tr))


def parse_queen_pins(texts: list[str], tr: Translator = ENGLISH) -> list[QueenPin]:
    """Read `--queen` values; each may hold several pins separated by commas or spaces."""
    pins: list[QueenPin] = []
    for text in texts:
        specs = [spec for spec in _PIN_SEPARATORS.split(text.strip()) if spec]
        if not specs:
            raise ScoreInputError(
                tr.gettext("empty --queen: expected {format}").format(format=pin_format(tr))
            )
        for spec in specs:
            match = _PIN_PATTERN.match(spec)
            if match is None:
                raise ScoreInputError(
                    tr.gettext("bad --queen {pin}: expected {format}").format(
                        pin=repr(spec), format=pin_format(tr)
                    )
                )
            pile, position, value = (int(group) for group in match.groups())
            pins.append(QueenPin(spec, pile, position, value))
    return pins


def parse_piles(texts: list[str], tr: Translator = ENGLISH) -> list[tuple[Card, ...]]:
    piles = []
    for index, text in enumerate(texts):
        try:
            piles.append(parse_pile(text))
        except CardParseError as error:
            raise ScoreInputError(  # piles counted from 1, as people count them
                tr.gettext("pile {pile}: {error}").format(pile=index + 1, error=error.describe(tr))
            ) from None
    return piles


def pins_by_pile(
    pins: list[QueenPin], piles: list[tuple[Card, ...]], tr: Translator = ENGLISH
) -> dict[int, dict[int, int]]:
    """Check each pin against the piles and group them as pile -> position -> value."""
    grouped: dict[int, dict[int, int]] = {}
    first_seen: dict[tuple[int, int], QueenPin] = {}
    for pin in pins:
        if pin.pile >= len(piles):
            span = tr.gettext("piles are 0-{last}").format(last=len(piles) - 1)
            if len(piles) == 1:
                span = tr.gettext("the only pile is 0")
            raise ScoreInputError(
                tr.gettext(
                    "--queen {pin}: there is no pile {pile} ({span}); expected {format}"
                ).format(pin=pin.text, pile=pin.pile, span=span, format=pin_format(tr))
            )
        try:
            validate_pins(piles[pin.pile], {pin.position: pin.value})
        except PinError as error:
            raise ScoreInputError(
                tr.gettext("--queen {pin}: pile {pile}: {error}").format(
                    pin=pin.text, pile=pin.pile, error=error.describe(tr)
                )
            ) from None
        earlier = first_seen.setdefault((pin.pile, pin.position), pin)
        if earlier.value != pin.value:
            raise ScoreInputError(
                tr.gettext("--queen {pin} contradicts --queen {earlier}").format(
                    pin=pin.text, earlier=earlier.text
                )
            )
        grouped.setdefault(pin.pile, {})[pin.position] = pin.value
    return grouped


DUPLICATES_LISTED = 3  # in the one line of the error; the others are counted


def check_duplicates(piles: list[tuple[Card, ...]], decks: int, tr: Translator = ENGLISH) -> None:
    duplicates = find_duplicates({"": piles}, decks)
    if duplicates:
        described = "; ".join(
            duplicate.describe(with_player=False, numbered=True, tr=tr)
            for duplicate in duplicates[:DUPLICATES_LISTED]
        )
        more = len(duplicates) - DUPLICATES_LISTED
        if more > 0:
            others = tr.ngettext("and {count} card more", "and {count} cards more", more)
            described = f"{described}; {others.format(count=more)}"
        if decks == 1:
            hint = tr.gettext("misread card? with two decks use --decks 2")
            described = f"{described} ({hint})"
        raise ScoreInputError(described)


UNQUOTED_NOTE = N_(
    "note: each argument is a pile, and each of these holds one card; to give a pile several "
    'cards, put them in quotes: "QS 6C QH"'
)


def looks_unquoted(piles: list[tuple[Card, ...]]) -> bool:
    """Whether the piles look like one pile typed without quotes (`blackcat score QS 6C QH`):
    three or more piles of one card each, where a player builds two."""
    return len(piles) >= 3 and all(len(pile) == 1 for pile in piles)


def run(args: argparse.Namespace) -> int:
    tr = translator_for(args)
    try:
        piles = parse_piles(args.piles, tr)
        check_duplicates(piles, args.decks, tr)
        pins = pins_by_pile(parse_queen_pins(args.queen, tr), piles, tr)
    except ScoreInputError as error:
        print(f"blackcat score: error: {error}", file=sys.stderr)
        return 2
    if looks_unquoted(piles):
        print(f"blackcat score: {tr.gettext(UNQUOTED_NOTE)}", file=sys.stderr)
    variants = variants_of(args)
    player = score_player(piles, pins, variants)
    if args.json:
        print_json(player_score_to_json(player))
    else:
        print(format_player_report(player, tr=tr))  # suits as letters where not shown
    return 0
