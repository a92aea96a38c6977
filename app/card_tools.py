"""What every game's page shares: the photo reader (loaded once, each photo read once), photo
input (camera and uploads, with one note per file), the photo with its numbered cards, and the
card corrections (a doubtful card's top guesses, "not a card", picking a card by rank and suit).

The widgets change the page's state through an `act(operation, *args, after=None)` callback that
the page passes in: an operation is a `blackcat.tables.black_cat_table` function of a `Table`,
and the page decides which table it applies to (Black Cat's one table, or the current Black Lady
deal).

Photos: the reader loads once (`st.cache_resource`), each photo is read once (`st.cache_data` by
content hash), and editing a card only re-scores. `BLACKCAT_MODELS_DIR` points the app at another
folder of weights (as `blackcat scan --models`).
"""

from __future__ import annotations

import ast
import base64
import contextlib
import hashlib
import importlib
import io
import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

import numpy as np
import streamlit as st
from PIL import Image

from blackcat.games.cards import ALL_CARDS, Card, Rank, Suit
from blackcat.tables import black_cat_table as ts
from blackcat.vision import reader as vision_reader
from blackcat.vision.drawing import annotate
from blackcat.vision.image_io import ACCEPTED, ImageReadError, open_photo
from blackcat.vision.types import PhotoRead, ReadCard

log = logging.getLogger("blackcat.app")

EXAMPLE_PHOTO = Path(__file__).resolve().parent / "example.jpg"
PHOTO_TYPES = ["jpg", "jpeg", "png", "webp", "heic", "heif"]
MAX_UPLOAD_MB = 100
DISPLAY_SIDE = 1280  # long side of the photo copy kept for showing the numbered boxes
NO_READER = (
    "The photo reader isn't available on this server yet (no trained models installed). "
    "Type or pick your cards below."
)
SUIT_NAMES = {suit: suit.name.lower() for suit in Suit}
RANK_NAMES = {Rank.ACE: "Ace", Rank.JACK: "Jack", Rank.QUEEN: "Queen", Rank.KING: "King"}


Note = TypeVar("Note")  # what a page keeps about each uploaded file

CSS = """
<style>
/* a doubtful card that is also on the table too often: red border, orange dashes inside */
.bc-card.bc-dup.bc-doubtful { border: 2px solid #d32f2f; background: #fff8e1;
  outline: 2px dashed #f57c00; outline-offset: -5px; }
/* the game switch clear of Streamlit's top bar */
[data-testid="stMainBlockContainer"] { padding-top: 3.6rem; }
/* upload notes: small; a refused file a line each (its start says which file and why) */
[class*="upload-notes"] [data-testid="stAlert"] > div { padding: .3rem .6rem; }
[class*="upload-notes"] [data-testid="stAlert"] p { font-size: .8rem; line-height: 1.3; }
[class*="upload-notes"] [role="alert"] p { white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; }
[class*="upload-notes"] { gap: .25rem; }
</style>
"""


class Act(Protocol):
    """A page's way to apply a table operation (a refusal becomes a toast)."""

    def __call__(
        self,
        operation: Callable[..., ts.Table],
        *args: Any,
        after: Callable[[], None] | None = None,
    ) -> None: ...


# ---------------------------------------------------------------------------------------------
# The photo reader


def models_dir() -> Path:
    return Path(os.environ.get("BLACKCAT_MODELS_DIR") or vision_reader.MODELS_DIR)


def models_present(folder: Path) -> bool:
    names = (vision_reader.DETECTOR_FILE, vision_reader.CLASSIFIER_FILE)
    return all((folder / name).is_file() for name in names)


@st.cache_resource(show_spinner="Loading the card reader…")
def load_reader(folder: str) -> vision_reader.CardReader:
    return vision_reader.CardReader.load(folder)


def get_reader() -> tuple[vision_reader.CardReader | None, str | None]:
    """The loaded reader, or None and why not (in words for the player)."""
    folder = models_dir()
    if not models_present(folder):
        return None, NO_READER
    failed = st.session_state.get("reader_failed")
    if failed:
        return None, failed
    try:
        return load_reader(str(folder)), None
    except Exception as error:  # a damaged weights file must not take the page down
        log.exception("loading the card reader failed")
        message = (
            f"The photo reader couldn't start ({type(error).__name__}); photos can't be read "
            "for now. Type or pick your cards below instead."
        )
        st.session_state.reader_failed = message
        return None, message


