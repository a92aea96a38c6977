"""What both `blackcat scan` games write of a read photo: the reader's fields in JSON, the notes
that ask for a sharper or closer photo, and the annotated drawing of each photo."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from blackcat.i18n import ENGLISH, N_, Translator
from blackcat.vision.image_io import Photo
from blackcat.vision.types import PhotoRead, ReadCard

BLURRED = N_(
    "the photo looks blurred, so cards may be misread: hold the phone still, let it focus and "
    "take the photo again"
)


def blur_note(photo: PhotoRead, tr: Translator = ENGLISH) -> list[str]:
    """A note where the photo looks blurred and something in it is unsure (a flagged card, a
    gap): a sharper photo is the quickest fix. A blurred photo read surely needs none."""
    return [tr.gettext(BLURRED)] if photo.wants_sharper_photo else []


def unread_note(photo: PhotoRead, tr: Translator = ENGLISH) -> list[str]:
    """A note where the photo shows indices too small to read and no card was read there
    (`PhotoRead.unread_places`): whole piles may be missing, with no gap to point at them."""
    count = len(photo.unread_places)
    if not count:
        return []
    text = tr.ngettext(
        "cards may be missing: {count} place in the photo shows card indices too small to read; "
        "take the photo closer, at the camera's full resolution",
        "cards may be missing: {count} places in the photo show card indices too small to read; "
        "take the photo closer, at the camera's full resolution",
        count,
    )
    return [text.format(count=count)]


def grid_note(photo: PhotoRead, tr: Translator = ENGLISH) -> list[str]:
    """A note where piles lie in a grid of cards overlapping both ways
    (`PhotoRead.rows_or_columns`): they read as rows as well as columns, and the photo can't
    tell which the player laid."""
    grid = photo.grid_piles
    if not grid:
        return []
    numbers = ", ".join(str(n + 1) for n in grid)
    return [
        tr.gettext(
            "piles {numbers} lie in a grid of cards overlapping both ways, which reads as rows as "
            "well as columns: check that each pile holds its own cards, or lay the piles apart "
            "and take the photo again"
        ).format(numbers=numbers)
    ]


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


def photo_source(name: str) -> Path | str:
    """What `open_photo` opens for a photo named on the command line: its path, or an empty
    name as it is (as a Path it would be the current folder, "."), which it refuses."""
    return Path(name) if name else ""


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


def save_annotated(photo: Photo, read: PhotoRead, path: Path) -> None:
    """The photo, at full resolution, with each card's numbered box (`vision.drawing`)."""
    from PIL import Image

    from blackcat.vision.drawing import annotate

    Image.fromarray(annotate(photo.picture(), read)).save(path, quality=90)
