"""What both games' pages share about the page's address: the key that makes a LAN table
private, the game's table kept in the address, and the panel to open the table on another phone
(a QR code, a link copied in one tap).

`blackcat app --lan` starts the app with `BLACKCAT_ACCESS_KEY` (the table's key: the address must
carry it as `?key=`) and `BLACKCAT_PUBLIC_URL` (the address phones reach the app at). Without
them (the app on this machine alone) no key is asked for.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import html
import ipaddress
import json
import os
import threading
from collections import OrderedDict
from typing import Any
from urllib.parse import urlencode, urlsplit

import language
import live_table
import panels
import segno
import streamlit as st
from language import _
from streamlit.runtime.scriptrunner import get_script_run_ctx

from blackcat.i18n import DEFAULT_LANGUAGE, N_, Translator
from blackcat.lan import ACCESS_KEY_ENV, KEY_PARAM, PUBLIC_URL_ENV

GAME_PARAMS = ("table", "lady")  # each game's table in the address: Black Cat's, Black Lady's
PRIVATE = N_("🔒 **This table is private:** scan the QR code on the host's screen.")


def access_key() -> str | None:
    return os.environ.get(ACCESS_KEY_ENV) or None


def admitted() -> bool:
    """Whether this page may show the table: always on this machine alone; on the LAN only
    with the table's key in the address."""
    key = access_key()
    if key is None:
        return True
    given = st.query_params.get(KEY_PARAM, "")
    return hmac.compare_digest(given.encode(), key.encode())


def show_private() -> None:
    st.markdown(_(PRIVATE))


PHOTO_MODE_PARAM = "photo"  # Black Cat's choice of photo, once made (a reload keeps it)
SEAT_PARAM = "seat"  # the seat whose tricks Black Lady's page shows (a reload keeps it)


def kept_params() -> dict[str, str]:
    """What the address holds that a switch to the other game must keep: the key, both games'
    tables, the shared games' room, the language, Black Cat's choice of photo and Black Lady's
    seat on screen."""
    names = (
        KEY_PARAM,
        *GAME_PARAMS,
        live_table.LIVE_PARAM,
        language.PARAM,
        PHOTO_MODE_PARAM,
        SEAT_PARAM,
    )
    return {name: st.query_params[name] for name in names if name in st.query_params}


def keep_in_address(param: str, text: str | None, history: list[Any], game_key: str) -> None:
    """The page's address holds the game's table as it is now (`text`; None: nothing to keep,
    e.g. the untouched example), and the server its undo history for a reload (in a shared
    game, by the page's tab: `live_table.keep_own_history`, the game kept under `game_key`)."""
    remember_history(param, text, history)
    live_table.keep_own_history(game_key, history)
    if st.query_params.get(param) == text:
        return
    if text is None:
        del st.query_params[param]
    else:
        st.query_params[param] = text


def base_url() -> str:
    """The app's address as another phone reaches it (no path, no query)."""
    public = os.environ.get(PUBLIC_URL_ENV)
    if public:
        return public.rstrip("/")
    parts = urlsplit(str(st.context.url or ""))
    return f"{parts.scheme}://{parts.netloc}" if parts.netloc else ""


def page_link(path: str, params: dict[str, str]) -> str:
    """The address of a game's page with `params` (and the key, where one is needed)."""
    key = access_key()
    query = {**({KEY_PARAM: key} if key else {}), **params}
    address = base_url() + (f"/{path}" if path else "/")
    return f"{address}?{urlencode(query)}" if query else address


def only_this_computer(link: str) -> bool:
    """Whether `link` points at this computer's own address (127.0.0.1, localhost), which no
    other phone can open."""
    host = urlsplit(link).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def local_note(link: str, tr: Translator | None = None, lan: bool = False) -> str:
    """What a link to this computer alone can't do, in `tr`'s language (the page's if None);
    `lan`: the app was started with --lan, and found no network (its address is localhost)."""
    tr = tr or language.tr()
    if lan:
        note = tr.gettext(
            "📵 **This link is this computer's own ({host}): another phone can't open it.** "
            "`blackcat app --lan` found no network as it started: connect this computer to the "
            "phones' Wi-Fi, then start it again."
        )
    else:
        note = tr.gettext(
            "📵 **This link is this computer's own ({host}): another phone can't open it.** To "
            "play from phones, start the app with `blackcat app --lan` and share from the address "
            "it prints."
        )
    return note.format(host=urlsplit(link).hostname)


