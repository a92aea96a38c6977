"""`blackcat scan`: read and score photos of kitty piles.

JSON per photo: `{"image", "piles": [{"cards", "confidence", "boxes", <the score fields of
blackcat score>, "doubtful", "alternatives", "gaps", "side"}], "total", "warnings", "players",
"blurred", "unread_places"}` ("gaps": the positions in the pile before which a card may be
missing; "side": the table side whose player reads the pile upright, `near` (the bottom of the
photo as stored), `left`, `far` or `right`; "players": `[{"side", "piles": [indexes into
"piles"], "points"}]`, one per side with piles, in seat order near, left, far, right (a warning
says where a whole table's side has other than two piles); "blurred":
whether the photo looks blurred, and a warning says so where something in it is unsure;
"unread_places": boxes `[x1, y1, x2, y2]` in the photo's pixels where card indices too small to
read, or card faces apart from every card read, show and no card was read, so whole piles may be
missing there, and a warning says so; each pile's "in_no_row": whether its cards lie in no
row, scattered at their own angles or fanned, so that they are counted, not ordered, and its
"gaps" are empty), or
`{"image", "error"}` for a photo that can't be read (the others go on; the exit status is then
1). With `--annotate`, each object also names the drawing it wrote (`"annotated"`), or says why
it could not be written (`"annotate_error"`; the exit status is then 1). The JSON
counts piles and cards from 0, as `blackcat score --json` does; the text counts them from 1, as
the app and the annotated photo do (`1.3`: the first pile's third card).

`--game black-lady` reads each photo as one player's tricks instead (`blackcat.cli.scan_lady`).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from blackcat.cli import print_json, translator_for
from blackcat.cli.lady import add_ace_hearts
from blackcat.cli.photo_output import (
    blur_note,
    drawing_error,
    drawing_place,
    grid_note,
    no_cards_note,
    photo_source,
    reads_to_json,
    say,
    start_scan,
    unread_note,
    why_unread,
)
from blackcat.cli.score import add_variant_arguments, variants_of
from blackcat.games.black_cat import (
    DuplicateCard,
    PlayerScore,
    find_duplicates,
    score_player,
)
from blackcat.games.cards import card_number
from blackcat.games.report import format_player_report, pile_score_to_json
from blackcat.i18n import ENGLISH, N_, Translator, and_list
from blackcat.tables.black_cat_table import PILES_PER_PLAYER
from blackcat.vision.image_io import ACCEPTED, computer_formats
from blackcat.vision.types import SIDES, PhotoRead, ReadCard

GAMES = ("black-cat", "black-lady")


def add_arguments(parser: argparse.ArgumentParser, tr: Translator = ENGLISH) -> None:
    parser.add_argument(
        "photos",
        nargs="+",
        metavar="PHOTO",
        help=tr.gettext("{formats} ({others} too); - reads one piped in").format(
            formats=tr.gettext(ACCEPTED), others=and_list(computer_formats(), tr)
        ),
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help=tr.gettext(
            "print JSON: an array, one object per photo (with --game black-lady, one object for "
            "the deal)"
        ),
    )
    parser.add_argument(
        "--annotate",
        type=drawing_place(tr),
        metavar="OUT",
        help=tr.gettext(
            "write the photo with numbered boxes to OUT (a folder when several photos)"
        ),
    )
    add_variant_arguments(parser, tr)
    parser.add_argument(
        "--players",
        type=int,
        choices=(1, 2, 3, 4),
        default=None,
        help=tr.gettext(
            "how many players' piles each photo shows (default: as many sides of the table as "
            "hold piles; 1: one player's piles, however the cards are turned)"
        ),
    )
    parser.add_argument(
        "--models", type=Path, default=None, help=tr.gettext("folder with the weights")
    )
    parser.add_argument(
        "--game",
        choices=GAMES,
        default=GAMES[0],
        help=tr.gettext(
            "black-cat: each row of a photo is a kitty pile; black-lady: each photo is one "
            "player's tricks, in seat order"
        ),
    )
    add_ace_hearts(parser, tr)
    parser.set_defaults(ace_hearts=None)  # 11 unless said (Black Lady); refused with Black Cat


def photo_to_json(
    image: str, photo: PhotoRead, score: PlayerScore, notes: list[str]
) -> dict[str, Any]:
    piles = []
    for number, (pile, pile_score) in enumerate(zip(photo.piles, score.piles, strict=True)):
        read = reads_to_json(pile)
        piles.append(
            {
                **{k: read[k] for k in ("cards", "confidence", "boxes")},
                **{k: v for k, v in pile_score_to_json(pile_score).items() if k != "cards"},
                **{k: read[k] for k in ("doubtful", "alternatives")},
                "gaps": list(photo.gaps_of(number)),
                "side": photo.side_of(number),
                "rows_or_columns": photo.rows_or_columns_of(number),
                "in_no_row": photo.in_no_row_of(number),
            }
        )
    return {
        "image": image,
        "piles": piles,
        "total": score.total,
        "warnings": notes,
        "players": [
            {"side": side, "piles": list(seat), "points": sum(piles[i]["points"] for i in seat)}
            for side, seat in photo.seats()
        ],
        "blurred": photo.blurred,
        "unread_places": [[round(v, 1) for v in place] for place in photo.unread_places],
    }


SIDE_NAMES = {
    "near": N_("near side (the photographer's)"),
    "left": N_("left side"),
    "far": N_("far side"),
    "right": N_("right side"),
}


def duplicates(photo: PhotoRead, decks: int = 1) -> tuple[DuplicateCard, ...]:
    """Cards that appear more often than the decks allow: almost always a misread card."""
    piles = {"": [[read.card for read in pile] for pile in photo.piles]}
    return tuple(find_duplicates(piles, decks))


def players_note(photo: PhotoRead, players: int | None, tr: Translator = ENGLISH) -> list[str]:
    """A note where the photo's piles lie on another number of table sides than the players
    said to be in it (more sides than players: their piles went to the nearest players)."""
    sides = max(len(photo.seats()), photo.sides_found)
    if players is None or not photo.piles or sides == players:
        return []
    expected = tr.ngettext("{count} player expected", "{count} players expected", players)
    found = tr.ngettext(
        "piles found on {count} side of the table",
        "piles found on {count} sides of the table",
        sides,
    )
    return [
        tr.gettext("{expected}, {found}: check whose piles they are").format(
            expected=expected.format(count=players), found=found.format(count=sides)
        )
    ]


def pile_count_note(photo: PhotoRead, tr: Translator = ENGLISH) -> list[str]:
    """A note for each side of a whole table's photo whose player has other than two piles:
    allowed (a player may lay one, or three), and said, since a pile split in two, two piles
    read as one or a pile lost look the same in the totals."""
    seats = photo.seats()
    if len(seats) < 2:
        return []  # one player's photo of one pile, or three, is theirs to take
    notes = []
    for side, piles in seats:
        if len(piles) != PILES_PER_PLAYER:
            text = tr.ngettext(
                "the {side} has {count} pile, where a player has two: check that none was split, "
                "joined or missed",
                "the {side} has {count} piles, where a player has two: check that none was "
                "split, joined or missed",
                len(piles),
            )
            notes.append(text.format(side=tr.gettext(SIDE_NAMES[side]), count=len(piles)))
    return notes


def warnings(photo: PhotoRead, decks: int = 1) -> list[str]:
    """The JSON's `"warnings"`: each duplicate as the engine words it, in English whatever the
    language (positions from 0)."""
    return [duplicate.describe(with_player=False) for duplicate in duplicates(photo, decks)]


def text_warnings(photo: PhotoRead, decks: int = 1, tr: Translator = ENGLISH) -> list[str]:
    """The same warnings for the text report, in its language, cards counted from 1
    (`card 1.2`)."""
    return [
        duplicate.describe(with_player=False, numbered=True, tr=tr)
        for duplicate in duplicates(photo, decks)
    ]


def photo_notes(
    photo: PhotoRead, args: argparse.Namespace, tr: Translator | None = None
) -> list[str]:
    """Everything said of a photo's read beside its piles: for the JSON (`tr` None: in English,
    the warnings as data) or for the text report in `tr`'s language."""
    said = tr or ENGLISH
    return [
        *(warnings(photo, args.decks) if tr is None else text_warnings(photo, args.decks, tr)),
        *players_note(photo, args.players, said),
        *pile_count_note(photo, said),
        *blur_note(photo, said),
        *unread_note(photo, said),
        *grid_note(photo, said),
        *no_cards_note(photo, said),
    ]