def read_example() -> tuple[str, PhotoOutcome]:
    """The example photo's key and what the reader reads in it (cached like every photo).
    Raises PhotoError, and OSError when the photo is missing."""
    data = EXAMPLE_PHOTO.read_bytes()
    key = photo_key(data)
    return key, read_photo(key, 1, str(models_dir()), data, EXAMPLE_PHOTO.name)


def warm_up(page_script: Path | None = None) -> None:
    """Do what the first page would wait for, once the server runs (its caches exist): import
    the page's own modules (those of `page_script` in this folder), load the reader, take
    Streamlit's first-element check and read the example photo into the caches the first page
    uses."""
    # The first page's icons make Streamlit load its emoji catalogue (about 50 ms); load it
    # here instead. A later Streamlit that keeps it elsewhere just loads it on the page.
    with contextlib.suppress(ImportError):
        importlib.import_module("streamlit.emojis")
    if page_script is not None:
        for name in page_modules(page_script):
            importlib.import_module(name)
    folder = models_dir()
    reader = load_reader(str(folder)) if models_present(folder) else None
    take_first_element_check()
    if reader is None:
        return
    if EXAMPLE_PHOTO.is_file():
        read_example()
    else:
        reader.warm_up()  # no example to read: a tiny read does the reader's lazy set-up


def page_modules(page_script: Path) -> list[str]:
    """The modules of the script's own folder that it imports (the page's modules)."""
    tree = ast.parse(page_script.read_text(encoding="utf-8"))
    names = [
        alias.name for node in tree.body if isinstance(node, ast.Import) for alias in node.names
    ]
    names += [node.module for node in tree.body if isinstance(node, ast.ImportFrom) and node.module]
    folder = page_script.parent
    return sorted({name for name in names if (folder / f"{name}.py").is_file()})


def take_first_element_check() -> None:
    """Streamlit checks once per process, on the first element, whether it runs in a Python
    prompt, by inspecting the whole stack and reading each frame's source: about 80 ms on the
    first page's deep stack. An element made here, outside any page, goes nowhere and pays the
    check on a short stack. Only once the server runs (else Streamlit warns it isn't served)."""
    st.empty()


class PhotoError(Exception):
    """A photo that can't be read; the message is for the player."""


@dataclass(frozen=True, eq=False)
class PhotoOutcome:
    """One photo read: its rows of cards, and a small copy of it to draw the boxes on."""

    rows: tuple[tuple[ReadCard, ...], ...]
    display: np.ndarray
    factor: float  # display pixels per photo pixel
    gaps: tuple[tuple[int, ...], ...] = ()  # per row: where a card may be missing


@st.cache_data(max_entries=32, show_spinner=False)
def read_photo(key: str, decks: int, folder: str, _data: bytes, _name: str) -> PhotoOutcome:
    """Read once per photo content (`key`), decks and weights; later runs and later uploads of
    the same photo reuse the result. Raises PhotoError (not cached) for a photo it can't use."""
    try:
        image = open_photo(_data, name=_name)
        photo = load_reader(folder).read(image, decks=decks)
        display, _ = vision_reader.downscale(image.picture(DISPLAY_SIDE), DISPLAY_SIDE)
    except ImageReadError as error:
        raise PhotoError(f"{error}.") from None
    except Exception as error:  # the page must stay usable whatever the reader does
        log.exception("reading %s failed", _name)
        raise PhotoError(
            f"{_name} could not be read ({type(error).__name__}). Try another photo, or type "
            "the cards."
        ) from None
    factor = max(display.shape[:2]) / image.long_side  # the read's boxes are in full pixels
    return PhotoOutcome(rows=photo.piles, display=display, factor=factor, gaps=photo.gaps)


@dataclass(frozen=True, eq=False)
class PhotoRecord:
    """A photo on the table, as the page shows it, and what the reader read in it."""

    name: str
    display: np.ndarray
    factor: float
    reads: tuple[ReadCard, ...]  # every card read, row by row: a link names a read by its place

    @classmethod
    def of(cls, name: str, outcome: PhotoOutcome) -> PhotoRecord:
        reads = tuple(read for row in outcome.rows for read in row)
        return cls(name, outcome.display, outcome.factor, reads)


def photo_key(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:20]


