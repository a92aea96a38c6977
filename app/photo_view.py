"""A photo on the page: drawn with a numbered box per card, as the piles are now."""

from __future__ import annotations

import base64
import functools
import hashlib
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import replace
from html import escape
from pathlib import Path

import numpy as np
import streamlit as st
from game_state import Act, undoable
from language import _, tr
from photo_input import as_written, breakable
from photo_store import PhotoRecord
from PIL import Image, ImageDraw, ImageFont
from reader_access import DisplayCopy, jpeg_of

from blackcat.games.cards import ALL_CARDS
from blackcat.i18n import N_, and_list
from blackcat.tables import black_cat_table as ts
from blackcat.vision.drawing import annotate, scaled_boxes, scaled_card
from blackcat.vision.types import Box, PhotoRead, ReadCard

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
    _display: DisplayCopy,
    by_pile: bool = True,
    _unread: tuple[Box, ...] = (),
) -> bytes:
    """The photo with a numbered box per card, numbered and named as the piles are now (after
    corrections), and a red box round each place whose cards were too small to read (`_unread`,
    full pixels). Cards typed in between keep their numbers but have no box on the photo.
    Cached by the photo's `key` and `drawing` (`drawing_key` of the marks)."""
    read = marks_read(_marks, factor, _display.width, _display.height)
    read = replace(read, unread_places=scaled_boxes(_unread, factor))
    return jpeg_of(annotate(_display.pixels(), read, by_pile=by_pile))


def marks_read(marks: ts.PhotoMarks, factor: float, width: int, height: int) -> PhotoRead:
    """The marks as a read of the display copy, for `annotate`: each card at its place in its
    pile, as the piles are now."""
    rows: dict[int, list[ReadCard]] = {}
    for pile_index in {mark[0] for mark in marks}:
        length = max(mark[1] for mark in marks if mark[0] == pile_index) + 1
        # cards with nothing to draw hold the places of typed cards, so that every box keeps
        # its card's number in the pile (`annotate` numbers a card by its place in the row)
        rows[pile_index] = [ReadCard(ALL_CARDS[0], OFF_PHOTO, 1.0, (), ()) for _ in range(length)]
    for pile_index, position, slot in marks:
        read = slot.read
        if read is None:  # its read lost with the photo (`ts.reads_lost`), as a typed card
            continue
        confidence = 1.0 if slot.checked else read.confidence
        rows[pile_index][position] = scaled_card(
            replace(read, card=slot.card, confidence=confidence), factor
        )
    piles = tuple(tuple(rows.get(index, ())) for index in range(max(rows, default=-1) + 1))
    return PhotoRead(width=width, height=height, piles=piles)


# ---------------------------------------------------------------------------------------------
# A photo of the whole table: every player's cards, numbered as their piles, and their names

PlayerMarks = tuple[tuple[str, ts.PhotoMarks], ...]  # each player's name and cards on the photo


def table_drawing_key(players: PlayerMarks) -> str:
    """`drawing_key` of every player's cards, with their names."""
    parts = [(name, drawing_key(marks)) for name, marks in players]
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def side_boxes(
    marks: ts.PhotoMarks, factor: float, side_of: Callable[[ReadCard], str]
) -> list[Box]:
    """Around a player's piles on the display copy, one box for each side of the table they lie
    on (`side_of` a pile's first card read), e.g. two for a pile given to the player from
    another side: a name tag for each (piles without a box left out)."""
    by_side: dict[str, list[ts.PhotoMarks]] = {}
    for pile in sorted({mark[0] for mark in marks}):
        own = tuple(mark for mark in marks if mark[0] == pile)
        first = next((mark[2].read for mark in own if mark[2].read is not None), None)
        if first is not None:
            by_side.setdefault(side_of(first), []).append(own)
    boxes = (group_box(sum(piles, ()), factor) for piles in by_side.values())
    return [box for box in boxes if box is not None]


