"""reader_pool: photos read a few at once, each page getting its own photo's read. Threads stand
for the pages; a stand-in reader waits until the test lets it go. No timings: a read that must
wait is checked by it not having started while the test waits a moment."""

from __future__ import annotations

import contextlib
import io
import logging
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
import reader_access
import reader_pool
import streamlit as st
from fakes import FAKE_ROWS, FakeReader
from PIL import Image
from reader_pool import ReaderPool, reads_at_once

from blackcat.vision.image_io import Photo
from blackcat.vision.types import PhotoRead

WAIT = 10  # seconds: only ever waited in full when the test fails
MOMENT = 0.2  # how long a read that must wait is given to (wrongly) start


def png(width: int) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(np.full((120, width, 3), 200, dtype=np.uint8)).save(buffer, "PNG")
    return buffer.getvalue()


class GatedReader:
    """Starts reading at once, finishes when let go; counts the reads under way."""

    def __init__(self) -> None:
        self.started = threading.Semaphore(0)
        self.go = threading.Event()
        self._lock = threading.Lock()
        self.reading = 0
        self.most_at_once = 0

    def read(self, image: Photo, *, decks: int = 1) -> PhotoRead:
        with self._lock:
            self.reading += 1
            self.most_at_once = max(self.most_at_once, self.reading)
        self.started.release()
        self.go.wait(WAIT)
        with self._lock:
            self.reading -= 1
        width, height = image.size
        return PhotoRead(width=width, height=height, piles=FAKE_ROWS.get(width, ()))


@pytest.fixture(autouse=True)
def no_cached_reads() -> Iterator[None]:
    st.cache_data.clear()
    yield
    st.cache_data.clear()


def use(monkeypatch: pytest.MonkeyPatch, reader: object, reads: int) -> None:
    monkeypatch.setattr(reader_access, "load_reader", lambda folder: reader)
    monkeypatch.setattr(reader_access, "READERS", ReaderPool(reads))


def read(data: bytes) -> reader_access.PhotoOutcome:
    return reader_access.read_photo(reader_access.photo_key(data), 1, "models", data, "piles.png")


def done_by_another_page(work: Callable[[], object]) -> bool:
    """Whether `work` finishes in another thread (one that never finishes is left behind)."""
    done = threading.Event()

    def page() -> None:
        work()
        done.set()

    threading.Thread(target=page, daemon=True).start()
    return done.wait(WAIT)


def take_turn(pool: ReaderPool) -> None:
    with pool.turn():
        pass


def test_reads_at_once_is_half_the_cores_unless_set(caplog: pytest.LogCaptureFixture) -> None:
    assert [reads_at_once(None, cores) for cores in (None, 1, 2, 3, 8)] == [1, 1, 1, 1, 4]
    assert reads_at_once("3", 2) == 3
    with caplog.at_level(logging.WARNING, logger="blackcat.app"):
        assert reads_at_once("0", 8) == 4
        assert reads_at_once("many", 8) == 4
    assert caplog.text.count(reader_pool.READS_SETTING) == 2


def test_a_turn_is_given_back_when_the_read_fails() -> None:
    pool = ReaderPool(1)
    with contextlib.suppress(RuntimeError), pool.turn():
        raise RuntimeError("a damaged photo")
    assert done_by_another_page(lambda: take_turn(pool))


def test_no_more_photos_are_read_at_once_than_the_pool_allows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reader = GatedReader()
    use(monkeypatch, reader, reads=2)
    widths = [200, 160, 150, 180, 170]
    with ThreadPoolExecutor(len(widths)) as pages:
        outcomes = [pages.submit(read, png(width)) for width in widths]
        assert reader.started.acquire(timeout=WAIT) and reader.started.acquire(timeout=WAIT)
        assert not reader.started.acquire(timeout=MOMENT)  # the third waits for a turn
        reader.go.set()
        rows = [outcome.result(WAIT).rows for outcome in outcomes]
    assert reader.most_at_once == 2
    assert rows == [FAKE_ROWS.get(width, ()) for width in widths]


def test_a_photo_read_before_is_shown_without_waiting_for_a_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reader = FakeReader()
    use(monkeypatch, reader, reads=1)
    read(png(200))
    with reader_access.READERS.turn():  # another page reading: the only turn taken
        assert done_by_another_page(lambda: read(png(200)))
    assert reader.reads == 1


def test_pages_reading_photos_at_once_each_get_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    use(monkeypatch, FakeReader(), reads=2)
    widths = [200, 160, 180, 200, 160, 180, 200, 160]
    with ThreadPoolExecutor(len(widths)) as pages:
        rows = list(pages.map(lambda width: read(png(width)).rows, widths))
    assert rows == [FAKE_ROWS[width] for width in widths]