class PhotoStore:
    """The photos read on this server, by key, shared by every session and both games, the
    most recent `size`: a reloaded page, or a table's link opened on another phone, finds its
    photos' boxes and the reader's guesses here."""

    def __init__(self, size: int = 32) -> None:
        self._records: OrderedDict[str, PhotoRecord] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def put(self, key: str, record: PhotoRecord) -> None:
        with self._lock:
            self._records[key] = record
            self._records.move_to_end(key)
            while len(self._records) > self._size:
                self._records.popitem(last=False)

    def get(self, key: str) -> PhotoRecord | None:
        with self._lock:
            return self._records.get(key)


@st.cache_resource(show_spinner=False)
def photo_store() -> PhotoStore:
    return PhotoStore()


def read_at(photo: str, place: int) -> ReadCard | None:
    """The read at `place` of a photo the server still has (for a link's cards)."""
    record = photo_store().get(photo)
    return record.reads[place] if record is not None and place < len(record.reads) else None


def read_index_in(photos: dict[str, PhotoRecord]) -> Callable[[str, ReadCard], int | None]:
    """How a link names a read card: its place among its photo's reads (`photos` first, then
    the server's store)."""

    def read_index(photo: str, read: ReadCard) -> int | None:
        record = photos.get(photo) or photo_store().get(photo)
        if record is None:
            return None
        return next(
            (i for i, known in enumerate(record.reads) if known is read or known == read), None
        )

    return read_index


def photos_on_server(keys: Sequence[str]) -> dict[str, PhotoRecord]:
    """The records of these photos that the server still has."""
    found = {key: photo_store().get(key) for key in keys}
    return {key: record for key, record in found.items() if record is not None}


def read_upload(data: bytes, name: str, decks: int, how: str) -> PhotoOutcome | tuple[str, str]:
    """A photo read, or (kind, message) for the page when it can't be: no reader (the file is
    still checked), a file that isn't a photo, or no cards found (`how` says how to retake it)."""
    reader, why_not = get_reader()
    if reader is None:
        try:
            open_photo(data, name=name).picture(DISPLAY_SIDE)
        except ImageReadError as error:
            return "error", f"{error}."
        return "warning", f"{name}: {why_not}"
    try:
        with st.spinner(f"Reading {name}…"):
            outcome = read_photo(photo_key(data), decks, str(models_dir()), data, name)
    except PhotoError as error:
        return "error", str(error)
    if not any(outcome.rows):
        return "warning", f"No cards found in {name}. {how} and try again; or type the cards."
    return outcome


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
    for pile_index in {pile for pile, _, _ in _marks}:
        length = max(position for pile, position, _ in _marks if pile == pile_index) + 1
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


# ---------------------------------------------------------------------------------------------
# Widget state


def set_widget(key: str, value: Any) -> None:
    """Show `value` in the widget `key` when the table changed it (or the widget is new), and
    otherwise leave what the person typed, e.g. a pile with a typo, for them to fix."""
    shown = f"shown:{key}"
    if key not in st.session_state or st.session_state.get(shown) != value:
        st.session_state[key] = value
        st.session_state[shown] = value


def refuse(error: ts.TableError) -> None:
    text = str(error)
    st.toast(f"{text[:1].upper()}{text[1:]}.", icon="✋")


Game = TypeVar("Game")  # a page's frozen game: a Black Cat table, a Black Lady game
UNDO_DEPTH = 50  # how many changes Undo can take back


@dataclass(frozen=True)
class Undoable(Generic[Game]):
    """A page's game in Session State under `key`, replaced by every change, and the games it
    replaced under `history_key` (the last UNDO_DEPTH), for Undo."""

    key: str
    history_key: str

    def commit(self, new: Game) -> None:
        """`new` becomes the game; the one it replaces goes to the history (unless it is the same
        game: nothing changed)."""
        state = st.session_state
        if new is state[self.key]:
            return
        state[self.history_key] = [*state[self.history_key][-(UNDO_DEPTH - 1) :], state[self.key]]
        state[self.key] = new

    def apply(
        self, operation: Callable[..., Game], *args: Any, after: Callable[[], None] | None = None
    ) -> None:
        """A widget callback: `operation(game, *args)` becomes the game; a refusal becomes a
        toast, never an error page. `after` runs when it worked (e.g. to move a selection)."""
        try:
            new = operation(st.session_state[self.key], *args)
        except ts.TableError as error:
            refuse(error)
            return
        self.commit(new)
        if after is not None:
            after()

    def undo(self) -> None:
        """Back to the game before the last change, if there was one."""
        state = st.session_state
        if state[self.history_key]:
            state[self.key] = state[self.history_key][-1]
            state[self.history_key] = state[self.history_key][:-1]