def group_box(marks: ts.PhotoMarks, factor: float) -> Box | None:
    """Around a player's cards on the display copy (None: none has a box)."""
    boxes = [slot.read.box for _, _, slot in marks if slot.read is not None]
    if not boxes:
        return None
    x1, y1 = min(box[0] for box in boxes), min(box[1] for box in boxes)
    x2, y2 = max(box[2] for box in boxes), max(box[3] for box in boxes)
    return x1 * factor, y1 * factor, x2 * factor, y2 * factor


def tag_place(
    around: Box,
    tag: tuple[float, float],
    photo: tuple[int, int],
    numbers: float = 0.0,
    cards: Sequence[Box] = (),
) -> tuple[float, float]:
    """Where a name tag of size `tag` (width, height) goes: centred under the player's cards
    (`around`), else above them clear of the card numbers drawn above each card (`numbers`
    high), else beside them, right or left: the first place inside the photo (width, height)
    that covers no card of the photo (`cards`, with their numbers); where none is, under them
    (above them when the photo ends first), inside the photo."""
    x1, y1, x2, y2 = around
    width, height = tag
    centred = (x1 + x2 - width) / 2
    middle = (y1 + y2 - height) / 2
    places = [
        (centred, y2 + TAG_GAP),
        (centred, y1 - numbers - TAG_GAP - height),
        (x2 + TAG_GAP, middle),
        (x1 - TAG_GAP - width, middle),
    ]
    numbered = [(c[0], c[1] - numbers, c[2], c[3]) for c in cards]
    for left, top in places:
        inside = left >= 0 and top >= 0 and left + width <= photo[0] and top + height <= photo[1]
        place = (left, top, left + width, top + height)
        if inside and not any(overlap(place, card) for card in numbered):
            return left, top
    left = min(max(0.0, centred), max(0.0, photo[0] - width))
    below = y2 + TAG_GAP
    top = below if below + height <= photo[1] else y1 - numbers - TAG_GAP - height
    return left, min(max(0.0, top), max(0.0, photo[1] - height))


def overlap(first: Box, second: Box) -> bool:
    return (
        first[0] < second[2]
        and second[0] < first[2]
        and first[1] < second[3]
        and second[1] < first[3]
    )


def typeface_file() -> Path | None:
    """The page's own typeface, Source Sans (a variable font), as Streamlit ships it for its
    pages; None where this Streamlit has none."""
    media = Path(st.__file__).parent / "static" / "static" / "media"
    return next(iter(sorted(media.glob("SourceSansVF-Upright*.woff2"))), None)


@functools.lru_cache(maxsize=8)
def tag_font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The names' font on a photo: the page's, semibold; Pillow's own has ASCII alone (Zoë was
    drawn "Zo" and a box)."""
    found = typeface_file()
    if found is not None:
        try:
            font = ImageFont.truetype(str(found), size)
            font.set_variation_by_axes([600])  # its weight: 200 unless told
            return font
        except OSError:  # a FreeType without WOFF2, or no variable fonts
            pass
    return ImageFont.load_default(size=size)


def drawable(name: str, font: ImageFont.FreeTypeFont | ImageFont.ImageFont) -> str:
    """`name` without the symbols `font` has no glyph for (an emoji, and the joiners and
    variation selectors of one), which it would draw as boxes; a letter is always kept (a
    box says more than a name with a letter gone). As it is where nothing would be left."""
    missing = bytes(font.getmask("\U000f0000"))  # a private-use character: no font draws it

    def dropped(character: str) -> bool:
        category = unicodedata.category(character)
        if category == "Cf" or "VARIATION SELECTOR" in unicodedata.name(character, ""):
            return True  # an emoji's joiner or style, drawn as nothing or a box
        return category in SYMBOLS and bytes(font.getmask(character)) == missing

    kept = " ".join("".join(c for c in name if not dropped(c)).split())
    return kept or name


SYMBOLS = frozenset({"So", "Sk", "Co", "Cn", "Cs"})  # emoji, private and unassigned characters


TAG_GAP = 4.0  # pixels between a player's cards and their name
TAG_COLOUR = (33, 33, 33)


def draw_name_tags(
    image: np.ndarray, tags: Sequence[tuple[str, Box]], cards: Sequence[Box] = ()
) -> np.ndarray:
    """A copy of the photo with each name on a dark tag by its player's cards, clear of the
    photo's `cards` where there is room (`tag_place`)."""
    canvas = Image.fromarray(image)
    draw = ImageDraw.Draw(canvas)
    scale = max(image.shape[:2]) / 1000
    font = tag_font(max(12, round(26 * scale)))
    pad = max(2, round(6 * scale))
    numbers = max(11, round(18 * scale)) + 6 * max(1, round(2 * scale))  # as `annotate` draws
    for name, around in tags:
        name = drawable(name, font)
        left, top, right, bottom = draw.textbbox((0, 0), name, font=font)
        size = (right - left + 2 * pad, bottom - top + 2 * pad)
        x, y = tag_place(around, size, (image.shape[1], image.shape[0]), numbers, cards)
        draw.rounded_rectangle((x, y, x + size[0], y + size[1]), radius=pad, fill=TAG_COLOUR)
        draw.text((x + pad - left, y + pad - top), name, "white", font)
    return np.asarray(canvas)


