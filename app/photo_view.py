"""A photo on the page: drawn with a numbered box per card, as the piles are now."""

from __future__ import annotations

import base64
import hashlib
import io
from dataclasses import replace

import numpy as np
import streamlit as st
from game_state import Act
from language import _
from photo_input import breakable
from photo_store import PhotoRecord
from PIL import Image

from blackcat.games.cards import ALL_CARDS
from blackcat.tables import black_cat_table as ts
from blackcat.vision.drawing import annotate
from blackcat.vision.types import PhotoRead, ReadCard


def scaled(read: ReadCard, factor: float) -> ReadCard:
    """A read card with its boxes in the display copy's pixels."""

    def box(values: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        x1, y1, x2, y2 = (v * factor for v in values)
        return x1, y1, x2, y2

    indices = tuple(replace(index, box=box(index.box)) for index in read.indices)
    return replace(read, box=box(read.box), indices=indices)


OFF_PHOTO = (-10_000.0, -10_000.0, -9_999.0, -9_999.0)


def drawing_key(marks: ts.PhotoMarks) -> str:
    """A digest of what the annotated photo shows of `marks`: each card's place, name, boxes and
    doubt. `annotated_jpeg`'s cache key: Streamlit hashing the read cards themselves (their
    guesses and evidence) took ~25 ms of every page."""
    shown = [
        (
            pile,
            position,
            slot.card.code,
            slot.checked,
            read.confidence,
            read.doubtful_below,
            read.box,
            *(index.box for index in read.indices),
        )
        for pile, position, slot in marks
        if (read := slot.read) is not None
    ]
    return hashlib.sha256(repr(shown).encode()).hexdigest()


@st.cache_data(max_entries=64, show_spinner=False)
def annotated_jpeg(
    key: str,
    drawing: str,
    factor: float,
    _marks: ts.PhotoMarks,
    _display: np.ndarray,
    by_pile: bool = True,
) -> bytes:
    """The photo with a numbered box per card, numbered and named as the piles are now (after
    corrections). Cards typed in between keep their numbers but have no box on the photo.
    Cached by the photo's `key` and `drawing` (`drawing_key` of the marks)."""
    rows: dict[int, list[ReadCard]] = {}
    for pile_index in {mark[0] for mark in _marks}:
        length = max(mark[1] for mark in _marks if mark[0] == pile_index) + 1
        # cards with nothing to draw hold the places of typed cards, so that every box keeps
        # its card's number in the pile (`annotate` numbers a card by its place in the row)
        rows[pile_index] = [ReadCard(ALL_CARDS[0], OFF_PHOTO, 1.0, (), ()) for _ in range(length)]
    for pile_index, position, slot in _marks:
        read = slot.read
        assert read is not None
        confidence = 1.0 if slot.checked else read.confidence
        rows[pile_index][position] = scaled(
            replace(read, card=slot.card, confidence=confidence), factor
        )
    piles = tuple(tuple(rows.get(index, ())) for index in range(max(rows, default=-1) + 1))
    height, width = _display.shape[:2]
    drawn = annotate(_display, PhotoRead(width=width, height=height, piles=piles), by_pile=by_pile)
    buffer = io.BytesIO()
    Image.fromarray(drawn).save(buffer, format="JPEG", quality=82)
    return buffer.getvalue()


def cards_centre(marks: ts.PhotoMarks, factor: float, width: int) -> float:
    """Where the photo's cards are, across it: the middle of their boxes, as a share of the
    display copy's `width` (0.5 when no card has a box)."""
    boxes = [slot.read.box for _, _, slot in marks if slot.read is not None]
    if not boxes or width <= 0:
        return 0.5
    left = min(box[0] for box in boxes) * factor
    right = max(box[2] for box in boxes) * factor
    return min(1.0, max(0.0, (left + right) / 2 / width))


ZOOM = 2.6  # the zoomed photo's width, in phone widths: its numbers read without pinching


def zoomed_html(key: str, jpeg: bytes, centre: float) -> str:
    """The photo wider than the phone, scrolled sideways, opening with its cards (at `centre`,
    a share of its width) in the middle of the screen rather than at its left edge."""
    element = f"bc-zoom-{key}"
    script = (
        "(() => {"
        f"const z = document.getElementById('{element}');"
        "if (!z || z.dataset.ready) return; z.dataset.ready = '1';"
        f"const go = () => {{ z.scrollLeft = z.scrollWidth * {centre:.4f} - z.clientWidth / 2; }};"
        "go(); requestAnimationFrame(go);"
        "const img = z.querySelector('img'); if (!img.complete) img.addEventListener('load', go);"
        "})();"
    )
    return (
        f'<div id="{element}" style="overflow-x:auto">'
        f'<img alt="the photo with numbered cards" style="width:{ZOOM * 100:.0f}%;max-width:none" '
        f'src="data:image/jpeg;base64,{base64.b64encode(jpeg).decode()}"></div>'
        f"<script>{script}</script>"
    )


def show_photo(
    key: str,
    record: PhotoRecord,
    marks: ts.PhotoMarks,
    act: Act,
    where: str = "piles",
) -> None:
    """The photo with its numbered cards (zoomable), and a button to take its cards off."""
    jpeg = annotated_jpeg(
        key, drawing_key(marks), record.factor, marks, record.display, by_pile=where != "tricks"
    )
    caption = _("{photo}: the numbers are the card numbers below").format(
        photo=breakable(record.name)
    )
    if st.session_state.get(f"zoom:{key}"):
        centre = cards_centre(marks, record.factor, record.display.shape[1])
        st.html(zoomed_html(key, jpeg, centre), unsafe_allow_javascript=True)
        st.caption(caption)
    else:
        st.image(jpeg, caption=caption, width="stretch")
    with st.container(horizontal=True, vertical_alignment="center"):
        st.toggle(_("Zoom in"), key=f"zoom:{key}")
        st.button(
            _("Take this photo's cards off"),
            key=f"remove-photo:{key}",
            on_click=act,
            args=(ts.remove_photo, key),
            help=_("The wrong photo? Its cards leave the tricks (Undo brings them back)")
            if where == "tricks"
            else _("The wrong photo? Its cards leave the piles (Undo brings them back)"),
        )
