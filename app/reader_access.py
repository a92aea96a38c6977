"""The photo reader for every game's page: its weights (`BLACKCAT_MODELS_DIR` points the app at
another folder, as `blackcat scan --models`), loaded once (`st.cache_resource`), and each photo
read once (`st.cache_data` by content hash), so editing a card only re-scores. Reads take turns
(`reader_pool`): a table of phones uploading at once leaves the server free for taps.
"""

from __future__ import annotations

import hashlib
import io
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import streamlit as st
from language import _, tr
from photo_input import ReadSummary
from PIL import Image
from reader_pool import READERS

from blackcat.i18n import N_, LocalizedError
from blackcat.vision import reader as vision_reader
from blackcat.vision.image_io import ImageReadError, open_photo
from blackcat.vision.types import Box, PhotoRead, ReadCard

log = logging.getLogger("blackcat.app")

EXAMPLE_PHOTO = Path(__file__).resolve().parent / "example.jpg"
DISPLAY_SIDE = 1280  # long side of the photo copy kept for showing the numbered boxes
DISPLAY_QUALITY = 92  # its JPEG's: drawn on and saved at 82 (`jpeg_of`), it shows no loss
NO_READER = N_(
    "The photo reader isn't available on this server yet (no trained models installed). "
    "Type or pick your cards below."
)
READER_FAILED = N_(
    "The photo reader couldn't start ({error}); photos can't be read for now. Type or pick your "
    "cards below instead."
)
READER_BROKEN = N_(
    "The photo reader couldn't start: {reason}. Photos can't be read for now: type or pick your "
    "cards below instead."
)
READS_BACK = N_(
    "{name} is back: its cards were on the table already (from the game's link: the app no "
    "longer had the photo) and have the reader's marks again."
)
UNREADABLE = N_("{name} could not be read ({error}). Try another photo, or type the cards.")
MODEL_BROKEN = N_(
    "{name} wasn't read, through no fault of the photo: {reason}. Type or pick its cards below "
    "for now."
)
NO_CARDS = N_("No cards found in {name}. {how} and try again; or type the cards.")
LOADING = N_("Loading the card reader…")

Words = Callable[[], str]
"""A note's text, written each time the note is shown: in the page's language then."""


def models_dir() -> Path:
    return Path(os.environ.get("BLACKCAT_MODELS_DIR") or vision_reader.MODELS_DIR)


def models_present(folder: Path) -> bool:
    return not vision_reader.missing_models(folder)


# no spinner of Streamlit's, whose words are fixed as the module loads: English on a Spanish
# page (opened as the server starts, it waits for the warm-up's load); `get_reader` says it
@st.cache_resource(show_spinner=False)
def load_reader(folder: str) -> vision_reader.CardReader:
    return vision_reader.CardReader.load(folder)


def get_reader() -> tuple[vision_reader.CardReader | None, str | None]:
    """The loaded reader, or None and why not (in words for the player)."""
    folder = models_dir()
    if not models_present(folder):
        return None, _(NO_READER)
    failed: Exception | None = st.session_state.get("reader_failed")
    if failed is not None:
        return None, why_not_started(failed)
    try:
        with st.spinner(_(LOADING)):  # in the page's language
            return load_reader(str(folder)), None
    except Exception as error:  # a damaged weights file must not take the page down
        log_load_failure(error)
        st.session_state.reader_failed = error
        return None, why_not_started(error)


def why_not_started(error: Exception) -> str:
    """Why the reader couldn't start, in the page's language: the reader's own words (which
    file, what to do: as `blackcat scan` says them) where it has them, else the error's kind."""
    if isinstance(error, LocalizedError):
        return _(READER_BROKEN).format(reason=error.describe(tr()))
    return _(READER_FAILED).format(error=type(error).__name__)


def log_load_failure(error: Exception) -> None:
    """The server's log: a damaged or missing file in one line (it says which), anything else
    with its traceback."""
    if isinstance(error, LocalizedError):
        log.error("the card reader couldn't start: %s", error)
    else:
        log.exception("loading the card reader failed", exc_info=error)


def reader_note() -> None:
    """Say so when photos can't be read on this server."""
    if not models_present(models_dir()) or st.session_state.get("reader_failed") is not None:
        st.info(get_reader()[1] or _(NO_READER), icon="ℹ️")


class PhotoError(LocalizedError):
    """A photo that can't be read; `describe(tr)` says why, for the player."""


def unreadable(error: ImageReadError) -> PhotoError:
    return PhotoError(lambda tr: f"{error.describe(tr)}.")


def cant_read(name: str, error: Exception) -> PhotoError:
    kind = type(error).__name__
    return PhotoError(lambda tr: tr.gettext(UNREADABLE).format(name=name, error=kind))


def model_broken(name: str, error: LocalizedError) -> PhotoError:
    """A photo not read because a model only some photos need turned out damaged when it
    needed it (`vision_reader.ModelsMissingError`): the reader's own words (which file, what to
    do), with no "try another photo": any photo that needs the model fails the same way."""
    return PhotoError(
        lambda tr: tr.gettext(MODEL_BROKEN).format(name=name, reason=error.describe(tr))
    )


def said(error: LocalizedError) -> Words:
    """The error's message in the page's language at the time it is shown."""
    return lambda: error.describe(tr())


