"""dropped_pages: the photos shown by a page gone for good (a tab reloaded, whose old session
Streamlit drops without shutting it down) are let go of, no live page's sooner, and no download
a player just tapped."""

from __future__ import annotations

import gc
from collections.abc import Callable
from types import SimpleNamespace

import dropped_pages
import pytest
import streamlit.runtime
from streamlit.runtime import media_file_manager
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage


class Session:
    """Stands for Streamlit's AppSession: what a page's run holds while Streamlit keeps it."""


@pytest.fixture
def media() -> MediaFileManager:
    return MediaFileManager(MemoryMediaFileStorage("/media"))


@pytest.fixture
def as_page(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Streamlit's media files then act for `page` (its session id, as in a run of that page)."""

    def switch(page: str) -> None:
        monkeypatch.setattr(media_file_manager, "_get_session_id", lambda: page)

    return switch


def file_of(media: MediaFileManager, url: str) -> str | None:
    """The name of the file a browser fetching `url` gets (None: not found)."""
    stored = media.read_file(url.rsplit("/", 1)[1].split(".")[0])
    return None if stored is None else stored.filename


def photos_held(media: MediaFileManager, urls: dict[bytes, str]) -> set[bytes]:
    return {photo for photo, url in urls.items() if media.read_file(url.rsplit("/", 1)[1])}


def show(
    media: MediaFileManager, as_page: Callable[[str], None], page: str, photos: list[bytes]
) -> dict[bytes, str]:
    """A run of `page` that shows `photos`, as Streamlit draws it: the page's references cleared
    at its start, each photo added, the files no page refers to swept at its end."""
    as_page(page)
    media.clear_session_refs()
    urls = {
        photo: media.add(photo, "image/jpeg", coordinates=f"1.{n}")
        for n, photo in enumerate(photos)
    }
    media.remove_orphaned_files()
    return urls


def test_a_download_tapped_while_another_page_runs_is_there_when_the_browser_fetches_it(
    media: MediaFileManager, as_page: Callable[[str], None]
) -> None:
    """The CI failure: the night's CSV came named by a hash (its file gone). A download button's
    file is made when tapped (`execute_deferred`), belongs to no page, and survives one sweep
    only; a run of another page that drops a page gone for good must not sweep a second time."""
    show(media, as_page, "reloaded", [b"game-1"])
    as_page("night")
    media.clear_session_refs()
    tapped = media.add_deferred(lambda: "game,Ann,Ben\n", "text/csv", "1.7", "black-cat-night.csv")
    media.remove_orphaned_files()

    url = media.execute_deferred(tapped)  # the player's tap: the file made, its URL sent back
    # before the browser fetches it, a run of another page drops the page gone for good
    as_page("phone")
    media.clear_session_refs()
    media.add(b"game-2", "image/jpeg", coordinates="1.0")
    dropped_pages.let_go_of(media, ["reloaded"])
    media.remove_orphaned_files()  # the run's own sweep, at its end

    assert file_of(media, url) == "black-cat-night.csv"


def test_a_dropped_pages_photos_go_at_the_next_runs_end_and_those_another_page_shows_stay(
    media: MediaFileManager, as_page: Callable[[str], None]
) -> None:
    urls = show(media, as_page, "reloaded", [b"game-1", b"game-2"])
    urls |= show(media, as_page, "phone", [b"game-2"])
    assert photos_held(media, urls) == {b"game-1", b"game-2"}

    assert dropped_pages.let_go_of(media, ["reloaded"]) == ["reloaded"]
    assert photos_held(media, urls) == {b"game-1", b"game-2"}  # no file taken here
    show(media, as_page, "phone", [b"game-2"])  # the next run of a page sweeps
    assert photos_held(media, urls) == {b"game-2"}


def test_a_page_is_gone_for_good_once_streamlit_holds_its_session_no_more() -> None:
    reloaded, phone = Session(), Session()
    book = dropped_pages.Departures()
    book.seen("reloaded", reloaded)
    book.seen("phone", phone)
    connected = {"phone"}
    # kept for a reconnect: not connected, but its session is still held
    assert book.gone_for_good(connected.__contains__) == []
    del reloaded
    gc.collect()
    assert book.gone_for_good(connected.__contains__) == ["reloaded"]
    assert len(book) == 1  # forgotten: the phone alone is kept
    assert book.gone_for_good(connected.__contains__) == []


def test_a_page_still_connected_is_never_gone() -> None:
    book = dropped_pages.Departures()
    book.seen("phone", Session())  # held by nothing but the book
    gc.collect()
    assert book.gone_for_good(lambda page: True) == []
    assert book.gone_for_good(lambda page: False) == ["phone"]


def test_a_page_that_runs_again_is_noted_with_its_session_of_now() -> None:
    book = dropped_pages.Departures()
    book.seen("phone", Session())
    session = Session()  # the same page's session, resumed after a reconnect
    book.seen("phone", session)
    gc.collect()
    assert book.gone_for_good(lambda page: False) == []


def test_each_run_drops_the_photos_of_pages_whose_session_streamlit_let_go_of(
    monkeypatch: pytest.MonkeyPatch, media: MediaFileManager, as_page: Callable[[str], None]
) -> None:
    """`tidy` as a run of the app calls it, in a runtime of fakes around Streamlit's own media
    files: the reloaded tab's session dropped after its reconnect time, a run of the phone lets
    its photo go."""
    sessions = {"reloaded": Session(), "phone": Session()}
    runtime = SimpleNamespace(
        media_file_mgr=media,
        get_app_session=sessions.get,
        is_active_session=lambda page: page in sessions,
    )
    monkeypatch.setattr(streamlit.runtime, "exists", lambda: True)
    monkeypatch.setattr(streamlit.runtime, "get_instance", lambda: runtime)
    dropped_pages.departures.clear()

    def run(page: str, photos: list[bytes]) -> dict[bytes, str]:
        context = SimpleNamespace(session_id=page)
        monkeypatch.setattr(dropped_pages, "get_script_run_ctx", lambda: context)
        dropped_pages.tidy()
        return show(media, as_page, page, photos)

    urls = run("reloaded", [b"game-1"]) | run("phone", [b"game-2"])
    del sessions["reloaded"]  # not connected, then its reconnect time over
    gc.collect()
    run("phone", [b"game-2"])
    assert photos_held(media, urls) == {b"game-2"}
    assert len(dropped_pages.departures()) == 1
    dropped_pages.departures.clear()
