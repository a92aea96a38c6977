"""Photo input for every game's page: the uploader and this device's camera, and one note per
file given."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import streamlit as st
from language import _, key_class, ngettext, tr
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.scriptrunner_utils.exceptions import ScriptControlException

from blackcat.i18n import N_, Translator
from blackcat.tables import black_cat_table as ts
from blackcat.vision.image_io import ACCEPTED, computer_formats

# what the reader reads: phones' photos, and pictures a computer may hold (a .jfif is a JPEG a
# browser saved, a .jpe one from older Windows; AVIF where this Pillow reads it)
PHONE_PHOTO_TYPES = ["jpg", "jpeg", "png", "webp", "heic", "heif"]
PHOTO_TYPES = [
    *PHONE_PHOTO_TYPES,
    *["jfif", "jpe", "gif", "bmp", "tif", "tiff"],
    *(["avif"] if "AVIF" in computer_formats() else []),
]
MAX_UPLOAD_MB = 100

Note = TypeVar("Note")  # what a page keeps about each uploaded file
Shown = TypeVar("Shown")  # whose photos a page's uploader takes: a seat, a player's id


def photo_inputs(
    how: str, camera_label: str, prefix: str = "", disabled: bool = False
) -> list[Any]:
    """The uploader (on a phone it also offers the camera), then this device's camera behind a
    toggle (both `disabled` until the page may take a photo); the files they hold now. Widget
    keys are `uploads:<n>`, `camera_on` and `camera`, after `prefix`: the uploader is a new,
    empty one after every batch of files it gave."""
    generation = st.session_state.get(f"{prefix}upload_generation", 0)
    files = list(
        st.file_uploader(
            _("Upload photos or take one ({formats})").format(formats=_(ACCEPTED)),
            type=PHOTO_TYPES,
            accept_multiple_files=True,
            key=f"{prefix}uploads:{generation}",
            max_upload_size=MAX_UPLOAD_MB,
            help=how,
            disabled=disabled,
        )
        or []
    )
    listen_for_refusals(f"{prefix}uploads:{generation}", prefix)
    camera = st.toggle(
        _("Use this device's camera here"), key=f"{prefix}camera_on", disabled=disabled
    )
    if camera and not disabled:
        shot = st.camera_input(camera_label, key=f"{prefix}camera")
        if shot is not None:
            files.append(shot)
    return files


@dataclass(frozen=True)
class StreamlitWords:
    """Words Streamlit writes on its photo widgets and its page, in English whatever the page's
    language: where they stand (a CSS selector; the testids are Streamlit's), their font size,
    and the words to show there instead, written after what stands there (or `before` it).
    `words` is Streamlit's own English where that is kept in English; `ours`: words of our own,
    shown in every language. `taken_out`: an element within `where` holding Streamlit's words,
    taken out of the page (words only made invisible are still read by a screen reader, before
    ours)."""

    where: str
    font_size: str
    words: str
    before: bool = False
    ours: bool = False
    unhidden: bool = False  # Streamlit hides the element from sight (a reason kept for hovering)
    taken_out: str = ""


_CAMERA = '[data-testid="stCameraInputButton"]'
_CAMERA_NOT_ALLOWED = '[data-testid="stCameraInputWebcamComponent"] p'
STREAMLIT_WORDS = (
    StreamlitWords(
        '[data-testid="stFileUploaderDropzone"] [data-testid="stBaseButton-secondary"] p',
        ".875rem",
        N_("Upload"),
    ),
    # instead of Streamlit's "100MB per file" and every file type the uploader takes
    StreamlitWords(
        '[data-testid="stFileUploaderDropzoneInstructions"] > div',
        ".875rem",
        N_("Up to {size} MB a photo"),
        ours=True,
        taken_out="span",
    ),
    # a file the uploader refused (of another type, or too large): its reason beside it, not
    # only on hovering (Streamlit's: "application/pdf files are not allowed.")
    StreamlitWords(
        '[data-testid="stFileChip"][aria-invalid="true"] [role="alert"]',
        ".75rem",
        N_("Not a photo we can read: use a {formats} photo of at most {size} MB."),
        ours=True,
        unhidden=True,
    ),
    StreamlitWords(f"{_CAMERA}:not(:has(span))", "1rem", N_("Take Photo")),  # the camera on
    StreamlitWords(f"{_CAMERA} span", "1rem", N_("Clear photo")),  # a photo taken: a cross, then
    # the camera not allowed: a request, and a link to Streamlit's help after it
    StreamlitWords(
        _CAMERA_NOT_ALLOWED, "1rem", N_("This app would like to use your camera."), before=True
    ),
    StreamlitWords(f"{_CAMERA_NOT_ALLOWED} a", "1rem", N_("Learn how to allow access.")),
    # the page's first link, shown when the keyboard comes to it (a selector above Streamlit's
    # own for it then, which sets its font size)
    StreamlitWords('a[data-testid="stSkipToContent"][href]', ".875rem", N_("Skip to main content")),
)


def css_string(text: str) -> str:
    """`text` as a quoted CSS string."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# what undoes Streamlit's hiding of an element from sight (`StreamlitWords.unhidden`: a
# refused file's reason), in a refusal's red (6:1 on the chip's pink)
UNHIDDEN = (
    "position: static; display: block; width: auto; height: auto; margin: 0; clip: auto; "
    "clip-path: none; overflow: visible; white-space: normal; color: #b71c1c; "
)


def streamlit_words_css(tr: Translator, max_upload_mb: int = MAX_UPLOAD_MB) -> str:
    """A style sheet that shows our words over Streamlit's on the photo widgets
    (`STREAMLIT_WORDS`): its English in `tr`'s language, and our own words anywhere."""
    rules = []
    for shown in STREAMLIT_WORDS:
        said = tr.gettext(shown.words)
        if said == shown.words and not shown.ours:
            continue  # Streamlit's own English, kept
        said = said.format(size=max_upload_mb, formats=tr.gettext(ACCEPTED))
        text = css_string(f"{said} " if shown.before else said)  # a space before the rest
        place = "before" if shown.before else "after"
        seen = UNHIDDEN if shown.unhidden else ""
        taken_out = f"{shown.where} {shown.taken_out} {{ display: none; }}\n"
        rules.append(
            (taken_out if shown.taken_out else "")
            + f"{shown.where} {{ {seen}font-size: 0; }}\n{shown.where}::{place} "
            f"{{ content: {text}; font-size: {shown.font_size}; }}"
        )
    return "<style>\n" + "\n".join(rules) + "\n</style>"


BUTTON_WORDS = frozenset(
    {N_("Upload"), N_("Take Photo"), N_("Clear photo"), N_("Skip to main content")}
)
"""The `STREAMLIT_WORDS` that stand on buttons (and the skip link)."""


def button_names(tr: Translator) -> list[list[str]]:
    """Each photo widget's button (a CSS selector within it) and its name in `tr`'s language:
    the words `streamlit_words_css` shows on it (a screen reader would read "UploadSubir",
    Streamlit's English and ours)."""
    return [
        [shown.where, tr.gettext(shown.words)]
        for shown in STREAMLIT_WORDS
        if shown.words in BUTTON_WORDS
    ]


def take_uploads(
    files: list[Any], add: Callable[[bytes, str], Note], prefix: str = ""
) -> list[tuple[str, Note]]:
    """Each new file given to `add` once, which returns a note on it for the page; the notes of
    the last batch, (file name, note), for the page to show (`show_note`) until the next
    batch. After a batch the uploader is emptied (the page runs once more without the files),
    so a refused file leaves its line, not a file in the uploader pushing the page down."""
    state = st.session_state
    seen: set[str] = state.setdefault(f"{prefix}files_seen", set())
    new = [upload for upload in files if upload.file_id not in seen]
    if new:
        state.pop(refused_key(prefix), None)  # an earlier gesture's (this one's come after)
        ids = {upload.file_id for upload in new}
        seen.update(ids)
        try:
            state[notes_key(prefix)] = [
                (upload.name, add(upload.getvalue(), upload.name)) for upload in new
            ]
        except ScriptControlException:  # a rerun cut the run short: the next run takes them
            seen.difference_update(ids)  # (a photo read is cached: no second read)
            raise
        uploaded = [upload for upload in new if upload.file_id and not _is_camera(upload, prefix)]
        if uploaded:
            let_go_of(uploaded)
            state[f"{prefix}upload_generation"] = state.get(f"{prefix}upload_generation", 0) + 1
            st.rerun()
    return state.get(notes_key(prefix), [])


def given_for(
    files: Sequence[Any], shown: Shown, choices: Collection[Shown], prefix: str = ""
) -> Shown:
    """Whose photos the new files among `files` (held by the uploader and camera of `prefix`)
    are: the seat or player the page showed with them when they were given. A tap on another
    one just after a photo comes in the run that brings the photo (the photo's own run cut
    short by it, or never begun): the photo is still that of the one shown before, the last run
    without new files (while it is still one of `choices`). Without new files, `shown` is
    remembered for the next ones."""
    state = st.session_state
    key = f"{prefix}upload_for"
    seen: set[str] = state.get(f"{prefix}files_seen", set())
    if any(upload.file_id not in seen for upload in files):
        before = state.get(key, shown)
        return before if before in choices else shown
    state[key] = shown
    return shown


def left_behind(prefix: str = "") -> list[Any]:
    """The files a page's uploader and camera (`photo_inputs` of `prefix`) still hold in a run
    that doesn't show them: given just before the player switched to another panel, the run
    that would have read them cut short by the switch, or never begun. Their widgets, and the
    files with them, are gone after this run unless `take_uploads` reads them now."""
    state = st.session_state
    generation = state.get(f"{prefix}upload_generation", 0)
    files = list(state.get(f"{prefix}uploads:{generation}") or [])
    shot = state.get(f"{prefix}camera") if state.get(f"{prefix}camera_on") else None
    return files if shot is None else [*files, shot]


def let_go_of(uploads: Sequence[Any]) -> None:
    """The uploader's files, read, out of Streamlit's store of uploads (the uploader that held
    them is gone after the rerun). Streamlit keeps a session's files until the session shuts
    down, and the session of a tab reloaded or put away never does (1.67 keeps it for a
    reconnect, then drops it as it is): a night's photos, 2-5 MB each, stayed all night."""
    context = get_script_run_ctx()
    if context is not None:
        drop_files(context.uploaded_file_mgr, context.session_id, [u.file_id for u in uploads])


def drop_files(manager: Any, session_id: str, file_ids: Sequence[str]) -> None:
    """The files out of `manager`, where it can let go of one (Streamlit's in-memory one)."""
    remove = getattr(manager, "remove_file", None)
    if remove is None:
        return
    for file_id in file_ids:
        remove(session_id=session_id, file_id=file_id)


def notes_key(prefix: str = "") -> str:
    """Where a page keeps the notes of its last batch of uploads (`take_uploads`)."""
    return f"{prefix}upload_notes"


def forget_notes(prefix: str = "") -> None:
    """The notes on the last batch of uploads of `prefix`, and on the files its uploader
    refused, gone (they spoke of what that panel did)."""
    for key in (notes_key(prefix), refused_key(prefix)):
        st.session_state.pop(key, None)


# ---------------------------------------------------------------------------------------------
# Files the uploader refused in the browser
#
# Streamlit's uploader refuses a file of another type, or over its size, in the browser: the
# server never hears of it, and the refusal shown by the file went with the emptied uploader
# once the photos given with it were read (`take_uploads`): a PDF given with two photos
# vanished, never said to be unread. The browser says here which files it refuses.

WRONG_TYPE = N_("{name} was not read: it is not a photo. Upload a {formats} photo instead.")
TOO_LARGE = N_(
    "{name} was not read: it is over {size} MB. Upload a smaller copy of the photo, or take it "
    "again at the camera's usual size."
)


@dataclass(frozen=True)
class Refused:
    """A file the uploader refused in the browser: of another type, or over `MAX_UPLOAD_MB`."""

    name: str
    too_large: bool = False

    def words(self) -> str:
        """What its note says, in the page's language: not read, and what to upload instead."""
        if self.too_large:
            return _(TOO_LARGE).format(name=self.name, size=MAX_UPLOAD_MB)
        return _(WRONG_TYPE).format(name=self.name, formats=_(ACCEPTED))


@dataclass(frozen=True)
class Refusals:
    """What the browser says of a gesture that gave the uploader files (`REFUSALS_JS`): the
    files it refused, and whether it took any (then on their way to the server)."""

    files: tuple[Refused, ...] = ()
    took_some: bool = False

    @classmethod
    def of(cls, report: object) -> Refusals:
        """`{"files": [{"name": ..., "tooLarge": ...}], "taken": 2}`; anything else in the
        report is no file."""
        if not isinstance(report, dict):
            return cls()
        files = report.get("files")
        return cls(
            tuple(
                Refused(str(item["name"]), bool(item.get("tooLarge")))
                for item in (files if isinstance(files, list) else [])
                if isinstance(item, dict) and isinstance(item.get("name"), str)
            ),
            bool(report.get("taken")),
        )

    @property
    def empties_uploader(self) -> bool:
        """Whether the uploader is to be emptied of the files at once: refused, every one
        (its own red line by each said the same as their notes); a photo given with them is
        on its way, and its batch empties it once read (`take_uploads`)."""
        return bool(self.files) and not self.took_some


def refused_key(prefix: str = "") -> str:
    """Where a page keeps the files its uploader last refused (`listen_for_refusals`)."""
    return f"{prefix}refused_files"


REFUSALS_JS = """
export default function (component) {
  // Each uploader is known by its class (Streamlit's for its key): a gesture that gives it
  // files (chosen, or dropped on it) says which it refuses, as Streamlit's uploader does
  // (a name of another ending and a type no image's, a size over its limit). Said at once
  // where it took none; else once the photos it took are read (the uploader replaced by an
  // empty one): a page run while they were uploading lost them, half the time.
  const { uploader, panel, types, maxBytes } = component.data;
  window.blackcatRefusals = window.blackcatRefusals || {};
  window.blackcatRefusalsLater = window.blackcatRefusalsLater || {};
  window.blackcatRefusals[uploader] = {
    say: component.setTriggerValue,
    panel,
    endings: types.split(",").map((type) => "." + type),
    maxBytes: Number(maxBytes),
  };
  // said once no run is drawing the page: said during one, the page's fields not yet drawn
  // anew went with it as they were, and the example's pile and name, there before the
  // photos, were typed over the photos' player (a fresh server's first page)
  window.blackcatSayWhenDrawn = (say, refusals) => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (app && app.dataset.testScriptState === "running") {
      setTimeout(() => window.blackcatSayWhenDrawn(say, refusals), 100);
    } else {
      say("refused", refusals);
    }
  };
  const later = window.blackcatRefusalsLater[panel];
  if (later && later.uploader !== uploader) {
    delete window.blackcatRefusalsLater[panel];
    const refusals = { files: later.files, taken: later.taken };
    setTimeout(() => window.blackcatSayWhenDrawn(component.setTriggerValue, refusals), 100);
  }
  if (window.blackcatRefusalsListening) return;
  window.blackcatRefusalsListening = true;
  const DROPZONE = '[data-testid="stFileUploaderDropzone"]';
  const report = (target, files) => {
    const holder = target.closest && target.closest('[class*="st-key-"]');
    if (!holder || !files) return;
    const name = [...holder.classList].find((name) => window.blackcatRefusals[name]);
    if (!name) return;
    const uploader = window.blackcatRefusals[name];
    const refused = [];
    let taken = 0;
    for (const file of files) {
      const fileName = file.name.toLowerCase();
      const ours = uploader.endings.some((ending) => fileName.endsWith(ending));
      if (!ours && !(file.type || "").toLowerCase().startsWith("image/")) {
        refused.push({ name: file.name, tooLarge: false });
      } else if (file.size > uploader.maxBytes) {
        refused.push({ name: file.name, tooLarge: true });
      } else {
        taken += 1;
      }
    }
    if (!refused.length) return;
    if (taken) {
      window.blackcatRefusalsLater[uploader.panel] = { uploader: name, files: refused, taken };
    } else {
      window.blackcatSayWhenDrawn(uploader.say, { files: refused, taken });
    }
  };
  document.addEventListener(
    "change",
    (event) => {
      const input = event.target;
      if (input.matches && input.matches('[data-testid="stFileUploaderDropzoneInput"]')) {
        report(input, input.files);
      }
    },
    true,
  );
  document.addEventListener(
    "drop",
    (event) => {
      const zone = event.target.closest && event.target.closest(DROPZONE);
      if (zone && event.dataTransfer) report(zone, event.dataTransfer.files);
    },
    true,
  );
}
"""
_refusals = st.components.v2.component("blackcat.upload_refusals", js=REFUSALS_JS)


def listen_for_refusals(uploader_key: str, prefix: str = "") -> None:
    """The files the uploader `uploader_key` refuses in the browser, kept for its notes
    (`notes_box`) until the next files it takes are read (`take_uploads`)."""
    state = st.session_state

    def refused() -> None:
        refusals = Refusals.of((state.get(f"{prefix}refusals") or {}).get("refused"))
        state[refused_key(prefix)] = refusals.files
        if refusals.empties_uploader:
            state[f"{prefix}upload_generation"] = state.get(f"{prefix}upload_generation", 0) + 1

    data = {
        "uploader": key_class(uploader_key),
        "panel": prefix,
        "types": ",".join(PHOTO_TYPES),
        "maxBytes": str(MAX_UPLOAD_MB * 1024 * 1024),
    }
    _refusals(key=f"{prefix}refusals", data=data, on_refused_change=refused)


def _is_camera(upload: Any, prefix: str) -> bool:
    shot = st.session_state.get(f"{prefix}camera")
    return shot is not None and shot.file_id == upload.file_id


@contextmanager
def notes_box(prefix: str = "") -> Iterator[Any]:
    """Where a page shows its upload notes (`show_note`): compact, each note whole; after
    them, one on each file the uploader last refused (`listen_for_refusals`)."""
    with st.container(key=notes_box_key(prefix)) as box:
        yield box
        for refused in st.session_state.get(refused_key(prefix), ()):
            show_note("error", refused.words(), refused.name)


def notes_box_key(prefix: str = "") -> str:
    return f"{prefix.replace(':', '-')}upload-notes"


NAME_MARK = "\N{OBJECT REPLACEMENT CHARACTER}"  # in a note: where a player's current name goes
BREAK_AFTER = "_"  # where a camera's file name (PXL_20240512_183512345.jpg) may break a line
ZERO_WIDTH_SPACE = "\u200b"


def taken_twice_words(table: ts.Table, photo: str, on_top: Collection[str] = ()) -> str | None:
    """What a photo's note says while another photo on the page holds the same piles
    (`ts.photo_taken_twice`): take one photo's cards off, and where a photo not on the screen
    is (`elsewhere_words`). None while none does."""
    twice = ts.photo_taken_twice(table, photo)
    other = None if twice is None else photo_words(twice[0])
    if twice is None or other is None:
        return None
    said = ngettext(
        "{count} of its cards is on the table already, read from {other}: the same piles "
        "photographed twice? Take one photo's cards off (the button under each photo).",
        "{count} of its cards are on the table already, read from {other}: the same piles "
        "photographed twice? Take one photo's cards off (the button under each photo).",
        twice[1],
    ).format(count=twice[1], other=other)
    return " ".join([said, *elsewhere_words(table, (photo, twice[0]), on_top)])


def photographed_twice_words(
    twice: ts.PhotographedTwice, table: ts.Table, on_top: Collection[str] = ()
) -> str:
    """What the page's warning of cards on the table too often says of the cards two photos of
    the same piles hold (`ts.duplicate_causes`): take one photo's cards off; none is misread,
    and *Two decks* would only hide the doubling."""
    first, second = (photo_words(photo) for photo in twice.photos)
    said = _(
        "**The same piles are photographed twice, in {first} and {second}:** the cards in both "
        "count twice. Take one photo's cards off (the button under each photo)."
    ).format(first=first, second=second)
    return " ".join([said, *elsewhere_words(table, twice.photos, on_top)])


def elsewhere_words(table: ts.Table, photos: Sequence[str], on_top: Collection[str]) -> list[str]:
    """Where to find each of `photos` that the page doesn't show now, and the button under it:
    a photo shows above the piles while it is one of `on_top` (the photos of the whole table,
    on their panel), else with the piles of a player holding its cards, once they are chosen
    (the whole table's note on a photo of Ann's piles sent Cat to a button under each photo,
    and no other photo was on the screen)."""
    shown = st.session_state.get("player")
    said = []
    for photo in photos:
        holders = [player for player in table.players if photo in ts.photos_of(player)]
        name = photo_words(photo)
        if photo in on_top or not holders or name is None:
            continue
        if any(player.id == shown for player in holders):
            continue
        said.append(
            _("To see {photo} and its button, choose {player} under *Whose piles*.").format(
                photo=name, player=as_written(holders[0].name)
            )
        )
    return said


def photo_words(photo: str) -> str | None:
    """A photo's name as a note names it, in Markdown (None: a photo the page no longer has)."""
    record = st.session_state.get("photos", {}).get(photo)
    return None if record is None else breakable(as_written(record.shown_name(tr())))


def breakable(name: str) -> str:
    """A file name that a narrow screen may break after each underscore, as it breaks after a
    hyphen, instead of in the middle of a run of digits or letters."""
    return name.replace(BREAK_AFTER, BREAK_AFTER + ZERO_WIDTH_SPACE)


MARKDOWN_SIGNS = frozenset("\\`*_[]|<>~$:")
"""What Streamlit's Markdown takes for markup anywhere in a line: emphasis, code, links, tables,
tags, strikethrough, mathematics ($) and its own `:emoji:` and `:red[colours]`."""
LINE_START = re.compile(r"^([#>+=-]|\d+[.)])")
"""What it takes for markup at a line's start (a note's first words are the file's name): a
heading, a quote, a list item."""


def as_written(text: str) -> str:
    """`text` shown in Markdown as it is written (each sign of markup escaped)."""
    escaped = "".join("\\" + sign if sign in MARKDOWN_SIGNS else sign for sign in text)
    # the start's last sign escaped: "\#", "12\."
    return LINE_START.sub(lambda start: start[1][:-1] + "\\" + start[1][-1], escaped, count=1)


def note_text(message: str, name: str) -> str:
    """An upload note's Markdown: the file's name as it is written, breakable after its
    underscores ("*draft* [1].jpg" is no emphasis or link, "$5 $6.jpg" no mathematics)."""
    return message.replace(name, breakable(as_written(name)))


def show_note(kind: str, message: str, name: str) -> None:
    """One upload note (`kind`: success, info, warning or error) about the file `name`."""
    getattr(st, kind)(note_text(message, name))


BLURRED = N_(
    "The photo looks blurred: if cards are wrong, hold the phone still, let it focus and take it "
    "again."
)


GRID = N_(
    "Some piles lie in a grid of cards overlapping both ways, which reads as rows as well as "
    "columns: check that each pile holds its own cards, or lay the piles apart and take the "
    "photo again."
)


NO_ROW = N_(
    "Some cards lie in no row, scattered or fanned: they are counted, not ordered, and no card "
    "is said to be missing among them."
)


def read_note(
    kind: str,
    text: str,
    wants_sharper_photo: bool,
    unread_places: int = 0,
    grid: bool = False,
    no_row: bool = False,
) -> tuple[str, str]:
    """A note on a photo just read: as it is, or a warning that asks for a sharper photo where
    the photo looks blurred and something in it is unsure (`PhotoRead.wants_sharper_photo`),
    for a closer one where places show cards too small to read (`unread_places` of them,
    `PhotoRead.unread_places`): whole piles may be missing there, and for a look at the piles
    where some lie in a grid that reads as rows as well as columns (`grid`,
    `PhotoRead.rows_or_columns`). Where some piles' cards lie in no row (`no_row`,
    `PhotoRead.in_no_row`) it says they are counted, not ordered, the note's kind kept: nothing
    to retake."""
    if wants_sharper_photo:
        kind, text = "warning", f"{text} {_(BLURRED)}"
    if unread_places:
        closer = ngettext(
            "Cards may be missing: {count} place in the photo shows cards too small to read. "
            "Take the photo closer, at the camera's full resolution.",
            "Cards may be missing: {count} places in the photo show cards too small to read. "
            "Take the photo closer, at the camera's full resolution.",
            unread_places,
        )
        kind, text = "warning", f"{text} {closer.format(count=unread_places)}"
    if grid:
        kind, text = "warning", f"{text} {_(GRID)}"
    if no_row:
        text = f"{text} {_(NO_ROW)}"
    return kind, text


@dataclass(frozen=True)
class ReadSummary:
    """What a note on a photo just read says of the read, whenever it is written: how many
    cards in how many piles, and what `read_note` warns of (no copy of the photo kept)."""

    cards: int
    piles: int
    sharper: bool  # `PhotoRead.wants_sharper_photo`
    unread_places: int
    grid: bool  # some piles read as rows as well as columns
    no_row: bool = False  # some piles' cards lie in no row: counted, not ordered

    def note(self, kind: str, text: str) -> tuple[str, str]:
        """`text` with the warnings the read calls for (`read_note`)."""
        return read_note(kind, text, self.sharper, self.unread_places, self.grid, self.no_row)


def cards_and_piles(table: ts.Table, photo: str) -> dict[str, str]:
    """A photo's cards and piles in words, as the table holds them now (a pile given on, a card
    that was no card taken off): `{"cards": "5 cards", "piles": "2 piles"}`, for a note's
    "{name}: {cards} in {piles}, given to {players}."."""
    piles = ts.photo_piles(table, photo)
    cards = sum(1 for _player, _index, pile in piles for slot in pile.slots if slot.photo == photo)
    return {
        "cards": ngettext("{count} card", "{count} cards", cards).format(count=cards),
        "piles": ngettext("{count} pile", "{count} piles", len(piles)).format(count=len(piles)),
    }


def check_words(doubtful: int) -> str:
    """What a note on a photo just read asks: the numbers against the cards, and the cards in
    orange while `doubtful` (how many are left) is not 0."""
    if not doubtful:
        return _("Check the numbers on the photo against the cards.")
    return ngettext(
        "Check the numbers on the photo against the cards, and fix the card in orange.",
        "Check the numbers on the photo against the cards, and fix the {count} cards in orange.",
        doubtful,
    ).format(count=doubtful)
