"""The photos read on this server (`PhotoStore`, shared by every session and both games), and
how a table's link names their cards."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import streamlit as st
from reader_access import DisplayCopy, PhotoOutcome, Words, read_upload

from blackcat.i18n import N_, Translator
from blackcat.vision.types import Box, ReadCard

EXAMPLE_PHOTO_NAME = N_("the example photo")  # the example's record, shown in the page's language


@dataclass(frozen=True, eq=False)
class PhotoRecord:
    """A photo on the table, as the page shows it, and what the reader read in it."""

    name: str
    display: DisplayCopy
    factor: float
    reads: tuple[ReadCard, ...]  # every card read, row by row: a link names a read by its place
    sides: tuple[str, ...] = ()  # per row: the table side whose player reads it upright
    unread_places: tuple[Box, ...] = ()  # places showing cards too small to read (full pixels)
    row_sizes: tuple[int, ...] = ()  # cards per row, of the rows `sides` names

    @classmethod
    def of(cls, name: str, outcome: PhotoOutcome) -> PhotoRecord:
        reads = tuple(read for row in outcome.rows for read in row)
        sizes = tuple(len(row) for row in outcome.rows)
        return cls(
            name,
            outcome.display,
            outcome.factor,
            reads,
            outcome.sides,
            outcome.unread_places,
            sizes,
        )

    def side_of(self, read: ReadCard) -> str:
        """The table side whose player reads upright the row `read` came from ("near" for a
        photo of one player's piles, or a card not read from this photo)."""
        start = 0
        for size, side in zip(self.row_sizes, self.sides, strict=False):
            if read in self.reads[start : start + size]:
                return side
            start += size
        return "near"

    def shown_name(self, tr: Translator, *, starting: bool = False) -> str:
        """The photo's name as the page shows it: its file's, or the example photo's in `tr`'s
        language (capitalised where it is `starting` a sentence, as a caption does)."""
        if self.name != EXAMPLE_PHOTO_NAME:
            return self.name
        name = tr.gettext(self.name)
        return name[:1].upper() + name[1:] if starting else name

    @property
    def whole_table(self) -> bool:
        """Piles on more than one side of the table: a photo of the whole table."""
        return len(set(self.sides)) > 1


class PhotoStore:
    """The photos read on this server, by key, shared by every session and both games, the
    most recent `size`: a reloaded page, or a table's link opened on another phone, finds its
    photos' boxes and the reader's guesses here."""

    def __init__(self, size: int = 32) -> None:
        self._records: OrderedDict[str, PhotoRecord] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def put(self, key: str, record: PhotoRecord) -> None:
        with self._lock:
            self._records[key] = record
            self._records.move_to_end(key)
            while len(self._records) > self._size:
                self._records.popitem(last=False)

    def get(self, key: str) -> PhotoRecord | None:
        with self._lock:
            return self._records.get(key)


@st.cache_resource(show_spinner=False)
def photo_store() -> PhotoStore:
    return PhotoStore()


def keep(photos: dict[str, PhotoRecord], key: str, record: PhotoRecord) -> None:
    """A photo read, on its page (`photos`, the session's) and on the server (for a reload or a
    link opened on another phone)."""
    photos[key] = record
    photo_store().put(key, record)


def read_record(data: bytes, name: str, decks: int, how: str) -> PhotoRecord | tuple[str, Words]:
    """A photo read as the page keeps it, or (kind, words) for the page when it can't be
    (`reader_access.read_upload`)."""
    outcome = read_upload(data, name, decks, how)
    return PhotoRecord.of(name, outcome) if isinstance(outcome, PhotoOutcome) else outcome


def read_at(photo: str, place: int) -> ReadCard | None:
    """The read at `place` of a photo the server still has (for a link's cards)."""
    record = photo_store().get(photo)
    return record.reads[place] if record is not None and place < len(record.reads) else None


def read_index_in(photos: dict[str, PhotoRecord]) -> Callable[[str, ReadCard], int | None]:
    """How a link names a read card: its place among its photo's reads (`photos` first, then
    the server's store)."""

    def read_index(photo: str, read: ReadCard) -> int | None:
        record = photos.get(photo) or photo_store().get(photo)
        if record is None:
            return None
        return next(
            (i for i, known in enumerate(record.reads) if known is read or known == read), None
        )

    return read_index


def bring(photos: dict[str, PhotoRecord], keys: Iterable[str]) -> None:
    """The records of these photos a page lacks (`photos`, the session's), from the server: a
    shared game's photos that another phone read."""
    photos.update(photos_on_server([key for key in keys if key not in photos]))


def photos_on_server(keys: Sequence[str]) -> dict[str, PhotoRecord]:
    """The records of these photos that the server still has."""
    found = {key: photo_store().get(key) for key in keys}
    return {key: record for key, record in found.items() if record is not None}
