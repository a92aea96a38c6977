"""sharing: the share panel's parts that are plain HTML."""

from __future__ import annotations

import base64
import json

import sharing

from blackcat.i18n import ENGLISH, translator


def test_the_shared_link_is_shown_as_escaped_text() -> None:
    shown = sharing.link_html("https://192.168.1.5:8501/?table=eJy&key=<k>")
    assert '<p class="bc-link">https://192.168.1.5:8501/?table=eJy&amp;key=&lt;k&gt;</p>' in shown
    assert "user-select: all" in shown  # a long press takes the whole link


def test_a_link_to_this_computer_alone_is_told_apart_from_one_a_phone_can_open() -> None:
    for link in ("http://127.0.0.1:8501/?table=x", "http://localhost:8501/", "http://[::1]:8501/"):
        assert sharing.only_this_computer(link), link
        assert "another phone can't open it" in sharing.local_note(link)
        assert "blackcat app --lan" in sharing.local_note(link)
    for link in ("https://192.168.1.23:8501/?key=k", "http://table.local:8501/", "/?table=x"):
        assert not sharing.only_this_computer(link), link


def test_the_note_on_a_link_to_this_computer_alone_is_in_spanish_too() -> None:
    link = "http://127.0.0.1:8501/?table=x"
    note = sharing.local_note(link, translator("es"))
    assert "otro móvil no puede abrirlo" in note and "(127.0.0.1)" in note
    assert "blackcat app --lan" in note
    assert "another phone can't open it" in sharing.local_note(link, ENGLISH)


def test_the_copy_button_says_what_it_is_told_and_carries_the_link_as_ascii() -> None:
    link = "https://192.168.1.5:8501/?table=eJy&key=k"
    button = sharing.copy_button_html(link, "📋 Copiar <el> enlace", "✓ Copiado")
    assert ">📋 Copiar &lt;el&gt; enlace</button>" in button
    payload = button.split("atob('")[1].split("')")[0]
    assert json.loads(base64.b64decode(payload)) == [link, "📋 Copiar <el> enlace", "✓ Copiado"]
    assert "Copy the link" not in button


def test_a_quiet_pages_undo_history_outlasts_a_busy_pages_changes() -> None:
    """Every change of every page took an entry: four busy phones pushed a quiet one's history
    out, and its reload lost Undo. A page keeps only its latest."""
    store = sharing.HistoryStore(size=4)
    store.put("table", "quiet", ["q0"], owner="A")
    for change in range(70):
        store.put("table", f"busy{change}", [change], owner="B")
    assert store.get("table", "quiet") == ["q0"]
    assert store.get("table", "busy69") == [69]
    assert store.get("table", "busy68") == []  # the busy page moved on from it


def test_a_history_two_pages_share_stays_while_one_of_them_is_there() -> None:
    store = sharing.HistoryStore(size=4)
    store.put("table", "shared", ["s"], owner="A")
    store.put("table", "shared", ["s"], owner="B")  # the link opened on a second phone
    store.put("table", "next", ["s", "n"], owner="B")
    assert store.get("table", "shared") == ["s"]  # A's page is still there
    store.put("table", "other", ["o"], owner="A")
    assert store.get("table", "shared") == []


def test_the_store_keeps_the_last_pages_when_full() -> None:
    store = sharing.HistoryStore(size=2)
    for page in "ABC":
        store.put("table", page, [page], owner=page)
    assert [store.get("table", page) for page in "ABC"] == [[], ["B"], ["C"]]
    store.put("table", "A2", ["A2"], owner="A")  # the evicted page comes back with a change
    assert [store.get("table", text) for text in ("B", "C", "A2")] == [[], ["C"], ["A2"]]


def test_a_long_nights_qr_code_is_drawn_wider_and_a_short_links_as_it_was() -> None:
    short = sharing.qr_html("http://192.168.1.20:8501/?table=abc")
    assert short is not None and 'style="width: 256px"' in short
    long_night = sharing.qr_html("http://192.168.1.20:8501/?table=" + "Ab9" * 630)
    assert long_night is not None
    width = int(long_night.split('style="width: ')[1].split("px")[0])
    assert width >= 145 * sharing.QR_MODULE_PX  # version 32 and up: 145 modules and more
    assert sharing.qr_html("x" * 3000) is None  # too long for any QR code


def test_the_qr_code_of_a_link_is_made_once_while_the_link_stays() -> None:
    link = "http://192.168.1.20:8501/?table=" + "Cd7" * 400
    first = sharing.qr_html(link)
    hits = sharing.qr_html.cache_info().hits
    assert sharing.qr_html(link) is first  # drawn again as it was, not made again
    assert sharing.qr_html.cache_info().hits == hits + 1
    assert sharing.qr_html(link + "x") != first