def jpeg_of(image: np.ndarray, quality: int = 82) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(image).save(buffer, format="JPEG", quality=quality)
    return buffer.getvalue()


@dataclass(frozen=True, eq=False)
class DisplayCopy:
    """The photo's copy to draw the boxes on, kept as a JPEG: its pixels took 3.5 MB, and a
    night keeps every photo its games and Undo hold cards of (`benchmarks/bench_night.py`:
    some 300 KB now). Its pixels are decoded for a drawing made anew (some 10 ms)."""

    jpeg: bytes
    width: int
    height: int

    @classmethod
    def of(cls, pixels: np.ndarray) -> DisplayCopy:
        height, width = pixels.shape[:2]
        return cls(jpeg_of(pixels, DISPLAY_QUALITY), width, height)

    def pixels(self) -> np.ndarray:
        """The copy's RGB pixels (read-only)."""
        with Image.open(io.BytesIO(self.jpeg)) as image:
            return np.asarray(image.convert("RGB"))


@dataclass(frozen=True, eq=False)
class PhotoOutcome:
    """One photo read: its rows of cards, and a small copy of it to draw the boxes on."""

    rows: tuple[tuple[ReadCard, ...], ...]
    display: DisplayCopy
    factor: float  # display pixels per photo pixel
    gaps: tuple[tuple[int, ...], ...] = ()  # per row: where a card may be missing
    sides: tuple[str, ...] = ()  # per row: the table side whose player reads it upright
    wants_sharper_photo: bool = False  # it looks blurred and a card is flagged or may be missing
    unread_places: tuple[Box, ...] = ()  # cards too small to read there: piles may be missing
    rows_or_columns: tuple[bool, ...] = ()  # per row: of a grid that reads both ways
    in_no_row: tuple[bool, ...] = ()  # per row: its cards lie in no row (counted, not ordered)

    def summary(self) -> ReadSummary:
        return ReadSummary(
            cards=sum(len(row) for row in self.rows),
            piles=sum(1 for row in self.rows if row),
            sharper=self.wants_sharper_photo,
            unread_places=len(self.unread_places),
            grid=any(self.rows_or_columns),
            no_row=any(self.in_no_row),
        )

    def seats(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """Each table side with cards, in seat order, and its rows with cards
        (`PhotoRead.seats`)."""
        shape = PhotoRead(width=0, height=0, piles=self.rows, sides=self.sides)
        with_cards = (
            (side, tuple(n for n in rows if self.rows[n])) for side, rows in shape.seats()
        )
        return tuple((side, rows) for side, rows in with_cards if rows)


@st.cache_data(max_entries=32, show_spinner=False)
def read_photo(key: str, decks: int, folder: str, _data: bytes, _name: str) -> PhotoOutcome:
    """Read once per photo content (`key`), decks and weights; later runs and later uploads of
    the same photo reuse the result. Raises PhotoError (not cached) for a photo it can't use."""
    try:
        with READERS.turn():
            image = open_photo(_data, name=_name)
            photo = load_reader(folder).read(image, decks=decks)
            display, _ = vision_reader.downscale(image.picture(DISPLAY_SIDE), DISPLAY_SIDE)
    except ImageReadError as error:
        raise unreadable(error) from None
    except vision_reader.ModelsMissingError as error:  # a damaged file: the log needs no trace
        log.error("reading %s failed: %s", _name, error)
        raise model_broken(_name, error) from None
    except Exception as error:  # the page must stay usable whatever the reader does
        log.exception("reading %s failed", _name)
        raise cant_read(_name, error) from None
    factor = max(display.shape[:2]) / image.long_side  # the read's boxes are in full pixels
    return PhotoOutcome(
        rows=photo.piles,
        display=DisplayCopy.of(display),
        factor=factor,
        gaps=photo.gaps,
        sides=photo.sides,
        wants_sharper_photo=photo.wants_sharper_photo,
        unread_places=photo.unread_places,
        rows_or_columns=photo.rows_or_columns,
        in_no_row=photo.in_no_row,
    )


def photo_key(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:20]


def read_upload(data: bytes, name: str, decks: int, how: str) -> PhotoOutcome | tuple[str, Words]:
    """A photo read, or (kind, words) for the page when it can't be: no reader (the file is
    still checked), a file that isn't a photo, or no cards found (`how`, marked `N_`, says how
    to retake it)."""
    reader = get_reader()[0]
    if reader is None:
        try:
            with READERS.turn():
                open_photo(data, name=name).picture(DISPLAY_SIDE)
        except ImageReadError as error:
            return "error", said(unreadable(error))
        return "warning", lambda: f"{name}: {get_reader()[1] or _(NO_READER)}"
    try:
        with st.spinner(_("Reading {name}…").format(name=name)):
            outcome = read_photo(photo_key(data), decks, str(models_dir()), data, name)
    except PhotoError as error:
        return "error", said(error)
    if not any(outcome.rows):
        return "warning", lambda: _(NO_CARDS).format(name=name, how=_(how))
    return outcome


def read_example() -> tuple[str, PhotoOutcome]:
    """The example photo's key and what the reader reads in it (cached like every photo).
    Raises PhotoError, and OSError when the photo is missing."""
    data = EXAMPLE_PHOTO.read_bytes()
    key = photo_key(data)
    return key, read_photo(key, 1, str(models_dir()), data, EXAMPLE_PHOTO.name)