def confirm_new_game(start: Callable[[], None], what: str, key: str = "new-game") -> None:
    """ "New game" asks once: a tap opens the question, a second tap starts it."""
    with st.popover("New game", key=key):
        st.markdown(f"**Start a new game?** {what}")
        st.button("Yes, a new game", key=f"{key}-yes", type="primary", on_click=start)


def select(key: str, value: int | None) -> Callable[[], None]:
    def selection() -> None:
        st.session_state[key] = value

    return selection


# ---------------------------------------------------------------------------------------------
# Cards in words


def card_name(card: Card) -> str:
    rank = RANK_NAMES.get(card.rank, card.rank.value)
    return f"{card.label} · {card.code} · {rank} of {SUIT_NAMES[card.suit]}"


def chip(card: Card) -> str:
    """A card's label for buttons and pills, in its colour."""
    return card.label if card.is_black else f":red[{card.label}]"


# ---------------------------------------------------------------------------------------------
# Photo input and the photo shown


def reader_note() -> None:
    """Say so when photos can't be read on this server."""
    if not (models_present(models_dir()) and not st.session_state.get("reader_failed")):
        st.info(get_reader()[1] or NO_READER, icon="ℹ️")


def photo_inputs(how: str, camera_label: str, prefix: str = "") -> list[Any]:
    """The uploader (on a phone it also offers the camera), then this device's camera behind a
    toggle; the files they hold now. Widget keys are `uploads:<n>`, `camera_on` and `camera`,
    after `prefix`: the uploader is a new, empty one after every batch of files it gave."""
    generation = st.session_state.get(f"{prefix}upload_generation", 0)
    files = list(
        st.file_uploader(
            f"Upload photos or take one ({ACCEPTED})",
            type=PHOTO_TYPES,
            accept_multiple_files=True,
            key=f"{prefix}uploads:{generation}",
            max_upload_size=MAX_UPLOAD_MB,
            help=how,
        )
        or []
    )
    camera = st.toggle("Use this device's camera here", key=f"{prefix}camera_on")
    if camera:
        shot = st.camera_input(camera_label, key=f"{prefix}camera")
        if shot is not None:
            files.append(shot)
    return files


def take_uploads(
    files: list[Any], add: Callable[[bytes, str], Note], prefix: str = ""
) -> list[tuple[str, Note]]:
    """Each new file given to `add` once, which returns a note on it for the page; the notes of
    the last batch, (file name, note), for the page to show (one line each) until the next
    batch. After a batch the uploader is emptied (the page runs once more without the files),
    so a refused file leaves its line, not a file in the uploader pushing the page down."""
    state = st.session_state
    seen: set[str] = state.setdefault(f"{prefix}files_seen", set())
    new = [upload for upload in files if upload.file_id not in seen]
    if new:
        seen.update(upload.file_id for upload in new)
        state[f"{prefix}upload_notes"] = [
            (upload.name, add(upload.getvalue(), upload.name)) for upload in new
        ]
        if any(upload.file_id and not _is_camera(upload, prefix) for upload in new):
            state[f"{prefix}upload_generation"] = state.get(f"{prefix}upload_generation", 0) + 1
            st.rerun()
    return state.get(f"{prefix}upload_notes", [])


def _is_camera(upload: Any, prefix: str) -> bool:
    shot = st.session_state.get(f"{prefix}camera")
    return shot is not None and shot.file_id == upload.file_id


def notes_box(prefix: str = "") -> Any:
    """Where a page shows its upload notes: compact, one line each."""
    return st.container(key=f"{prefix.replace(':', '-')}upload-notes")


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
    caption = f"{record.name}: the numbers are the card numbers below"
    if st.session_state.get(f"zoom:{key}"):
        # wider than the phone, scrolled sideways: the numbers are readable without pinching
        st.markdown(
            '<div style="overflow-x:auto"><img alt="the photo with numbered cards" '
            f'style="width:260%;max-width:none" src="data:image/jpeg;base64,'
            f'{base64.b64encode(jpeg).decode()}"></div>',
            unsafe_allow_html=True,
        )
        st.caption(caption)
    else:
        st.image(jpeg, caption=caption, width="stretch")
    with st.container(horizontal=True, vertical_alignment="center"):
        st.toggle("Zoom in", key=f"zoom:{key}")
        st.button(
            "Take this photo's cards off",
            key=f"remove-photo:{key}",
            on_click=act,
            args=(ts.remove_photo, key),
            help=f"The wrong photo? Its cards leave the {where} (Undo brings them back)",
        )


