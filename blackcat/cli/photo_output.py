"""What both `blackcat scan` games write of a read photo: the reader's fields in JSON, the notes
that ask for a sharper or closer photo, and the annotated drawing of each photo."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from blackcat.i18n import ENGLISH, N_, LocalizedError, TemplateError, Translator
from blackcat.vision.image_io import HOW_TO_PHOTOGRAPH, MAX_FILE_BYTES, ImageReadError, Photo
from blackcat.vision.types import PhotoRead, ReadCard

if TYPE_CHECKING:
    from blackcat.vision.reader import CardReader, ModelsMissingError

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


def no_cards_note(photo: PhotoRead, tr: Translator = ENGLISH) -> list[str]:
    """A note where no card was read at all: how to take a photo that reads."""
    if photo.card_count:
        return []
    how = tr.gettext(HOW_TO_PHOTOGRAPH)
    return [tr.gettext("no cards found. {how} and try again").format(how=how)]


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


STDIN_NAME = "-"
NOTHING_PIPED = N_(
    "- reads the photo from standard input, but nothing is piped in: name a photo file, or pipe "
    "one in (blackcat scan - < photo.jpg)"
)

STDIN_TWICE = N_(
    "- (the photo piped in) can be named only once: standard input holds one photo; name the "
    "others' files"
)


def stdin_named_twice(names: Sequence[str]) -> bool:
    """Whether `-` (the photo on standard input) is named more than once: the second would
    find it already read, empty."""
    return names.count(STDIN_NAME) > 1


def photo_source(name: str, stdin: BinaryIO | None = None) -> Path | str | bytes:
    """What `open_photo` opens for a photo named on the command line: its path; an empty name
    as it is (as a Path it would be the current folder, "."), which it refuses; for `-`, the
    bytes piped in on `stdin` (the process's own by default), read once and at most a byte more
    than a photo may have (`open_photo` says it is too large); nothing piped in is said so."""
    if name != STDIN_NAME:
        return Path(name) if name else ""
    if stdin is None and sys.stdin is not None:  # None: started with standard input closed
        stdin = sys.stdin.buffer
    if stdin is None or stdin.isatty():
        raise ImageReadError(NOTHING_PIPED)
    data = stdin.read(MAX_FILE_BYTES + 1)
    if not data:  # an empty pipe, or /dev/null
        raise ImageReadError(NOTHING_PIPED)
    return data


PHOTO_NOT_READ = N_("{name} was not read: {reason}")


def why_unread(name: str, error: ImageReadError | ModelsMissingError) -> LocalizedError:
    """Why a photo wasn't read, naming it: an ImageReadError names it itself; a model that
    only some photos need, found damaged when this one needed it (ModelsMissingError, raised
    mid-read), is told in the reader's words (which file, what to do), after the photo's name."""
    if isinstance(error, ImageReadError):
        return error
    return LocalizedError(
        lambda tr: tr.gettext(PHOTO_NOT_READ).format(name=name, reason=error.describe(tr))
    )


def say(message: str) -> None:
    """One line on stderr, named as `blackcat scan`'s as each of its messages is."""
    print(f"blackcat scan: {message}", file=sys.stderr)


@dataclass(frozen=True)
class ScanStart:
    """What both games' `scan` read photos with: the photos' paths as named, where each one's
    drawing goes (none without --annotate), and the reader."""

    paths: list[Path]
    targets: list[Path]
    reader: CardReader


def start_scan(
    photos: Sequence[str], annotate: Path | None, models: Path | None, tr: Translator
) -> ScanStart | int:
    """The photos named on the command line, their drawings' paths and the reader loaded; or,
    said on stderr, why not (the photo piped in named twice, a drawing that can't be written,
    weights missing), as the exit status 2."""
    from blackcat.vision.reader import MODELS_DIR, CardReader, ModelsMissingError

    if stdin_named_twice(photos):
        say(tr.gettext(STDIN_TWICE))
        return 2
    paths = [Path(photo) for photo in photos]
    try:
        targets = annotation_paths(annotate, paths) if annotate else []
        reader = CardReader.load(models or MODELS_DIR)
    except (AnnotateError, ModelsMissingError) as error:
        say(error.describe(tr))
        return 2
    return ScanStart(paths, targets, reader)


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


class AnnotateError(TemplateError):
    """`--annotate` names a place the drawings can't go: why, and what to name instead."""


NOT_A_PICTURE_NAME = N_(
    "--annotate {path}: name the drawing as a picture, such as {example}, or name a folder that "
    "exists to write it into"
)
A_FILE_FOR_SEVERAL = N_(
    "--annotate {path} is a file: with several photos it names a folder for their drawings"
)
A_PICTURE_FOR_SEVERAL = N_(
    "--annotate {path} names a picture: with several photos give a folder for their drawings, "
    "such as {folder}"
)
ONE_OF_THE_PHOTOS = N_(
    "--annotate {path} is one of the photos: name another file, so that the photo is kept"
)
CANNOT_WRITE = N_("--annotate {path}: the drawing can't be written there ({reason})")
NO_DRAWING_NAME = N_(
    "an empty name: name the drawing as a picture, such as annotated.jpg, or name a folder to "
    "write it into"
)


def drawing_place(tr: Translator = ENGLISH) -> Callable[[str], Path]:
    """An argparse type: where `--annotate` writes, refused when empty (`Path("")` is the
    current folder: an empty variable in a script would write the drawings there unasked)."""

    def parse(text: str) -> Path:
        if not text:
            raise argparse.ArgumentTypeError(tr.gettext(NO_DRAWING_NAME))
        return Path(text)

    return parse


def annotation_paths(out: Path, photos: Sequence[Path]) -> list[Path]:
    """Where each photo's drawing goes: `out` itself for one photo (a picture's name), else,
    and for one photo where `out` is a folder, files in folder `out` (made where missing, unless
    named as a picture). AnnotateError where a drawing can't go there or would replace one of
    the photos."""
    if len(photos) == 1 and not out.is_dir():
        if not writes_a_picture(out):
            raise AnnotateError(NOT_A_PICTURE_NAME, path=out, example=out.with_suffix(".jpg"))
        targets, folder = [out], out.parent
    else:
        if out.exists() and not out.is_dir():
            raise AnnotateError(A_FILE_FOR_SEVERAL, path=out)
        if not out.exists() and writes_a_picture(out):  # a folder `f.jpg` is surely a slip
            raise AnnotateError(A_PICTURE_FOR_SEVERAL, path=out, folder=out.with_suffix(""))
        targets, folder = [out / name for name in annotation_names(photos)], out
    photo_files = {photo.resolve() for photo in photos if photo.is_file()}
    if any(target.resolve() in photo_files for target in targets):
        raise AnnotateError(ONE_OF_THE_PHOTOS, path=out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise AnnotateError(CANNOT_WRITE, path=out, reason=error.strerror or error) from None
    return targets


def writes_a_picture(path: Path) -> bool:
    """Whether Pillow writes a picture by this file name's extension."""
    from PIL import Image

    kind = Image.registered_extensions().get(path.suffix.lower())
    return kind is not None and kind in Image.SAVE


def save_annotated(photo: Photo, read: PhotoRead, path: Path) -> None:
    """The photo with each card's numbered box (`vision.drawing`), as the picture `path`'s
    extension names: at full resolution up to MAX_PIXELS, a larger JPEG at the half, quarter
    (...) that fits (decoded whole, a 200 MP one took 2.7 GB). AnnotateError where it can't be
    written."""
    from PIL import Image

    from blackcat.vision.drawing import annotate, scaled_read
    from blackcat.vision.image_io import MAX_PIXELS

    width, height = photo.size
    reduction = 1
    while width * height > MAX_PIXELS * reduction**2:
        reduction *= 2
    picture = photo.picture(photo.long_side // reduction)
    factor = max(picture.shape[:2]) / photo.long_side
    drawn = read if factor == 1 else scaled_read(read, factor)
    try:
        Image.fromarray(annotate(picture, drawn)).save(path, quality=90)
    except OSError as error:
        raise AnnotateError(CANNOT_WRITE, path=path, reason=error.strerror or error) from None


def drawing_error(
    photo: Photo, read: PhotoRead, path: Path, tr: Translator = ENGLISH
) -> str | None:
    """`save_annotated`; None where the drawing was written, else why not, in English for the
    JSON (`"annotate_error"`), said on stderr in `tr`'s language (the read itself still
    counts)."""
    try:
        save_annotated(photo, read, path)
    except AnnotateError as error:
        say(error.describe(tr))
        return str(error)
    return None
