"""`blackcat scan`: read and score photos of kitty piles.

JSON per photo: `{"image", "piles": [{"cards", "confidence", "boxes", <the score fields of
blackcat score>, "doubtful", "alternatives"}], "total", "warnings"}`, or `{"image", "error"}` for
a photo that can't be read (the others go on; the exit status is then 1). With `--annotate`,
each object also names the drawing it wrote (`"annotated"`).

`--game black-lady` reads each photo as one player's tricks instead (`blackcat.cli.scan_lady`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from blackcat.cli.lady import add_ace_hearts
from blackcat.games.black_cat import PlayerScore, Variants, find_duplicates, score_player
from blackcat.games.report import format_player_report, pile_score_to_json, plural
from blackcat.vision.types import PhotoRead, ReadCard

GAMES = ("black-cat", "black-lady")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("photos", nargs="+", metavar="PHOTO", help="JPEG, PNG, WebP or HEIC")
    parser.add_argument("--json", action="store_true", help="print a JSON array, one per photo")
    parser.add_argument(
        "--annotate",
        type=Path,
        metavar="OUT",
        help="write the photo with numbered boxes to OUT (a folder when several photos)",
    )
    parser.add_argument("--decks", type=int, choices=(1, 2), default=1, help="decks in play")
    parser.add_argument("--lucky-tom", action="store_true", help="a Tomcat of two 5s is worth 5")
    parser.add_argument(
        "--music-of-the-night",
        action="store_true",
        help="each Yowler is worth the number of Yowlers in its pile",
    )
    parser.add_argument("--models", type=Path, default=None, help="folder with the weights")
    parser.add_argument(
        "--game",
        choices=GAMES,
        default=GAMES[0],
        help="black-cat: each row of a photo is a kitty pile; black-lady: each photo is one "
        "player's tricks, in seat order",
    )
    add_ace_hearts(parser)


def reads_to_json(reads: Sequence[ReadCard]) -> dict[str, Any]:
    """What the reader said about each card: `{"cards", "confidence", "boxes", "doubtful",
    "alternatives"}`."""
    return {
        "cards": [read.card.code for read in reads],
        "confidence": [round(read.confidence, 4) for read in reads],
        "boxes": [[round(v, 1) for v in read.box] for read in reads],
        "doubtful": [read.doubtful for read in reads],
        "alternatives": [
            [
                {"card": guess.card.code, "probability": round(guess.probability, 4)}
                for guess in read.alternatives
            ]
            for read in reads
        ],
    }


def photo_to_json(
    image: str, photo: PhotoRead, score: PlayerScore, notes: list[str]
) -> dict[str, Any]:
    piles = []
    for pile, pile_score in zip(photo.piles, score.piles, strict=True):
        read = reads_to_json(pile)
        piles.append(
            {
                **{k: read[k] for k in ("cards", "confidence", "boxes")},
                **{k: v for k, v in pile_score_to_json(pile_score).items() if k != "cards"},
                **{k: read[k] for k in ("doubtful", "alternatives")},
            }
        )
    return {
        "image": image,
        "piles": piles,
        "total": score.total,
        "warnings": notes,
    }


def warnings(photo: PhotoRead, decks: int = 1) -> list[str]:
    """Cards that appear more often than the decks allow: almost always a misread card."""
    piles = {"": [[read.card for read in pile] for pile in photo.piles]}
    return [duplicate.describe(with_player=False) for duplicate in find_duplicates(piles, decks)]


def annotation_names(photos: Sequence[Path]) -> list[str]:
    """A distinct file name for each photo's drawing in one folder: `ex.annotated.jpg`; with
    the photo's extension where two photos share a stem (`ex.png.annotated.jpg`,
    `ex.heic.annotated.jpg`), and a number where even the names are the same (photos of one
    name in two folders)."""
    stems = Counter(photo.stem.casefold() for photo in photos)
    names: list[str] = []
    taken: set[str] = set()
    for photo in photos:
        base = photo.stem if stems[photo.stem.casefold()] == 1 else photo.name
        name, number = f"{base}.annotated.jpg", 1
        while name.casefold() in taken:
            number += 1
            name = f"{base}-{number}.annotated.jpg"
        taken.add(name.casefold())
        names.append(name)
    return names


def annotation_paths(out: Path, photos: Sequence[Path]) -> list[Path]:
    """Where each photo's drawing goes: `out` itself for one photo, else files in folder `out`."""
    if len(photos) == 1:
        out.parent.mkdir(parents=True, exist_ok=True)
        return [out]
    out.mkdir(parents=True, exist_ok=True)
    return [out / name for name in annotation_names(photos)]


def _text_report(image: str, photo: PhotoRead, score: PlayerScore, notes: list[str]) -> str:
    lines = [f"{image}: {plural(photo.card_count, 'card')} in {plural(len(photo.piles), 'pile')}"]
    for index, pile in enumerate(photo.piles):
        doubtful = [
            f"{position} {read.card.label} ({read.confidence:.0%}; or "
            + ", ".join(guess.card.label for guess in read.alternatives[1:])
            + ")"
            for position, read in enumerate(pile)
            if read.doubtful
        ]
        if doubtful:
            lines.append(f"  check pile {index}: " + "; ".join(doubtful))
    lines.append(format_player_report(score))
    lines.extend(f"  warning: {text}" for text in notes)
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if args.game == "black-lady":
        from blackcat.cli.scan_lady import run as run_black_lady

        return run_black_lady(args)
    from PIL import Image

    from blackcat.vision.drawing import annotate
    from blackcat.vision.image_io import ImageReadError, open_photo
    from blackcat.vision.reader import MODELS_DIR, CardReader, ModelsMissingError

    variants = Variants(
        decks=args.decks, lucky_tom=args.lucky_tom, music_of_the_night=args.music_of_the_night
    )
    try:
        reader = CardReader.load(args.models or MODELS_DIR)
    except ModelsMissingError as error:
        print(f"blackcat scan: {error}", file=sys.stderr)
        return 2
    results: list[dict[str, Any]] = []
    failed = False
    photo_paths = [Path(photo) for photo in args.photos]
    targets = annotation_paths(args.annotate, photo_paths) if args.annotate else []
    for number, photo_path in enumerate(photo_paths):
        try:
            image = open_photo(photo_path)
            photo = reader.read(image, decks=args.decks)
        except ImageReadError as error:
            failed = True
            results.append({"image": str(photo_path), "error": str(error)})
            if not args.json:
                print(f"{photo_path}: {error}", file=sys.stderr)
            continue
        score = score_player([[read.card for read in pile] for pile in photo.piles], None, variants)
        notes = warnings(photo, args.decks)
        result = photo_to_json(str(photo_path), photo, score, notes)
        if targets:
            drawn = annotate(image.picture(), photo)
            Image.fromarray(drawn).save(targets[number], quality=90)
            result["annotated"] = str(targets[number])
        results.append(result)
        if not args.json:
            print(_text_report(str(photo_path), photo, score, notes))
            if targets:
                print(f"  annotated: {targets[number]}")
    if args.json:
        print(json.dumps(results, ensure_ascii=False))
    return 1 if failed else 0