@st.cache_data(max_entries=32, show_spinner=False)
def table_jpeg(
    key: str,
    drawing: str,
    factor: float,
    _players: PlayerMarks,
    _display: DisplayCopy,
    _unread: tuple[Box, ...] = (),
    _side_of: Callable[[ReadCard], str] = lambda _read: "near",
) -> bytes:
    """The whole table's photo: each player's cards numbered as their piles are now, the
    player's name by them on each side of the table they lie on (`_side_of` a card read), and
    a red box round each place whose cards were too small to read (`_unread`, full pixels).
    Cached by the photo's `key` and `drawing` (`table_drawing_key`)."""
    width, height = _display.width, _display.height
    unread = PhotoRead(
        width=width, height=height, piles=(), unread_places=scaled_boxes(_unread, factor)
    )
    drawn = annotate(_display.pixels(), unread)
    for _name, marks in _players:
        drawn = annotate(drawn, marks_read(marks, factor, width, height))
    boxes = [slot.read.box for _, marks in _players for _, _, slot in marks if slot.read]
    tags = [
        (name, around) for name, marks in _players for around in side_boxes(marks, factor, _side_of)
    ]
    cards = scaled_boxes(boxes, factor)
    return jpeg_of(draw_name_tags(drawn, tags, cards))


def cards_centre(marks: ts.PhotoMarks, factor: float, width: int) -> float:
    """Where the photo's cards are, across it: the middle of their boxes, as a share of the
    display copy's `width` (0.5 when no card has a box)."""
    around = group_box(marks, factor)
    if around is None or width <= 0:
        return 0.5
    left, _top, right, _bottom = around
    return min(1.0, max(0.0, (left + right) / 2 / width))


ZOOMED_WIDTH_PX = 1000
"""The zoomed photo's width (CSS pixels; at least the page's): on a phone, about 2.6 of its
widths, where its numbers read without pinching. A share of the page's width (2.6 of it) made
it 1,800 px wide on a computer, a portrait photo 2,400 px tall: the switch under it jumped a
screen and a half down (helper-63)."""


def zoomed_html(key: str, jpeg: bytes, centre: float, alt: str, scroll_hint: str) -> str:
    """The photo wider than the phone, scrolled sideways, opening with its cards (at `centre`,
    a share of its width) in the middle of the screen rather than at its left edge; `alt`: what
    it shows, for those who can't see it. Its frame takes the keyboard's focus (arrow keys
    scroll it), named by `scroll_hint`."""
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
        f'<div id="{element}" style="overflow-x:auto" tabindex="0" role="region" '
        f'aria-label="{escape(scroll_hint)}">'
        f'<img alt="{escape(alt)}" style="width:max(100%, {ZOOMED_WIDTH_PX}px);max-width:none" '
        f'src="data:image/jpeg;base64,{base64.b64encode(jpeg).decode()}"></div>'
        f"<script>{script}</script>"
    )


