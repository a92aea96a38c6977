"""The photos a page showed (`st.image`: Streamlit's media files), let go of once the page is gone
for good.

Streamlit keeps a media file while a session refers to it, and drops a session's references when
the session shuts down. But Streamlit 1.67 keeps the session of a tab reloaded or put away for a
reconnect (`server.disconnectedSessionTTL`) and then drops it as it is, never shut down: its
references stayed, and the annotated photos it showed stayed in memory all night.

So each run of a page notes its session, weakly, and drops the references of the pages whose
session Streamlit no longer holds at all: neither connected nor kept for a reconnect, it can
never come back. (A page merely seen disconnected long enough is no proof: a tab can reconnect
between two looks without running, then drop again.)

Only references are dropped here, never files: Streamlit's own sweep at the end of each run
(`remove_orphaned_files`) lets go of them. A sweep of our own would take a player's download:
the file a download button makes when tapped (`execute_deferred`) belongs to no session and
survives a single sweep only, and two sweeps (ours, then the run's own) could come between the
file being made and the browser fetching it.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Iterable
from typing import Protocol

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx


class MediaRefs(Protocol):
    """What this module uses of Streamlit's MediaFileManager: nothing that deletes a file."""

    def clear_session_refs(self, session_id: str | None = None) -> None: ...


class Departures:
    """The pages seen running, each with a weak reference to its Streamlit session."""

    def __init__(self) -> None:
        self._sessions: dict[str, weakref.ref[object]] = {}
        self._lock = threading.Lock()

    def seen(self, page: str, session: object) -> None:
        with self._lock:
            self._sessions[page] = weakref.ref(session)

    def gone_for_good(self, alive: Callable[[str], bool]) -> list[str]:
        """The pages whose session nothing holds any more and that are not connected (forgotten
        from now on)."""
        with self._lock:
            gone = [
                page
                for page, session in self._sessions.items()
                if session() is None and not alive(page)
            ]
            for page in gone:
                del self._sessions[page]
            return gone

    def __len__(self) -> int:
        return len(self._sessions)


def let_go_of(media: MediaRefs, pages: Iterable[str]) -> list[str]:
    """The pages' references to media files dropped (the files go at the next run's end)."""
    pages = list(pages)
    for page in pages:
        media.clear_session_refs(page)
    return pages


@st.cache_resource(show_spinner=False)
def departures() -> Departures:
    return Departures()


def tidy() -> None:
    """At each run of a page: this page noted, and the references of pages gone for good
    dropped (nothing outside a served page)."""
    context = get_script_run_ctx()
    if context is None or not st.runtime.exists():
        return
    runtime = st.runtime.get_instance()
    book = departures()
    session = runtime.get_app_session(context.session_id)
    if session is not None:
        book.seen(context.session_id, session)
    let_go_of(runtime.media_file_mgr, book.gone_for_good(runtime.is_active_session))
