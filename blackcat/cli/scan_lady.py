"""`blackcat scan --game black-lady PHOTO [PHOTO ...]`: one photo per player, in seat order, each
the cards of the tricks that player took, spread out (an unordered set: every card read in the
photo, whatever its row). The deal is scored and checked as `blackcat lady` does it.

`--json` prints the object of `blackcat lady --json`, each player's entry extended with the
photo and what the reader said about each card: `{"players": [{"image", "cards", "points",
"no_tricks", "confidence", "boxes", "doubtful", "alternatives", "blurred", "unread_places"}],
"total", "problems"}` ("blurred": whether the photo looks blurred; the text output then asks for a
sharper photo where something in it is unsure, as `blackcat scan` does; "unread_places": boxes
where cards too small to read show and none was read, as in `blackcat scan`, and the text output
asks for a closer photo). A photo
that can't be read is `{"image", "error"}` in its seat: the others still score, the checks that
need every player wait, and the exit status is 1. Fewer than 3 or more than 9 photos exit 2.
With `--annotate`, each player's entry also names the drawing written for its photo
(`"annotated"`), or why it could not be written (`"annotate_error"`), as `blackcat scan` does.
"""

from __future__ import annotations

import argparse
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from blackcat.cli import print_json, translator_for
from blackcat.cli.lady import format_deal_report
from blackcat.cli.photo_output import (
    BLURRED,
    drawing_error,
    photo_source,
    reads_to_json,
    say,
    start_scan,
    unread_note,
    why_unread,
)
from blackcat.games.black_lady import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    DealScore,
    PlayerCountError,
    Problem,
    Rules,
    check_deal,
    default_names,
    score_player,
)
from blackcat.games.cards import Card
from blackcat.i18n import ENGLISH, LocalizedError, Translator
from blackcat.vision.image_io import ImageReadError
from blackcat.vision.types import Box, PhotoRead, ReadCard


def black_cat_options(args: argparse.Namespace) -> str | None:
    """The first Black Cat option given, which Black Lady can't use."""
    if getattr(args, "decks", 1) != 1:
        return "--decks"
    for name in ("lucky_tom", "music_of_the_night"):
        if getattr(args, name, False):
            return "--" + name.replace("_", "-")
    return None


def tricks_of(photo: PhotoRead) -> tuple[ReadCard, ...]:
    """Every card read in the photo, row after row: a player's tricks are a set, not piles."""
    return tuple(read for pile in photo.piles for read in pile)


def deal_to_json(
    images: Sequence[str],
    reads: Sequence[tuple[ReadCard, ...] | LocalizedError],
    rules: Rules,
    problems: Sequence[Problem],
    blurred: Collection[int] = (),
    unread: Mapping[int, tuple[Box, ...]] | None = None,
) -> dict[str, Any]:
    """`reads[i]` is player i's cards as read, or why the photo couldn't be read;
    `blurred`: the seats whose photos look blurred; `unread`: each seat's places too small to
    read (`PhotoRead.unread_places`)."""
    unread = unread or {}
    players: list[dict[str, Any]] = []
    for seat, (image, read) in enumerate(zip(images, reads, strict=True)):
        if isinstance(read, LocalizedError):
            players.append({"image": image, "error": str(read)})
            continue
        score = score_player([r.card for r in read], rules)
        fields = reads_to_json(read)
        players.append(
            {
                "image": image,
                "cards": fields.pop("cards"),
                "points": score.points,
                "no_tricks": score.no_tricks,
                **fields,
                "blurred": seat in blurred,
                "unread_places": [[round(v, 1) for v in box] for box in unread.get(seat, ())],
            }
        )
    return {
        "players": players,
        "total": sum(player.get("points", 0) for player in players),
        "problems": [problem.message for problem in problems],
    }


