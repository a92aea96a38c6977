"""This browser tab's own id: what a shared game keeps this page's Undo under on this server
(`live_table`), so that a reload finds it again (a phone's browser reloads a tab it put away
when the player comes back to it).

The id is kept in the tab's sessionStorage, never in the page's address: a reload keeps it, while
a link or QR code of the game (another phone, another tab) has none and gets an id of its own. A
tab the browser duplicates copies its sessionStorage, id and all: one page holds an id at a time
(`Claims`), and a page whose id another page still connected holds gets a fresh one. A phone's
page whose connection dropped unseen stays connected to the server until Streamlit's ping goes
unanswered (about a minute): a reload within it gets a fresh id too, and takes its tab's back
once that page is gone (`taken_back`). Nothing leaves this computer: the id is only a key of
this server's own store.
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

HELD = "this-tab"  # Session State: the id this page holds
WANTED = "this-tab-wanted"  # Session State: (its tab's id another page held, since when)
# how long a page looks to take its tab's id back: Streamlit's websocket ping (30 s) and the
# wait for its answer (30 s), after which a page whose connection dropped unseen is closed
TAKE_BACK_SECONDS = 90.0
COMPONENT_KEY = "this-tab-storage"
TAB_PATTERN = re.compile(r"[A-Za-z0-9_-]{12,64}")

# `tab`: the id the page holds, written to the tab's storage; none yet: the id stored there is
# said (wanted: in a shared game) until the page holds one, so a page the server made anew (a
# restart) hears it too. Storage a browser refuses (some private modes) says none.
TAB_JS = """
export default function (component) {
  const KEY = "blackcat-tab";
  const { tab, wanted } = component.data;
  let stored = "";
  try { stored = sessionStorage.getItem(KEY) || ""; } catch (refused) {}
  if (tab) {
    if (stored !== tab) try { sessionStorage.setItem(KEY, tab); } catch (refused) {}
    return;
  }
  if (wanted) component.setTriggerValue("stored", stored);
}
"""
_tab_storage = st.components.v2.component("blackcat.this_tab", js=TAB_JS)


class Claims:
    """Which page (a browser's session) holds each tab id: the last `size` ids claimed. A page
    may claim an id no page holds, or one whose page is gone (`alive(page)` False: the tab was
    reloaded, its old page closed)."""

    def __init__(self, alive: Callable[[str], bool], size: int = 1024) -> None:
        self._holders: OrderedDict[str, str] = OrderedDict()
        self._alive = alive
        self._size = size
        self._lock = threading.Lock()

    def claim(self, tab: str, page: str) -> bool:
        """Whether `page` holds `tab` now (it did, or the id was free to take)."""
        with self._lock:
            holder = self._holders.get(tab)
            if holder not in (None, page) and self._alive(holder):
                return False
            self._holders[tab] = page
            self._holders.move_to_end(tab)
            while len(self._holders) > self._size:
                self._holders.popitem(last=False)
            return True


def _alive(page: str) -> bool:
    runtime = st.runtime.get_instance() if st.runtime.exists() else None
    return runtime is not None and runtime.is_active_session(page)


@st.cache_resource(show_spinner=False)
def claims() -> Claims:
    return Claims(_alive)


def _page() -> str:
    context = get_script_run_ctx()
    return context.session_id if context is not None else ""


def fresh_id() -> str:
    return secrets.token_urlsafe(16)


def held() -> str | None:
    """The id this page holds (None before its tab said which it has)."""
    return st.session_state.get(HELD)


def chosen(stored: str, page: str, holders: Claims) -> str:
    """The id `page` holds from now on: `stored` (its tab's), or a fresh one where that is none
    (a tab's first shared game), not one of ours, or another page still holds it."""
    if TAB_PATTERN.fullmatch(stored) and holders.claim(stored, page):
        return stored
    fresh = fresh_id()
    holders.claim(fresh, page)
    return fresh


def _hold(stored: str) -> None:
    tab = chosen(stored, _page(), claims())
    st.session_state[HELD] = tab
    if tab != stored and TAB_PATTERN.fullmatch(stored) and WANTED not in st.session_state:
        st.session_state[WANTED] = (stored, time.monotonic())


def still_wanted(
    wanted: tuple[str, float] | None, page: str, holders: Claims, now: float
) -> tuple[str | None, bool]:
    """(the tab's id `page` takes now: its page is gone, or None; whether to look again later):
    within TAKE_BACK_SECONDS of `page`'s fresh id, while the page holding it is connected."""
    if wanted is None:
        return None, False
    tab, since = wanted
    if now - since > TAKE_BACK_SECONDS:
        return None, False
    if holders.claim(tab, page):
        return tab, False
    return None, True


def taken_back() -> bool:
    """Whether this page, given a fresh id while another page held its tab's (a reload within
    a minute of its connection dropping unseen: that page was still connected), took its tab's
    id back just now, that page gone: the Undo history its tab kept is this page's again. Its
    tab's storage gets the id at the page's next run (`keep`). A duplicated tab's page whose
    first page closes within TAKE_BACK_SECONDS takes that one's id as a reload would."""
    state = st.session_state
    tab, again = still_wanted(state.get(WANTED), _page(), claims(), time.monotonic())
    if not again:
        state.pop(WANTED, None)
    if tab is None:
        return False
    state[HELD] = tab
    return True


def _said() -> None:
    stored = (st.session_state.get(COMPONENT_KEY) or {}).get("stored")
    if stored is not None and held() is None:
        _hold(str(stored))


def keep(wanted: bool) -> None:
    """Once a page, where the tab's id is `wanted` (a shared game): the tab says its id, and the
    page holds it from then on; a page whose id another page took while it was away (a duplicate
    of its tab) gets a fresh one."""
    tab = held()
    if tab is not None:
        _hold(tab)
    _tab_storage(
        key=COMPONENT_KEY,
        data={"tab": held() or "", "wanted": "1" if wanted else ""},
        on_stored_change=_said,
    )
