"""`blackcat scan`: read and score photos of kitty piles.

JSON per photo: `{"image", "piles": [{"cards", "confidence", "boxes", <the score fields of
blackcat score>, "doubtful", "alternatives"}], "total", "warnings"}`, or `{"image", "error"}` for
a photo that can't be read (the others go on; the exit status is then 1).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from blackcat.report import format_player_report, pile_score_to_json
from blackcat.scoring import PlayerScore, Variants, find_duplicates, score_player
from blackcat.vision.types import PhotoRead


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


def photo_to_json(
    image: str, photo: PhotoRead, score: PlayerScore, notes: list[str]
) -> dict[str, Any]:
    piles = []
    for pile, pile_score in zip(photo.piles, score.piles, strict=True):
        piles.append(
            {
                "cards": [read.card.code for read in pile],
                "confidence": [round(read.confidence, 4) for read in pile],
                "boxes": [[round(v, 1) for v in read.box] for read in pile],
                **{k: v for k, v in pile_score_to_json(pile_score).items() if k != "cards"},
                "doubtful": [read.doubtful for read in pile],
                "alternatives": [
                    [
                        {"card": guess.card.code, "probability": round(guess.probability, 4)}
                        for guess in read.alternatives
                    ]
                    for read in pile
                ],
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


def _annotation_path(out: Path, photo_path: Path, many: bool) -> Path:
    if not many:
        out.parent.mkdir(parents=True, exist_ok=True)
        return out
    out.mkdir(parents=True, exist_ok=True)
    return out / f"{photo_path.stem}.annotated.jpg"


def _text_report(image: str, photo: PhotoRead, score: PlayerScore, notes: list[str]) -> str:
    lines = [f"{image}: {photo.card_count} cards in {len(photo.piles)} piles"]
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
    import cv2

    from blackcat.vision.drawing import annotate
    from blackcat.vision.image_io import ImageReadError, load_image
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
    for photo_path in map(Path, args.photos):
        try:
            image = load_image(photo_path)
        except ImageReadError as error:
            failed = True
            results.append({"image": str(photo_path), "error": str(error)})
            if not args.json:
                print(f"{photo_path}: {error}", file=sys.stderr)
            continue
        photo = reader.read(image, decks=args.decks)
        score = score_player([[read.card for read in pile] for pile in photo.piles], None, variants)
        notes = warnings(photo, args.decks)
        results.append(photo_to_json(str(photo_path), photo, score, notes))
        if not args.json:
            print(_text_report(str(photo_path), photo, score, notes))
        if args.annotate:
            target = _annotation_path(args.annotate, photo_path, len(args.photos) > 1)
            drawn = annotate(image, photo)
            cv2.imwrite(str(target), cv2.cvtColor(drawn, cv2.COLOR_RGB2BGR))
    if args.json:
        print(json.dumps(results, ensure_ascii=False))
    return 1 if failed else 0