def _text_report(
    image: str, photo: PhotoRead, score: PlayerScore, notes: list[str], tr: Translator = ENGLISH
) -> str:
    """What a person reads: piles and cards counted from 1, as on the annotated photo."""
    cards = tr.ngettext("{count} card", "{count} cards", photo.card_count)
    piles = tr.ngettext("{count} pile", "{count} piles", len(photo.piles))
    lines = [
        tr.gettext("{image}: {cards} in {piles}").format(
            image=image,
            cards=cards.format(count=photo.card_count),
            piles=piles.format(count=len(photo.piles)),
        )
    ]
    for index, pile in enumerate(photo.piles):
        doubtful = [
            tr.gettext("{number} {card} ({confidence}; or {alternatives})").format(
                number=card_number(index, position),
                card=read.card.label,
                confidence=f"{read.confidence:.0%}",
                alternatives=", ".join(guess.card.label for guess in read.alternatives[1:]),
            )
            for position, read in enumerate(pile)
            if read.doubtful
        ]
        if doubtful:
            lines.append(
                "  "
                + tr.gettext("check pile {pile}: {cards}").format(
                    pile=index + 1, cards="; ".join(doubtful)
                )
            )
        lines.extend(
            "  "
            + tr.gettext("gap in pile {pile}: {gap}").format(
                pile=index + 1, gap=describe_gap(index, pile, position, tr)
            )
            for position in photo.gaps_of(index)
        )
        if photo.in_no_row_of(index):
            lines.append(
                "  "
                + tr.gettext(
                    "pile {pile}: its cards lie in no row, scattered or fanned: counted, not "
                    "ordered"
                ).format(pile=index + 1)
            )
    lines.append(format_player_report(score, tr=tr))
    if any(side != SIDES[0] for side, _ in photo.seats()):
        lines.extend(
            _seat_line(side, seat, sum(score.piles[n].points for n in seat), tr)
            for side, seat in photo.seats()
        )
    lines.extend("  " + tr.gettext("warning: {text}").format(text=text) for text in notes)
    return "\n".join(lines)