# ---------------------------------------------------------------------------------------------
# Correcting cards


def doubtful_prompt(
    act: Act, pile: ts.Pile, position: int, number: str, *, not_a_card: bool = False
) -> None:
    """A card the reader wasn't sure of: keep it, take one of its next guesses, or (with
    `not_a_card`) drop it as no card at all (the reader saw one where there is none), each one
    tap."""
    slot = pile.slots[position]
    sure = f"{slot.read.confidence:.0%}" if slot.read else ""
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        st.markdown(f"**{number}** looks like {chip(slot.card)} ({sure} sure). It is:")
        st.button(
            f"✓ {chip(slot.card)} is right",
            key=f"keep:{pile.id}:{position}",
            on_click=act,
            args=(ts.confirm_card, pile.id, position),
        )
        for guess in slot.alternatives[:2]:
            st.button(
                f"{chip(guess.card)} {guess.probability:.0%}",
                key=f"alt:{pile.id}:{position}:{guess.card.code}",
                on_click=act,
                args=(ts.replace_card, pile.id, position, guess.card),
            )
        if not_a_card:
            st.button(
                "✗ Not a card",
                key=f"not-a-card:{pile.id}:{position}",
                on_click=act,
                args=(ts.delete_card, pile.id, position),
                help=f"There is no card {number} (nothing there, or a card that isn't in the "
                "game): take it off",
            )


# ---------------------------------------------------------------------------------------------
# Tapping the cards of a strip

CARD_TAPS_KEY = "card-taps"
CARD_TAPS_JS = """
export default function (component) {
  // The page's strips are Markdown, redrawn at every run: one listener on the document
  // (installed once) hands a tap on any card with data-bc-pile to the latest mount.
  window.blackcatCardTap = component.setTriggerValue;
  if (window.blackcatCardTapsListening) return;
  window.blackcatCardTapsListening = true;
  document.addEventListener("click", (event) => {
    const card = event.target.closest("[data-bc-pile][data-bc-position]");
    if (!card || !window.blackcatCardTap) return;
    window.blackcatCardTap("tapped", {
      pile: Number(card.dataset.bcPile),
      position: Number(card.dataset.bcPosition),
    });
  });
}
"""
_card_taps = st.components.v2.component("blackcat.card_taps", js=CARD_TAPS_JS)


def listen_for_card_taps(on_tap: Callable[[int, int], None]) -> None:
    """Make the page's card strips tappable: a tap on a card drawn with a `tap` (pile_view)
    runs `on_tap(pile_id, position)` as a callback, before the page is drawn. Once a page."""

    def tapped() -> None:
        tap = (st.session_state.get(CARD_TAPS_KEY) or {}).get("tapped")
        if tap:
            on_tap(int(tap["pile"]), int(tap["position"]))

    _card_taps(key=CARD_TAPS_KEY, on_tapped_change=tapped)


def tap_card(
    piles: Sequence[ts.Pile],
    pile_id: int,
    position: int,
    editor_key: Callable[[int], str],
    move: Callable[[ts.Pile, int, int], None] | None = None,
) -> None:
    """A tap on the card at `position` of the pile `pile_id` (one of `piles`, the page's). The
    first tap picks it and opens its pile's editor (`editor_key(pile_id)`), where its tools are;
    a tap on the picked card lets it go. With `move`, a tap on another card of the picked card's
    pile moves the picked card there (`move(pile, picked, position)`); without, it picks that
    card instead."""
    pile = next((pile for pile in piles if pile.id == pile_id), None)
    if pile is None or position >= len(pile.slots):
        return
    picked = _picked_in(piles)
    if picked is not None and picked[0].id == pile_id and picked[1] != position and move:
        move(pile, picked[1], position)
    elif picked is not None and picked[0].id == pile_id and picked[1] == position:
        _pick(piles, pile, None, editor_key(pile_id))
    else:
        _pick(piles, pile, position, editor_key(pile_id))


def _picked_in(piles: Sequence[ts.Pile]) -> tuple[ts.Pile, int] | None:
    """The pile whose card is picked (tapped), and the card's position; None: none is."""
    for pile in piles:
        position = st.session_state.get(f"sel:{pile.id}")
        if position is not None and position < len(pile.slots):
            return pile, position
    return None