QR_BORDER = 2  # modules of white round the code
QR_MODULE_PX = 2.6  # the least width of a module on screen, in CSS pixels, where the screen has it
QR_LEAST_PX = 256  # a short link's code is drawn this wide (16rem)


# a tap that leaves the game as it was (a card picked, a panel opened) draws the open share
# panel again: a long night's code took up to 160 ms to make
@functools.lru_cache(maxsize=16)
def qr_html(text: str, alt: str = "QR code of the link") -> str | None:
    """A QR code of `text` as an image, drawn wider the more modules it has (up to its panel's
    width, `SHARE_CSS`): a long night's code has 150-180 modules across, which at a short
    link's size left another phone's camera about a pixel and a half each. None when `text` is
    too long for one."""
    try:
        code = segno.make(text, error="l", micro=False)
    except segno.DataOverflowError:
        return None
    modules = code.symbol_size(scale=1, border=QR_BORDER)[0]
    width = max(QR_LEAST_PX, round(modules * QR_MODULE_PX))
    uri = code.svg_data_uri(scale=4, border=QR_BORDER)
    return f'<img class="bc-qr" style="width: {width}px" alt="{html.escape(alt)}" src="{uri}">'


def copy_button_html(text: str, copy_label: str, copied_label: str) -> str:
    """A button that copies `text` in one tap (the clipboard where the page may use it, else
    through a selected text field, as older phones do), saying `copy_label`, and
    `copied_label` for a moment once it has."""
    payload = base64.b64encode(json.dumps([text, copy_label, copied_label]).encode()).decode()
    button_id = "bc-copy-" + hashlib.sha256(payload.encode()).hexdigest()[:10]
    script = (
        "(() => {"
        f"const b = document.getElementById('{button_id}');"
        "if (!b || b.dataset.ready) return; b.dataset.ready = '1';"
        f"const [t, copy, copied] = JSON.parse(atob('{payload}'));"  # JSON's escapes: ASCII
        "const done = () => { b.textContent = copied;"
        "  setTimeout(() => { b.textContent = copy; }, 2500); };"
        "const fallback = () => { const a = document.createElement('textarea'); a.value = t;"
        "  document.body.appendChild(a); a.select(); document.execCommand('copy'); a.remove();"
        "  done(); };"
        "b.addEventListener('click', () => {"
        "  if (navigator.clipboard && window.isSecureContext) {"
        "    navigator.clipboard.writeText(t).then(done, fallback); } else { fallback(); } });"
        "})();"
    )
    return (
        f'<button class="bc-copy" type="button" id="{button_id}">{html.escape(copy_label)}</button>'
        f"<script>{script}</script>"
    )


SHARE_CSS = """
<style>
.bc-copy { font-size: 1rem; padding: .55rem .9rem; border-radius: .5rem; border: 1px solid #bbb;
  background: #fff; width: 100%; font-weight: 600; }
.bc-qr { display: block; margin: .3rem auto; max-width: 100%; image-rendering: pixelated; }
.bc-link { font-family: monospace; font-size: .85rem; word-break: break-all; user-select: all;
  background: #f6f6f6; border-radius: .4rem; padding: .5rem .7rem; margin: .4rem 0 0; }
</style>
"""


def link_html(link: str) -> str:
    """The link as text a long press selects whole (plain HTML: Streamlit's code block would
    bring its 1.5 MB syntax highlighter to the phone for one line)."""
    return f'{SHARE_CSS}<p class="bc-link">{html.escape(link)}</p>'


def share_panel_key(param: str) -> str:
    """The key of the share panel of the game whose address holds it in `param`: the panel is
    open while `st.session_state[key]` is True."""
    return f"share-{param}"


