"""The notes every game's page shows on a photo just read (`app/photo_input.py`)."""

from __future__ import annotations

import io
import re

import numpy as np
import photo_input
import reader_access
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.runtime.uploaded_file_manager import UploadedFileRec
from streamlit.testing.v1 import AppTest

from blackcat.i18n import translator
from blackcat.vision.image_io import open_photo


def test_a_blurred_unsure_photo_turns_its_note_into_a_warning_asking_for_a_sharper_one() -> None:
    kind, text = photo_input.read_note("success", "a.jpg: 12 cards.", wants_sharper_photo=True)
    assert kind == "warning"
    assert text.startswith("a.jpg: 12 cards. The photo looks blurred")


def test_a_warning_stays_a_warning_and_a_sharp_photos_note_is_kept() -> None:
    assert photo_input.read_note("warning", "x", wants_sharper_photo=True)[0] == "warning"
    assert photo_input.read_note("success", "a.jpg: 12 cards.", wants_sharper_photo=False) == (
        "success",
        "a.jpg: 12 cards.",
    )


def test_places_too_small_to_read_ask_for_a_closer_photo_after_any_other_note() -> None:
    kind, text = photo_input.read_note("success", "a.jpg: 3 cards.", False, unread_places=2)
    assert kind == "warning"
    assert text.startswith("a.jpg: 3 cards. Cards may be missing: 2 places")
    kind, text = photo_input.read_note("success", "a.jpg: 3 cards.", True, unread_places=1)
    assert "looks blurred" in text and text.endswith("full resolution.") and "1 place " in text
    assert photo_input.read_note("info", "x", False, unread_places=0) == ("info", "x")


def test_piles_of_a_grid_ask_for_a_look_after_any_other_note() -> None:
    kind, text = photo_input.read_note("success", "a.jpg: 6 cards.", False, grid=True)
    assert kind == "warning"
    assert text.startswith("a.jpg: 6 cards. Some piles lie in a grid of cards")
    kind, text = photo_input.read_note("success", "a.jpg: 6 cards.", True, 1, grid=True)
    assert "looks blurred" in text and "1 place " in text and text.endswith("photo again.")
    assert photo_input.read_note("info", "x", False, 0, grid=False) == ("info", "x")


def test_cards_in_no_row_are_said_counted_not_ordered_the_notes_kind_kept() -> None:
    kind, text = photo_input.read_note("success", "a.jpg: 6 cards.", False, no_row=True)
    assert kind == "success"
    assert text == (
        "a.jpg: 6 cards. Some cards lie in no row, scattered or fanned: they are counted, not "
        "ordered, and no card is said to be missing among them."
    )
    kind, text = photo_input.read_note("success", "a.jpg: 6 cards.", True, no_row=True)
    assert kind == "warning" and "looks blurred" in text and text.endswith("among them.")
    summary = photo_input.ReadSummary(6, 2, False, 0, False, no_row=True)
    assert summary.note("success", "x")[1].startswith("x Some cards lie in no row")
    assert photo_input.read_note("info", "x", False, no_row=False) == ("info", "x")


def test_streamlit_words_on_the_photo_widgets_are_shown_in_the_pages_language() -> None:
    css = photo_input.streamlit_words_css(translator("es"), max_upload_mb=100)
    assert css.startswith("<style>") and css.endswith("</style>")
    for shown in photo_input.STREAMLIT_WORDS:
        assert f"{shown.where} {{ " in css and css.count(f"{shown.where}::") == 1
    assert css.count("font-size: 0; }") == len(photo_input.STREAMLIT_WORDS)  # Streamlit's hidden
    assert '::after { content: "Subir"; font-size: .875rem; }' in css
    assert 'content: "Hasta 100 MB por foto"' in css
    assert 'content: "Hacer la foto"' in css and 'content: "Borrar la foto"' in css
    # the request comes before the link inside the same paragraph, a space between them
    assert 'p::before { content: "Esta página quiere usar la cámara. "' in css
    assert 'p a::after { content: "Cómo permitirlo."' in css
    refused = '"No es una foto que podamos leer: usa una foto JPEG, PNG, WebP o HEIC de 100 MB'
    assert refused in css