def _pick(piles: Sequence[ts.Pile], pile: ts.Pile, position: int | None, editor_key: str) -> None:
    """Pick the card at `position` of `pile` (None: let go), letting go of any other picked
    card, and open the pile's editor (its expander `editor_key`) where the card's tools are."""
    for other in piles:
        st.session_state[f"sel:{other.id}"] = None
    st.session_state[f"sel:{pile.id}"] = position
    if position is not None:
        st.session_state[editor_key] = True


def pick_slot(act: Act, pile: ts.Pile, label: str, number: Callable[[int], str]) -> int | None:
    """The card of a pile the player tapped (None: none), with the list to say what it really
    is; both games' editors start with it. `number` is how the page numbers a card."""
    sel_key = f"sel:{pile.id}"
    selected = st.session_state.get(sel_key)
    if selected is not None and selected >= len(pile.slots):
        st.session_state[sel_key] = selected = None
    if pile.slots:
        st.pills(
            label,
            list(range(len(pile.slots))),
            format_func=lambda p: f"{number(p)} {chip(pile.slots[p].card)}",
            key=sel_key,
        )
    if selected is not None:
        slot = pile.slots[selected]
        change_card(act, pile.id, selected, f"Card {number(selected)} is", slot)
    return selected


def change_choices(slot: ts.Slot) -> list[Card]:
    """What a card may really be, in the order the list shows them: the card as it is, the
    reader's other guesses, then every other card."""
    first = [slot.card, *(guess.card for guess in slot.alternatives)]
    first = list(dict.fromkeys(first))
    return first + [card for card in ALL_CARDS if card not in first]


def change_card(act: Act, pile_id: int, position: int, label: str, slot: ts.Slot) -> None:
    """A list of all 52 cards to say what the card at `position` really is: it opens at the
    card, with the reader's other guesses right under it."""
    key = f"change:{pile_id}"
    set_widget(key, slot.card)
    guesses = {guess.card: guess.probability for guess in slot.alternatives}

    def name(card: Card) -> str:
        if card in guesses:
            return f"{card_name(card)} · reader's guess {guesses[card]:.0%}"
        return card_name(card)

    st.selectbox(
        label,
        change_choices(slot),
        format_func=name,
        key=key,
        on_change=_on_change_card,
        args=(act, pile_id, position, key),
    )


def _on_change_card(act: Act, pile_id: int, position: int, key: str) -> None:
    card = st.session_state[key]
    if card is not None:
        act(ts.replace_card, pile_id, position, card)


@dataclass(frozen=True)
class Place:
    """Where a tapped card can go: a label for the pill, and the move as a table operation
    (with its arguments after the table)."""

    label: str
    operation: Callable[..., Any]
    args: tuple[Any, ...]


def move_pills(act: Act, pile: ts.Pile, selected: int, label: str, places: Sequence[Place]) -> None:
    """One tap moves the tapped card to its place; the selection then clears."""
    if not places:
        return
    key = f"move:{pile.id}:{selected}"
    st.session_state[key] = None
    st.pills(
        label,
        list(range(len(places))),
        format_func=lambda index: places[index].label,
        key=key,
        on_change=_on_move,
        args=(act, pile.id, key, places),
    )


def _on_move(act: Act, pile_id: int, key: str, places: Sequence[Place]) -> None:
    index = st.session_state[key]
    if index is None:
        return
    place = places[index]
    act(place.operation, *place.args, after=select(f"sel:{pile_id}", None))


def card_picker(pile_id: int) -> Card | None:
    """Rank and suit pills; the card they pick, once both are chosen."""
    st.pills("Rank", list(Rank), format_func=lambda r: r.value, key=f"rank:{pile_id}")
    st.pills(
        "Suit",
        list(Suit),
        format_func=lambda s: s.symbol if s.is_black else f":red[{s.symbol}]",
        key=f"suit:{pile_id}",
    )
    return picked_card(pile_id)


def picked_card(pile_id: int) -> Card | None:
    rank = st.session_state.get(f"rank:{pile_id}")
    suit = st.session_state.get(f"suit:{pile_id}")
    return Card(rank, suit) if rank is not None and suit is not None else None


def add_picked(act: Act, pile: ts.Pile, position: int | None) -> None:
    """The picked card put at `position` (None: at the end); the rank is cleared for the next."""
    card = picked_card(pile.id)
    if card is None:
        st.toast("Pick a rank and a suit first.", icon="✋")
        return
    at = len(pile.slots) if position is None else position
    act(ts.insert_card, pile.id, at, card, after=select(f"sel:{pile.id}", None))
    st.session_state[f"rank:{pile.id}"] = None
