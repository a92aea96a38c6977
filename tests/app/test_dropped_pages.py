"""dropped_pages: the photos shown by a page that is gone for good (a tab reloaded, whose old
session Streamlit drops without shutting it down) are let go of, and no page's sooner."""

from __future__ import annotations

import dropped_pages

AFTER = 150.0


class FakeMedia:
    """Streamlit's media files as the module sees them: each page's references, and the files."""

    def __init__(self, shown: dict[str, set[str]]) -> None:
        self.shown = shown
        self.files = set().union(*shown.values())

    def clear_session_refs(self, session_id: str | None = None) -> None:
        self.shown.pop(session_id or "", None)

    def remove_orphaned_files(self) -> None:
        self.files = set().union(*self.shown.values())


def test_a_page_gone_is_dropped_once_it_has_been_seen_gone_long_enough() -> None:
    alive = {"reloaded", "phone"}
    book = dropped_pages.Departures()
    book.seen("reloaded")
    book.seen("phone")
    assert book.gone_for_good(alive.__contains__, now=0.0, after=AFTER) == []
    alive.discard("reloaded")
    assert book.gone_for_good(alive.__contains__, now=1000.0, after=AFTER) == []  # seen gone
    assert book.gone_for_good(alive.__contains__, now=1000.0 + AFTER - 1, after=AFTER) == []
    assert book.gone_for_good(alive.__contains__, now=1000.0 + AFTER, after=AFTER) == ["reloaded"]
    assert len(book) == 1  # forgotten: the phone alone is kept
    assert book.gone_for_good(alive.__contains__, now=5000.0, after=AFTER) == []


def test_a_page_back_before_its_time_is_not_dropped() -> None:
    alive = {"phone"}
    book = dropped_pages.Departures()
    book.seen("phone")
    alive.clear()  # its Wi-Fi lost a moment
    assert book.gone_for_good(alive.__contains__, now=0.0, after=AFTER) == []
    alive.add("phone")  # reconnected
    assert book.gone_for_good(alive.__contains__, now=AFTER - 1, after=AFTER) == []
    alive.clear()
    assert book.gone_for_good(alive.__contains__, now=AFTER + 1, after=AFTER) == []
    assert book.gone_for_good(alive.__contains__, now=2 * AFTER + 1, after=AFTER) == ["phone"]


def test_a_page_that_runs_again_is_seen_afresh() -> None:
    book = dropped_pages.Departures()
    book.seen("phone")
    assert book.gone_for_good(lambda page: False, now=0.0, after=AFTER) == []
    book.seen("phone")  # it ran: not gone
    assert book.gone_for_good(lambda page: False, now=AFTER, after=AFTER) == []


def test_the_photos_of_pages_dropped_go_and_those_another_page_shows_stay() -> None:
    media = FakeMedia({"reloaded": {"game-1", "game-2"}, "phone": {"game-2"}})
    assert dropped_pages.let_go_of(media, ["reloaded"])
    assert media.files == {"game-2"}
    assert not dropped_pages.let_go_of(media, [])
    assert media.files == {"game-2"}


def test_pages_must_be_gone_longer_than_streamlit_keeps_them_for_a_reconnect() -> None:
    from streamlit import config

    assert dropped_pages.gone_after() > config.get_option(dropped_pages.TTL_OPTION)


def test_streamlits_own_media_files_of_a_dropped_page_are_let_go_of(monkeypatch) -> None:
    """As Streamlit keeps them: a file another page shows stays, the dropped page's own goes."""
    from streamlit.runtime import media_file_manager
    from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage

    storage = MemoryMediaFileStorage("/media")
    media = media_file_manager.MediaFileManager(storage)
    urls = {}
    for page, photos in (("reloaded", (b"game-1", b"game-2")), ("phone", (b"game-2",))):
        monkeypatch.setattr(media_file_manager, "_get_session_id", lambda page=page: page)
        for n, photo in enumerate(photos):
            urls[photo] = media.add(photo, "image/jpeg", coordinates=f"1.{n}")

    def held() -> set[bytes]:
        return {photo for photo, url in urls.items() if media.read_file(url.rsplit("/", 1)[1])}

    assert held() == {b"game-1", b"game-2"}
    dropped_pages.let_go_of(media, ["reloaded"])
    assert held() == {b"game-2"}
