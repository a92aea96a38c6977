"""A shared game: every phone that opened the same shared link (its address holds `?live=`, the
game's room on this server) shows the same game, and a change made on one shows on the others
within a few seconds, as long as this computer runs the app.

The server keeps, per room, each game's latest state (Black Cat's night, Black Lady's game: frozen
values, shared as they are) under the Session State key the page keeps it in, with a version
that grows at each change. A page remembers the version it last saw; its changes are posted as
the next version, and a page that finds a newer one takes it (`game_state.Undoable`). What each
phone looks at (whose piles, which seat, its Undo) stays its own.

Beside each game the server keeps each page's Undo history, by its tab's id (`this_tab`: not in
the address, which other phones share), for a reload: a phone's browser reloads a tab it put
away, and Undo then takes back that phone's last change as before.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import language
import streamlit as st
import this_tab

LIVE_PARAM = "live"  # the room in the page's address
POLL_SECONDS = 2.0  # how often a page in a room looks for another phone's change
SEEN_PREFIX = "live-seen:"  # + the game's key: the version this page last had
OWN_PREFIX = "live-own:"  # + the game's key: the room whose kept history this page looked for
HISTORIES_KEPT = 128  # the pages' Undo histories kept, in all rooms: the latest written
ROOM_PATTERN = re.compile(r"[A-Za-z0-9_-]{6,32}")


@dataclass(frozen=True)
class Posted:
    """A game as a page left it: the room's `version`-th change of it."""

    version: int
    game: Any


class Rooms:
    """The rooms' latest games by (room, game key), the last `size` rooms' games kept (a room's
    game is a few kilobytes; older rooms are let go, and their pages carry on each on its own),
    and beside each game its pages' Undo histories by tab id (the last `histories` written: a
    page writes its own at each run, so the pages still open keep theirs), let go of with the
    game."""

    def __init__(self, size: int = 256, histories: int = HISTORIES_KEPT) -> None:
        self._posted: OrderedDict[tuple[str, str], Posted] = OrderedDict()
        self._histories: OrderedDict[tuple[str, str, str], list[Any]] = OrderedDict()
        self._size = size
        self._histories_kept = histories
        self._lock = threading.Lock()

    def latest(self, room: str, key: str) -> Posted | None:
        with self._lock:
            return self._posted.get((room, key))

    def post(self, room: str, key: str, game: Any, seen: int) -> Posted | None:
        """`game` as the room's next version, if its latest is still the one the page saw
        (`seen`; 0: none yet); None where another page's change came first. A room let go of
        starts again from the page's game."""
        with self._lock:
            now = self._posted.get((room, key))
            if now is not None and now.version != seen:
                return None
            posted = Posted(seen + 1, game)
            self._posted[room, key] = posted
            self._posted.move_to_end((room, key))
            while len(self._posted) > self._size:
                gone, _ = self._posted.popitem(last=False)
                for kept in [kept for kept in self._histories if kept[:2] == gone]:
                    del self._histories[kept]
            return posted

    def keep_history(self, room: str, key: str, tab: str, history: list[Any]) -> None:
        """The Undo history of the page of `tab` for the room's game (none kept where the room
        has no such game: it was let go of)."""
        with self._lock:
            if (room, key) not in self._posted:
                return
            if not history:
                self._histories.pop((room, key, tab), None)
                return
            self._histories[room, key, tab] = list(history)
            self._histories.move_to_end((room, key, tab))
            while len(self._histories) > self._histories_kept:
                self._histories.popitem(last=False)

    def history(self, room: str, key: str, tab: str) -> list[Any]:
        with self._lock:
            return list(self._histories.get((room, key, tab), []))


@st.cache_resource(show_spinner=False)
def rooms() -> Rooms:
    return Rooms()


def room() -> str | None:
    """The room this page's address joins, if any."""
    given = st.query_params.get(LIVE_PARAM, "")
    return given if ROOM_PATTERN.fullmatch(given) else None


def open_room(key: str) -> str:
    """A fresh room for this page's games, in its address from now on, holding its game under
    `key` as it is now."""
    made = secrets.token_urlsafe(9)
    st.query_params[LIVE_PARAM] = made
    post(key, st.session_state[key])
    return made


def leave() -> None:
    """This page leaves its room: its games are its own again (as they are now)."""
    state = st.session_state
    for key in [key for key in state if str(key).startswith((SEEN_PREFIX, OWN_PREFIX))]:
        del state[key]
    if LIVE_PARAM in st.query_params:
        del st.query_params[LIVE_PARAM]


def seen(key: str) -> int:
    return st.session_state.get(SEEN_PREFIX + key, 0)


def newer(key: str) -> Posted | None:
    """The room's game under `key` where another page changed it since this page last saw it."""
    joined = room()
    latest = None if joined is None else rooms().latest(joined, key)
    if latest is None or latest.version <= seen(key):
        return None
    return latest