def test_a_refused_files_reason_is_shown_beside_it_in_every_language() -> None:
    css = photo_input.streamlit_words_css(translator("en"), max_upload_mb=100)
    reason = '[data-testid="stFileChip"][aria-invalid="true"] [role="alert"]'
    assert f"{reason} {{ {photo_input.UNHIDDEN}font-size: 0; }}" in css  # Streamlit hides it
    words = "Not a photo we can read: use a JPEG, PNG, WebP or HEIC photo of at most 100 MB."
    assert f'{reason}::after {{ content: "{words}"' in css


def test_in_english_streamlits_words_stay_but_the_upload_limit_is_said_as_ours() -> None:
    css = photo_input.streamlit_words_css(translator("en"), max_upload_mb=50)
    assert 'content: "Up to 50 MB a photo"' in css  # not Streamlit's list of every file type
    assert css.count("content:") == 2  # and a refused file's reason (below)


def test_the_uploader_takes_every_kind_of_picture_the_reader_reads() -> None:
    from pillow_heif import register_heif_opener

    register_heif_opener()  # writes HEIC (the player's install only reads it)
    jpeg = {"jpg": "JPEG", "jpeg": "JPEG", "jfif": "JPEG", "jpe": "JPEG"}
    written_as = {**jpeg, "tif": "TIFF", "heic": "HEIF"}
    for kind in photo_input.PHOTO_TYPES:
        picture = Image.new("RGB", (160, 120), (200, 30, 30))
        data = io.BytesIO()
        picture.save(data, format=written_as.get(kind, kind.upper()))
        photo = open_photo(data.getvalue(), name=f"piles.{kind}")
        assert photo.size == (160, 120), kind
        assert photo.picture().shape == (120, 160, 3), kind


def test_words_in_a_style_sheet_keep_their_quotes_and_backslashes() -> None:
    assert photo_input.css_string('say "hi"') == '"say \\"hi\\""'
    assert photo_input.css_string("a\\b") == '"a\\\\b"'


@given(st.text(min_size=1).filter(lambda name: photo_input.ZERO_WIDTH_SPACE not in name))
def test_a_file_name_shows_in_a_note_as_it_is_written(name: str) -> None:
    text = photo_input.note_text(f"{name}: 6 cards in 2 piles.", name)
    unescaped = re.sub(r"\\(.)", r"\1", text.replace(photo_input.ZERO_WIDTH_SPACE, ""), flags=re.S)
    assert unescaped == f"{name}: 6 cards in 2 piles."
    markup = r"(?<!\\)[*_`\[\]$<>|~]"  # every sign of markup in the name is escaped
    assert not re.search(markup, text.removesuffix(": 6 cards in 2 piles."))
    assert not re.match(r"[#>+=-]|\d+[.)]", text)  # nor a heading, quote or list at its start


def test_a_file_name_with_markup_is_no_emphasis_link_or_mathematics() -> None:
    text = photo_input.note_text(
        "*draft* [1](x) $5 :red[6].jpg: read.", "*draft* [1](x) $5 :red[6].jpg"
    )
    assert text == r"\*draft\* \[1\](x) \$5 \:red\[6\].jpg: read."
    assert photo_input.note_text("# 1. jpg: read", "# 1. jpg") == r"\# 1. jpg: read"
    assert photo_input.note_text("12. jpg: read", "12. jpg") == r"12\. jpg: read"


def test_a_read_whose_cards_lie_in_no_row_notes_it_and_a_read_in_rows_does_not() -> None:
    def outcome(in_no_row: tuple[bool, ...]) -> reader_access.PhotoOutcome:
        return reader_access.PhotoOutcome(
            (),
            reader_access.DisplayCopy.of(np.zeros((2, 2, 3), np.uint8)),
            1.0,
            in_no_row=in_no_row,
        )

    assert outcome((False, True)).summary().no_row
    assert not outcome((False, False)).summary().no_row
    assert not outcome(()).summary().no_row


def test_files_read_are_let_go_of_by_streamlits_store_of_uploads() -> None:
    """A session whose tab went away kept every photo it was given (Streamlit lets a session's
    files go only when it shuts down): they go once read, the others stay."""
    manager = MemoryUploadedFileManager("/upload")
    for file_id in ("read", "other"):
        manager.add_file("page", UploadedFileRec(file_id, f"{file_id}.jpg", "image/jpeg", b"x"))
    manager.add_file("another page", UploadedFileRec("read", "read.jpg", "image/jpeg", b"x"))
    photo_input.drop_files(manager, "page", ["read"])
    assert [f.file_id for f in manager.get_files("page", ["read", "other"])] == ["other"]
    assert len(manager.get_files("another page", ["read"])) == 1