def _text_report(
    images: Sequence[str],
    reads: Sequence[tuple[ReadCard, ...] | LocalizedError],
    rules: Rules,
    problems: Sequence[Problem],
    tr: Translator = ENGLISH,
    sharper_wanted: Collection[int] = (),
    closer_wanted: Mapping[int, PhotoRead] | None = None,
) -> str:
    """`problems` are in `tr`'s language, named with `default_names(len(images), tr)`;
    `sharper_wanted`: the seats whose photos look blurred with something unsure in them
    (`PhotoRead.wants_sharper_photo`), whose lines ask for a sharper photo; `closer_wanted`:
    the reads of seats whose photos show places too small to read (`unread_note`)."""
    closer_wanted = closer_wanted or {}
    lines = []
    names = default_names(len(images), tr)
    for seat, (name, image, read) in enumerate(zip(names, images, reads, strict=True)):
        if isinstance(read, LocalizedError):
            lines.append(f"{name}: {read.describe(tr)}")  # the message names the photo
            continue
        doubtful = [
            tr.gettext("{card} ({confidence}; or {alternatives})").format(
                card=r.card.label,
                confidence=f"{r.confidence:.0%}",
                alternatives=", ".join(g.card.label for g in r.alternatives[1:]),
            )
            for r in read
            if r.doubtful
        ]
        cards = tr.ngettext("{count} card", "{count} cards", len(read)).format(count=len(read))
        if doubtful:
            check = tr.gettext("check {cards}").format(cards="; ".join(doubtful))
            cards = f"{cards}; {check}"
        if not read:
            nothing = tr.gettext(
                "no card found, so no trick taken (+50): if {name} took tricks, photograph them "
                "again, spread out"
            )
            cards = f"{cards}; {nothing.format(name=name)}"
        if seat in sharper_wanted:
            cards = f"{cards}; {tr.gettext(BLURRED)}"
        if seat in closer_wanted:
            cards = "; ".join([cards, *unread_note(closer_wanted[seat], tr)])
        lines.append(f"{name}: {image}: {cards}")
    scored = DealScore(
        tuple(
            score_player([r.card for r in read], rules, name)
            for name, read in zip(names, reads, strict=True)
            if not isinstance(read, LocalizedError)
        ),
        rules,
    )
    if scored.players:
        lines.append(format_deal_report(scored, problems, tr))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:

    from blackcat.vision.image_io import open_photo
    from blackcat.vision.reader import ModelsMissingError

    tr = translator_for(args)
    wrong = black_cat_options(args)
    if wrong:
        message = tr.gettext("{option} is a Black Cat rule, not Black Lady's").format(option=wrong)
        say(message)
        return 2
    if getattr(args, "players", None) is not None:
        message = tr.gettext(
            "--players is for a photo of a whole Black Cat table: Black Lady's players are its "
            "photos, one each"
        )
        say(message)
        return 2
    if not MIN_PLAYERS <= len(args.photos) <= MAX_PLAYERS:
        message = tr.gettext("{error}: give one photo per player").format(
            error=PlayerCountError(len(args.photos)).describe(tr)
        )
        say(message)
        return 2
    started = start_scan(args.photos, args.annotate, args.models, tr)
    if isinstance(started, int):
        return started
    targets, reader = started.targets, started.reader
    rules = Rules() if args.ace_hearts is None else Rules(ace_hearts=args.ace_hearts)
    images = [str(path) for path in args.photos]
    drawings: dict[int, str] = {}  # seat: the drawing written for its photo
    undrawn: dict[int, str] = {}  # seat: why its drawing could not be written
    blurred: set[int] = set()
    sharper_wanted: set[int] = set()
    closer_wanted: dict[int, PhotoRead] = {}  # seat: its read, with places too small to read
    reads: list[tuple[ReadCard, ...] | LocalizedError] = []
    for seat, name in enumerate(args.photos):
        try:
            image = open_photo(photo_source(name), name=images[seat])
            photo = reader.read(image)
        except (ImageReadError, ModelsMissingError) as error:
            unread = why_unread(images[seat], error)
            reads.append(unread)
            if args.json:  # the text report says it; with --json, stderr does
                say(unread.describe(tr))
            continue
        reads.append(tricks_of(photo))
        if photo.blurred:
            blurred.add(seat)
        if photo.wants_sharper_photo:
            sharper_wanted.add(seat)
        if photo.unread_places:
            closer_wanted[seat] = photo
        if targets:
            error = drawing_error(image, photo, targets[seat], tr)
            if error is None:
                drawings[seat] = str(targets[seat])
            else:
                undrawn[seat] = error
    tricks: list[tuple[Card, ...] | None] = [
        None if isinstance(read, LocalizedError) else tuple(r.card for r in read) for read in reads
    ]
    if args.json:
        unread = {seat: read.unread_places for seat, read in closer_wanted.items()}
        deal = deal_to_json(images, reads, rules, check_deal(tricks), blurred, unread)
        for seat, drawing in drawings.items():
            deal["players"][seat]["annotated"] = drawing
        for seat, error in undrawn.items():
            deal["players"][seat]["annotate_error"] = error
        print_json(deal)
    else:
        problems = check_deal(tricks, default_names(len(tricks), tr), tr)
        print(_text_report(images, reads, rules, problems, tr, sharper_wanted, closer_wanted))
        for drawing in drawings.values():
            print(tr.gettext("annotated: {path}").format(path=drawing))
    return 1 if undrawn or any(isinstance(read, LocalizedError) for read in reads) else 0