def saw(key: str, posted: Posted) -> None:
    st.session_state[SEEN_PREFIX + key] = posted.version


def post(key: str, game: Any) -> Posted | None:
    """This page's game under `key` posted to its room (nothing where it is in none); None where
    another page's change came first (the page takes that one: `newer`)."""
    joined = room()
    if joined is None:
        return None
    posted = rooms().post(joined, key, game, seen(key))
    if posted is not None:
        saw(key, posted)
    return posted


def own_history(key: str, history: list[Any]) -> list[Any]:
    """The page's Undo history of the room's game under `key`: at its first look with its tab's
    id (after a reload: the history its tab kept there), where it has none of its own yet."""
    joined, tab = room(), this_tab.held()
    if joined is None or tab is None or st.session_state.get(OWN_PREFIX + key) == joined:
        return history
    st.session_state[OWN_PREFIX + key] = joined
    return history or rooms().history(joined, key, tab)


def keep_own_history(key: str, history: list[Any]) -> None:
    """The page's Undo history of the room's game under `key`, kept there by its tab's id for a
    reload (once `own_history` has looked for one kept there before: not to wipe it)."""
    joined, tab = room(), this_tab.held()
    if joined is not None and tab is not None and st.session_state.get(OWN_PREFIX + key) == joined:
        rooms().keep_history(joined, key, tab, history)


def listen(key: str, moves_on: Callable[[Any], bool] | None = None) -> None:
    """While the page is in a room, look for another phone's change to the game under `key`
    every POLL_SECONDS, and run the page again when there is one, or when the page took its
    tab's id back (`this_tab.taken_back`). A change that puts another game on screen
    (`moves_on(game)`: the next game) waits while a field holds typing not yet sent
    (`typing_done`)."""
    if room() is not None:
        _listen(key, moves_on)


@st.fragment(run_every=POLL_SECONDS)
def _listen(key: str, moves_on: Callable[[Any], bool] | None) -> None:
    if this_tab.taken_back():
        look_again()
        st.rerun(scope="app")
    latest = newer(key)
    if latest is None:
        return
    if moves_on is None or not moves_on(latest.game) or typing_done(latest.version):
        st.rerun(scope="app")


TYPING_KEY = "live-typing"
MOST_TYPING_MS = 30_000  # how long a change waits for typing to end, at most
# the fields whose typing is not yet sent: Streamlit says "Press Enter to apply" under them, or,
# under a field of 180 px or less (the name's), says nothing: the field typed in then holds
# other text than the page's state (`sent_texts`)
TYPING_JS = """
export default function (component) {
  const { change, most, sent } = component.data;
  window.blackcatTypingDone = component.setTriggerValue;
  const waiting = window.blackcatTypingWait;
  if (waiting && waiting.change === change) return;  // already waiting for this change
  const since = Date.now();
  window.blackcatTypingWait = { change };
  const unsent = () => {
    const field = document.activeElement;
    const box = field?.closest('[data-testid="stTextInput"]')?.closest('[class*="st-key-"]');
    const key = box && [...box.classList].find((name) => name.startsWith('st-key-'));
    return key !== undefined && key in sent && sent[key] !== field.value;
  };
  const typing = () => unsent() || [...document.querySelectorAll(
    '[data-testid="stTextInput"] [data-testid="InputInstructions"]')].some(
    (said) => said.textContent.trim());
  const look = () => {
    if (window.blackcatTypingWait.change !== change) return;
    if (typing() && Date.now() - since < most) { setTimeout(look, 250); return; }
    window.blackcatTypingDone("done", change);
  };
  look();
}
"""
_typing = st.components.v2.component("blackcat.live_typing", js=TYPING_JS)


def typing_done(change: int) -> bool:
    """Whether the page's fields hold no typing not yet sent (or have held it MOST_TYPING_MS),
    as the browser says once asked about another phone's `change`: the next game put on screen
    took a field typed in away with what it held (a card of game 1 typed as another phone
    started game 2 went nowhere). Sent, the typing goes to its own game
    (`game_state.Undoable.commit`), and the page runs again anyway."""
    said = _typing(
        key=TYPING_KEY,
        data={"change": change, "most": MOST_TYPING_MS, "sent": sent_texts()},
        on_done_change=_nothing,
    )
    return said.done == change


def sent_texts() -> dict[str, str]:
    """The text each field of the page holds as its state has it (what was last sent, or set),
    by the class of the field's container (`language.key_class`)."""
    state = st.session_state
    return {language.key_class(str(key)): state[key] for key in state if type(state[key]) is str}


def _nothing() -> None:
    """The browser's answer is read in the run it starts (`typing_done`)."""


def look_again() -> None:
    """The page looks again for its Undo history kept in its room (`own_history`): its tab's id
    taken back (`this_tab.taken_back`)."""
    state = st.session_state
    for key in [key for key in state if str(key).startswith(OWN_PREFIX)]:
        del state[key]