def test_a_store_of_uploads_that_cannot_let_go_of_a_file_is_left_as_it_is() -> None:
    photo_input.drop_files(object(), "page", ["read"])  # no error: nothing to do


def cut_short_once() -> None:
    """A page whose first photo's run a rerun cuts short (another phone's change, a tap)."""
    import photo_input
    import streamlit as st
    from streamlit.runtime.scriptrunner_utils.exceptions import RerunException
    from streamlit.runtime.scriptrunner_utils.script_requests import RerunData

    given = st.session_state.setdefault("given", [])

    def add(data: bytes, name: str) -> str:
        given.append(name)
        if len(given) == 1:
            raise RerunException(RerunData())
        return f"{name}: {len(data)} bytes"

    for _name, note in photo_input.take_uploads(photo_input.photo_inputs("how", "camera"), add):
        st.write(note)


def test_a_photo_whose_run_a_rerun_cut_short_is_taken_by_the_next_run() -> None:
    at = AppTest.from_function(cut_short_once).run()
    at.file_uploader[0].upload("a.jpg", b"12345", "image/jpeg")
    at.run()
    assert not at.exception
    assert at.session_state["given"] == ["a.jpg", "a.jpg"]
    assert [m.value for m in at.markdown] == ["a.jpg: 5 bytes"]


def test_a_file_the_uploader_refused_is_named_and_said_what_to_upload_instead() -> None:
    report = {"files": [{"name": "rules.pdf"}, {"name": "big.jpg", "tooLarge": True}], "taken": 0}
    pdf, huge = photo_input.Refusals.of(report).files
    assert pdf.words() == (
        "rules.pdf was not read: it is not a photo. Upload a JPEG, PNG, WebP or HEIC photo instead."
    )
    assert huge.words().startswith("big.jpg was not read: it is over 100 MB. Upload a smaller")


def test_the_uploader_is_emptied_of_refused_files_unless_photos_came_with_them() -> None:
    alone = photo_input.Refusals.of({"files": [{"name": "rules.pdf"}], "taken": 0})
    assert alone.empties_uploader  # its red line by the file said what the note says
    # the photos given with it, still on their way, are the uploader's to empty once read
    given_with_photos = photo_input.Refusals.of({"files": [{"name": "rules.pdf"}], "taken": 2})
    assert given_with_photos.files and not given_with_photos.empties_uploader
    assert not photo_input.Refusals.of({"files": [], "taken": 1}).empties_uploader


def test_a_report_of_refused_files_holds_nothing_but_named_files() -> None:
    assert photo_input.Refusals.of(None) == photo_input.Refusals()
    assert photo_input.Refusals.of(["rules.pdf"]).files == ()
    assert photo_input.Refusals.of({"files": [{"tooLarge": True}, "x", {"name": 3}]}).files == ()
    assert photo_input.Refusals.of({"files": "a.pdf"}).files == ()
    named = photo_input.Refusals.of({"files": [{"name": "a.pdf"}]})
    assert named.files == (photo_input.Refused("a.pdf"),)


def test_the_uploaders_english_limit_is_taken_out_not_only_made_invisible() -> None:
    """Made invisible (font size 0), Streamlit's "100MB per file • JPG, PNG, …" was still read
    by a screen reader, before our limit."""
    css = photo_input.streamlit_words_css(translator("es"), max_upload_mb=100)
    limit = '[data-testid="stFileUploaderDropzoneInstructions"] > div'
    assert f"{limit} span {{ display: none; }}" in css
    assert f'{limit}::after {{ content: "Hasta 100 MB por foto"' in css


def test_the_skip_link_is_shown_and_named_in_the_pages_language() -> None:
    skip = 'a[data-testid="stSkipToContent"][href]'
    spanish = translator("es")
    said = spanish.gettext("Skip to main content")
    assert [skip, said] in photo_input.button_names(spanish)  # its name, for a screen reader
    # its words, shown when the keyboard comes to it (Streamlit's English where not translated)
    shown = photo_input.streamlit_words_css(spanish)
    assert (f'{skip}::after {{ content: "{said}"' in shown) == (said != "Skip to main content")