def show_photo(
    key: str,
    record: PhotoRecord,
    marks: ts.PhotoMarks,
    act: Act,
    where: str = "piles",
    also: Sequence[str] = (),
) -> None:
    """The photo with its numbered cards (zoomable), and a button to take its cards off: those
    of the players it names `also` too, where some of its cards were moved to them."""
    jpeg = annotated_jpeg(
        key,
        drawing_key(marks),
        record.factor,
        marks,
        record.display,
        by_pile=where != "tricks",
        _unread=record.unread_places,
    )
    caption = _("{photo}: the numbers are the card numbers below").format(
        photo=breakable(record.shown_name(tr(), starting=True))
    )
    help_text = (
        _("The wrong photo? Its cards leave the tricks (Undo brings them back)")
        if where == "tricks"
        else _("The wrong photo? Its cards leave the piles (Undo brings them back)")
    )
    # said on the button: a tap under Kim's tricks took Ann's cards of the photo too
    take_off = (
        _("Take this photo's cards off, {names}'s too").format(
            names=and_list([as_written(name) for name in also], tr())
        )
        if also
        else _(TAKE_OFF)
    )
    # short: a toast cuts a long one at two lines (Streamlit's "view more", in English)
    gone = (
        _("This photo's cards are out of the tricks.")
        if where == "tricks"
        else _("This photo's cards are off the table.")
    )
    alt = _(TRICKS_PHOTO_ALT) if where == "tricks" else _(PHOTO_ALT)
    show_drawn(key, record, jpeg, marks, caption, alt, act, help_text, take_off, gone)


def show_table_photo(key: str, record: PhotoRecord, players: PlayerMarks, act: Act) -> None:
    """A photo of the whole table: each player's cards numbered as their piles, their name by
    them (zoomable), and a button to take its cards off every player's piles."""
    jpeg = table_jpeg(
        key,
        table_drawing_key(players),
        record.factor,
        players,
        record.display,
        record.unread_places,
        record.side_of,
    )
    caption = _(
        "{photo}: each player's name by their piles; the numbers are their card numbers"
    ).format(photo=breakable(record.shown_name(tr(), starting=True)))
    marks = tuple(mark for _name, own in players for mark in own)
    help_text = _("The wrong photo? Its cards leave every player's piles (Undo brings them back)")
    gone = _("This photo's cards are off the table.")
    alt = _(PHOTO_ALT)
    show_drawn(key, record, jpeg, marks, caption, alt, act, help_text, _(TAKE_OFF), gone)


TAKE_OFF = N_("Take this photo's cards off")
PHOTO_ALT = N_("The photo, each card read boxed and numbered as in the piles below")
TRICKS_PHOTO_ALT = N_("The photo, each card read boxed and numbered as in the tricks below")


def show_drawn(
    key: str,
    record: PhotoRecord,
    jpeg: bytes,
    marks: ts.PhotoMarks,
    caption: str,
    alt: str,
    act: Act,
    help_text: str,
    take_off: str,
    gone: str,
) -> None:
    """A drawn photo (zoomable, centred on its cards `marks`; `alt`, what a screen reader says
    of it) and a button to take its cards off (`take_off`, its words; `gone`, the toast's once
    they are off)."""
    if st.session_state.get(f"zoom:{key}"):
        centre = cards_centre(marks, record.factor, record.display.width)
        zoomed = zoomed_html(key, jpeg, centre, alt, _("The photo zoomed in: scroll it sideways"))
        st.html(zoomed, unsafe_allow_javascript=True)
        st.caption(caption)
    else:
        st.image(jpeg, caption=caption, width="stretch", alt=alt)
    with st.container(horizontal=True, vertical_alignment="center"):
        st.toggle(_("Zoom in"), key=f"zoom:{key}")
        st.button(
            take_off,
            key=f"remove-photo:{key}",
            on_click=act,
            args=(ts.remove_photo, key),
            kwargs={"after": undoable(gone)},
            help=help_text,
            wrap=True,  # whole with the others' names, or at a large text size
        )