def _seat_line(side: str, seat: tuple[int, ...], points: int, tr: Translator) -> str:
    """`far side: piles 1, 2 (12 points)`: whose piles they are and what they score, for a
    photo not all read from its bottom."""
    numbers = ", ".join(str(n + 1) for n in seat)
    piles = tr.ngettext("pile {numbers}", "piles {numbers}", len(seat)).format(numbers=numbers)
    scored = tr.ngettext("{count} point", "{count} points", points).format(count=points)
    return "  " + tr.gettext("{side}: {piles} ({points})").format(
        side=tr.gettext(SIDE_NAMES[side]), piles=piles, points=scored
    )


def describe_gap(
    pile_index: int, pile: Sequence[ReadCard], position: int, tr: Translator = ENGLISH
) -> str:
    """Where in the pile a card may be missing, in words: `a card may be missing before card 1.5
    (7♥)`, or after the last card."""
    if position >= len(pile):
        return tr.gettext("a card may be missing after the last card ({card})").format(
            card=pile[-1].card.label
        )
    return tr.gettext("a card may be missing before card {number} ({card})").format(
        number=card_number(pile_index, position), card=pile[position].card.label
    )


def run(args: argparse.Namespace) -> int:
    if args.game == "black-lady":
        from blackcat.cli.scan_lady import run as run_black_lady

        return run_black_lady(args)

    tr = translator_for(args)
    if args.ace_hearts is not None:
        message = tr.gettext(
            "--ace-hearts is a Black Lady rule, not Black Cat's: add --game black-lady"
        )
        say(message)
        return 2

    started = start_scan(args.photos, args.annotate, args.models, tr)
    if isinstance(started, int):
        return started
    from blackcat.vision.image_io import ImageReadError, open_photo
    from blackcat.vision.reader import ModelsMissingError

    variants = variants_of(args)
    photo_paths, targets, reader = started.paths, started.targets, started.reader
    results: list[dict[str, Any]] = []
    failed = False
    for number, photo_path in enumerate(photo_paths):
        name = str(photo_path) if args.photos[number] else ""
        try:
            image = open_photo(photo_source(args.photos[number]), name=name)
            photo = reader.read(image, decks=args.decks, players=args.players)
        except (ImageReadError, ModelsMissingError) as error:
            failed = True
            unread = why_unread(name, error)
            results.append({"image": name, "error": str(unread)})
            # said on stderr with --json too: stdout may go to a file, the person still hears it
            say(unread.describe(tr))  # it names the photo
            continue
        score = score_player([[read.card for read in pile] for pile in photo.piles], None, variants)
        result = photo_to_json(name, photo, score, photo_notes(photo, args))
        drawn = False
        if targets:
            undrawn = drawing_error(image, photo, targets[number], tr)
            if undrawn is None:
                drawn = True
                result["annotated"] = str(targets[number])
            else:
                failed = True
                result["annotate_error"] = undrawn
        results.append(result)
        if not args.json:
            print(_text_report(name, photo, score, photo_notes(photo, args, tr), tr))
            if drawn:
                print("  " + tr.gettext("annotated: {path}").format(path=targets[number]))
    if args.json:
        print_json(results, escape_all=False)
    return 1 if failed else 0
