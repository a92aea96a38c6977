"""The photos a page showed (`st.image`: Streamlit's media files), let go of once the page is gone
for good.

Streamlit keeps a media file while a session refers to it, and drops a session's references when
the session shuts down. But Streamlit 1.67 keeps the session of a tab reloaded or put away for a
reconnect (`server.disconnectedSessionTTL`, 2 minutes) and then drops it as it is, never shut
down: its references stayed, and the annotated photos it showed stayed in memory all night. So
each run of a page looks at the pages seen before: one gone (not connected) for longer than a
reconnect may take has its references dropped, and the files no page refers to are let go of.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol

import streamlit as st
from streamlit import config
from streamlit.runtime.scriptrunner import get_script_run_ctx

TTL_OPTION = "server.disconnectedSessionTTL"
MARGIN_SECONDS = 30.0  # past the reconnect time: a page resumed at its last moment runs first


class MediaFiles(Protocol):
    """What this module uses of Streamlit's MediaFileManager."""

    def clear_session_refs(self, session_id: str | None = None) -> None: ...

    def remove_orphaned_files(self) -> None: ...


class Departures:
    """The pages seen running, and since when each has been seen gone (not connected)."""

    def __init__(self) -> None:
        self._gone_since: dict[str, float | None] = {}
        self._lock = threading.Lock()

    def seen(self, page: str) -> None:
        with self._lock:
            self._gone_since[page] = None

    def gone_for_good(self, alive: Callable[[str], bool], now: float, after: float) -> list[str]:
        """The pages seen gone `after` seconds ago or more, and still gone (forgotten from now
        on). Time is counted from when a page was first seen gone, never from its last run: a
        page that ran long ago may have left a moment ago."""
        with self._lock:
            for page, since in list(self._gone_since.items()):
                if alive(page):
                    self._gone_since[page] = None
                elif since is None:
                    self._gone_since[page] = now
            gone = [
                page
                for page, since in self._gone_since.items()
                if since is not None and now - since >= after
            ]
            for page in gone:
                del self._gone_since[page]
            return gone

    def __len__(self) -> int:
        return len(self._gone_since)


def let_go_of(media: MediaFiles, pages: Iterable[str]) -> bool:
    """The pages' references to media files dropped, and the files no page refers to any more
    let go of; whether there was a page to drop."""
    pages = list(pages)
    for page in pages:
        media.clear_session_refs(page)
    if pages:
        media.remove_orphaned_files()
    return bool(pages)


@st.cache_resource(show_spinner=False)
def departures() -> Departures:
    return Departures()


def _alive(page: str) -> bool:
    runtime = st.runtime.get_instance() if st.runtime.exists() else None
    return runtime is not None and runtime.is_active_session(page)


def gone_after() -> float:
    """Seconds a page must have been gone before its files are let go of."""
    ttl: Any = config.get_option(TTL_OPTION)
    return float(ttl if isinstance(ttl, int | float) else 120) + MARGIN_SECONDS


def tidy() -> None:
    """At each run of a page: this page noted, and the media files of pages gone for good let go
    of (nothing outside a served page)."""
    context = get_script_run_ctx()
    if context is None or not st.runtime.exists():
        return
    book = departures()
    book.seen(context.session_id)
    gone = book.gone_for_good(_alive, time.monotonic(), gone_after())
    let_go_of(st.runtime.get_instance().media_file_mgr, gone)