def show_share(path: str, param: str, text: str | None, game_key: str) -> None:
    """The panel to open this game on another phone: a QR code a phone's camera opens, a link
    copied in one tap, and the link itself. Opened, it makes the game a shared one
    (`live_table`, the game kept in Session State under `game_key`): every phone that opens
    the link shows the same game from then on."""
    panel = panels.panel(
        _("📱 Open on another phone · share"), key=share_panel_key(param), on_change="rerun"
    )
    if not panel.open:
        return  # its QR code costs 10-70 ms (the longer the game, the more): made when open
    with panel:
        room = live_table.room() or live_table.open_room(game_key)
        params = {**({} if text is None else {param: text}), live_table.LIVE_PARAM: room}
        if language.current() != DEFAULT_LANGUAGE:  # the other phone reads it the same way
            params[language.PARAM] = language.current()
        link = page_link(path, params)
        qr = qr_html(link, _("QR code of the link"))
        if only_this_computer(link):
            st.warning(local_note(link, lan=access_key() is not None))
        st.markdown(
            _(
                "Scan this with the other phone's camera, or send the link: it opens this game, "
                "and from then on the phones share it: a change made on one shows on the others "
                "within a few seconds, while this computer runs the app (photos stay on this "
                "computer; their cards come along). Each phone keeps its own Undo and shows the "
                "player it chooses."
            )
        )
        if qr is None:
            st.caption(_("The game is too big for a QR code: copy the link instead."))
        else:
            st.html(qr)
        st.html(
            copy_button_html(link, _("📋 Copy the link"), _("✓ Copied")),
            unsafe_allow_javascript=True,
        )
        st.html(link_html(link))
        st.button(
            _("Stop sharing on this phone"),
            key=f"leave-{param}",
            on_click=_leave,
            args=(param,),
            help=_("This phone keeps the game as it is now, and changes made here stay here."),
        )


def _leave(param: str) -> None:
    live_table.leave()
    st.session_state[share_panel_key(param)] = False  # open, it would share the game again


class HistoryStore:
    """Each game's undo history by the table text it leads to: a reloaded page finds the
    history of the table in its address. A page (a browser's session, `owner`) keeps only its
    latest, so the store holds the last of `size` pages however busy each is (when every change
    took an entry, four busy phones pushed a quiet one's history out in a game or two)."""

    def __init__(self, size: int = 64) -> None:
        self._histories: OrderedDict[tuple[str, str], list[Any]] = OrderedDict()
        self._latest: dict[tuple[str, str], tuple[str, str]] = {}  # (owner, param) -> its key
        self._size = size
        self._lock = threading.Lock()

    def put(self, param: str, text: str, history: list[Any], owner: str = "") -> None:
        key = (param, text)
        with self._lock:
            earlier = self._latest.get((owner, param))
            self._latest[owner, param] = key
            if earlier not in (None, key) and earlier not in self._latest.values():
                self._histories.pop(earlier, None)  # the page moved on, and no other is there
            self._histories[key] = list(history)
            self._histories.move_to_end(key)
            while len(self._histories) > self._size:
                gone, _ = self._histories.popitem(last=False)
                for page in [page for page, latest in self._latest.items() if latest == gone]:
                    del self._latest[page]

    def get(self, param: str, text: str) -> list[Any]:
        with self._lock:
            return list(self._histories.get((param, text), []))


@st.cache_resource(show_spinner=False)
def history_store() -> HistoryStore:
    return HistoryStore()


def remember_history(param: str, text: str | None, history: list[Any]) -> None:
    if text is not None and history:
        context = get_script_run_ctx()
        owner = context.session_id if context is not None else ""
        history_store().put(param, text, history, owner)


def recall_history(param: str, text: str) -> list[Any]:
    """The undo history a reloaded page left for the table `text`; none in a shared game: a
    shared link holds the same text, and another phone's history would let Undo here take back
    that phone's changes (helper-71; a shared game's page finds its own by its tab's id once it
    knows it: `live_table.own_history`)."""
    if live_table.room() is not None:
        return []
    return history_store().get(param, text)
