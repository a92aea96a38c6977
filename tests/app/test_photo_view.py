"""photo_view: the cache key of the annotated photo."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import photo_view
import pytest
from photo_store import EXAMPLE_PHOTO_NAME, PhotoRecord
from reader_access import DisplayCopy

from blackcat.games.cards import parse_card
from blackcat.i18n import ENGLISH, translator
from blackcat.tables.black_cat_table import PhotoMarks, Slot
from blackcat.vision.types import Guess, IndexRead, ReadCard


def read_slot(code: str, x: float, confidence: float = 0.9) -> Slot:
    card = parse_card(code)
    guesses = (Guess(card, confidence), Guess(parse_card("2C"), 1 - confidence))
    index = IndexRead((x, 10.0, x + 20.0, 40.0), 0.8, guesses)
    return Slot(card, read=ReadCard(card, (x, 10.0, x + 60.0, 90.0), confidence, guesses, (index,)))


MARKS = ((0, 0, read_slot("QS", 0.0)), (0, 1, read_slot("10H", 70.0, confidence=0.4)))


def test_the_drawing_key_is_the_same_for_the_same_drawing() -> None:
    again = ((0, 0, read_slot("QS", 0.0)), (0, 1, read_slot("10H", 70.0, confidence=0.4)))
    assert photo_view.drawing_key(MARKS) == photo_view.drawing_key(again)


def test_the_drawing_key_ignores_what_the_photo_does_not_show() -> None:
    slot = MARKS[0][2]
    assert slot.read is not None
    fewer_guesses = replace(slot, read=replace(slot.read, alternatives=slot.read.alternatives[:1]))
    assert photo_view.drawing_key(((0, 0, fewer_guesses), MARKS[1])) == photo_view.drawing_key(
        MARKS
    )


@pytest.mark.parametrize(
    "changed",
    [
        ((0, 0, replace(MARKS[0][2], card=parse_card("KS"))), MARKS[1]),  # a corrected card
        (MARKS[0], (0, 1, replace(MARKS[1][2], checked=True))),  # a doubtful card confirmed
        (MARKS[0], (0, 1, read_slot("10H", 75.0, confidence=0.4))),  # another box
        (MARKS[0], (1, 0, MARKS[1][2])),  # moved to another pile
        (MARKS[0], (0, 2, MARKS[1][2])),  # a typed card before it
        MARKS[:1],  # taken off
    ],
)
def test_the_drawing_key_changes_with_what_the_photo_shows(changed: PhotoMarks) -> None:
    assert photo_view.drawing_key(changed) != photo_view.drawing_key(MARKS)


def test_the_zoomed_photo_is_centred_on_its_cards() -> None:
    # the cards' boxes span 0-130 px of a 260 px photo shown at half size (factor 0.5)
    assert photo_view.cards_centre(MARKS, 0.5, 130) == pytest.approx(0.25)  # 65 of 260 px
    assert photo_view.cards_centre(MARKS, 1.0, 520) == pytest.approx(0.125)
    typed = ((0, 0, Slot(parse_card("QS"))),)  # no box to centre on
    assert photo_view.cards_centre(typed, 1.0, 520) == 0.5
    html = photo_view.zoomed_html("k1", b"jpeg", 0.125, 'the "photo"', "scroll it")
    assert 'id="bc-zoom-k1"' in html and "z.scrollWidth * 0.1250" in html
    assert 'alt="the &quot;photo&quot;"' in html
    assert 'tabindex="0" role="region" aria-label="scroll it"' in html  # the keyboard scrolls it


# ---------------------------------------------------------------------------------------------
# A photo of the whole table: each player's name by their cards


def test_a_players_cards_are_boxed_together_on_the_display_copy() -> None:
    # the cards' boxes span x 0-130, y 10-90 in the photo's pixels; shown at half size
    assert photo_view.group_box(MARKS, 0.5) == (0.0, 5.0, 65.0, 45.0)
    assert photo_view.group_box(((0, 0, Slot(parse_card("QS"))),), 0.5) is None  # typed


def test_a_name_goes_under_its_players_cards_inside_the_photo() -> None:
    photo = (400, 300)
    assert photo_view.tag_place((100.0, 50.0, 200.0, 100.0), (40.0, 20.0), photo, 30.0) == (
        130.0,  # centred under the cards
        100.0 + photo_view.TAG_GAP,
    )
    # no room under cards at the photo's bottom: above them, clear of their numbers
    x, y = photo_view.tag_place((100.0, 250.0, 200.0, 290.0), (40.0, 20.0), photo, 30.0)
    assert y == 250.0 - 30.0 - photo_view.TAG_GAP - 20.0
    # never off the photo
    x, y = photo_view.tag_place((380.0, 0.0, 400.0, 10.0), (60.0, 20.0), photo, 30.0)
    assert (x, y) == (340.0, 10.0 + photo_view.TAG_GAP)
    # a column as tall as the photo (a side player's pile): beside it, halfway down
    x, y = photo_view.tag_place((0.0, 5.0, 20.0, 295.0), (60.0, 20.0), photo, 30.0)
    assert (x, y) == (20.0 + photo_view.TAG_GAP, 140.0)
    # no room anywhere: at the photo's edge, as before
    assert photo_view.tag_place((0.0, 0.0, 400.0, 300.0), (60.0, 20.0), photo, 30.0) == (
        170.0,
        0.0,
    )


def test_a_name_covers_no_other_players_card_where_there_is_room() -> None:
    photo = (400, 300)
    across = (100.0, 80.0, 200.0, 120.0)  # the far player's piles
    left_player = (140.0, 130.0, 160.0, 250.0)  # a column just under them
    place = photo_view.tag_place(across, (40.0, 20.0), photo, 30.0, [left_player])
    assert place == (130.0, 80.0 - 30.0 - photo_view.TAG_GAP - 20.0)  # above, not on it
    tag = (*place, place[0] + 40.0, place[1] + 20.0)
    assert not photo_view.overlap(tag, left_player)
    # a card above them too (its number drawn above it): beside them, on the right
    over = (120.0, 30.0, 220.0, 50.0)
    x, y = photo_view.tag_place(across, (40.0, 20.0), photo, 30.0, [left_player, over])
    assert (x, y) == (200.0 + photo_view.TAG_GAP, 90.0)


def test_the_table_drawing_key_follows_names_and_cards() -> None:
    players = (("Ann", MARKS[:1]), ("Ben", MARKS[1:]))
    same = (("Ann", MARKS[:1]), ("Ben", MARKS[1:]))
    assert photo_view.table_drawing_key(players) == photo_view.table_drawing_key(same)
    renamed = (("Ann", MARKS[:1]), ("Bea", MARKS[1:]))
    given = (("Ann", MARKS), ("Ben", ()))
    keys = {photo_view.table_drawing_key(p) for p in (players, renamed, given)}
    assert len(keys) == 3


def test_the_names_are_drawn_on_a_copy_of_the_photo() -> None:
    photo = np.full((300, 400, 3), 255, np.uint8)
    drawn = photo_view.draw_name_tags(photo, [("Ann", (100.0, 50.0, 200.0, 100.0))])
    assert (photo == 255).all()  # the photo itself is left alone
    under = drawn[105:140, 100:200]
    assert (under < 100).any()  # the dark tag under the cards
    assert (drawn[:40] == 255).all()  # nothing above them


def test_a_name_with_accents_is_drawn_in_letters_and_an_emoji_left_out() -> None:
    # Pillow's own font has ASCII alone: Zoë was drawn "Zo" and a box
    font = photo_view.tag_font(26)
    assert photo_view.typeface_file() is not None  # the page's own, as Streamlit ships it
    accents = [bytes(font.getmask(letter)) for letter in "eëñÑ"]
    assert len(set(accents)) == 4  # each its own glyph, none a box
    assert photo_view.drawable("Zoë 🐈", font) == "Zoë"
    assert photo_view.drawable("Ana 🐈\u200d⬛ ❤\ufe0f", font) == "Ana ❤"  # ❤ it has
    assert photo_view.drawable("🐈", font) == "🐈"  # nothing left: drawn as it is


def test_without_the_pages_typeface_names_are_drawn_in_pillows_font(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(photo_view, "typeface_file", lambda: None)
    photo_view.tag_font.cache_clear()
    try:
        drawn = photo_view.draw_name_tags(
            np.full((300, 400, 3), 255, np.uint8), [("Ann", (100.0, 50.0, 200.0, 100.0))]
        )
        assert (drawn[105:140, 100:200] < 100).any()
        # a letter it has no glyph for stays (a box), never left out: "Zoë" was drawn "Zo"
        assert photo_view.drawable("Zoë", photo_view.tag_font(26)) == "Zoë"
    finally:
        photo_view.tag_font.cache_clear()


def test_a_players_piles_get_one_name_for_each_side_of_the_table_they_lie_on() -> None:
    far_pile, far_apart = read_slot("KS", 300.0), read_slot("2D", 900.0)
    given = read_slot("AH", 600.0)  # a pile given from the left side's player
    sides = {far_pile.read: "far", far_apart.read: "far", given.read: "left"}
    marks = (*MARKS, (1, 0, far_pile), (2, 0, given), (3, 0, far_apart))
    side_of = {MARKS[0][2].read: "near", **sides}.__getitem__
    assert photo_view.side_boxes(marks, 0.5, side_of) == [
        (0.0, 5.0, 65.0, 45.0),  # the near pile
        (150.0, 5.0, 480.0, 45.0),  # both far piles, however far apart they lie
        (300.0, 5.0, 330.0, 45.0),  # the given one, where it lies
    ]
    typed = (0, 0, Slot(parse_card("QS")))  # no box: no name for it
    assert photo_view.side_boxes((typed,), 0.5, side_of) == []


def test_a_card_is_on_the_side_of_the_row_it_was_read_in() -> None:
    first, second, third = (read_slot(code, 0.0).read for code in ("KS", "2D", "AH"))
    assert first and second and third
    picture = DisplayCopy.of(np.zeros((4, 4, 3), dtype=np.uint8))
    record = PhotoRecord("t.jpg", picture, 1.0, (first, second, third), ("far", "left"), (), (2, 1))
    assert [record.side_of(read) for read in (first, second, third)] == ["far", "far", "left"]
    other = read_slot("9C", 5.0).read
    assert other and record.side_of(other) == "near"
    assert PhotoRecord("p.jpg", picture, 1.0, (first,)).side_of(first) == "near"  # one player's


def test_a_place_too_small_to_read_is_boxed_in_red_on_the_page_photo() -> None:
    import io

    from PIL import Image

    display = DisplayCopy.of(np.zeros((120, 200, 3), np.uint8))
    place = ((200.0, 40.0, 360.0, 200.0),)  # full pixels: the display copy is half the size
    for jpeg in (
        photo_view.annotated_jpeg("u1", "d", 0.5, MARKS, display, _unread=place),
        photo_view.table_jpeg("u2", "d", 0.5, (("Ann", MARKS),), display, place),
    ):
        drawn = np.asarray(Image.open(io.BytesIO(jpeg)).convert("RGB")).astype(int)
        # the place's right edge, away from the cards' boxes: red (a thin line, blurred by JPEG)
        red, green, blue = drawn[60, 180]
        assert red > 120 and red - green > 60 and red - blue > 40
        assert drawn[60, 140].max() < 40  # inside it, the photo as it was


def test_the_example_photo_is_named_in_the_pages_language_and_a_file_by_its_own_name() -> None:
    picture = DisplayCopy.of(np.zeros((4, 4, 3), dtype=np.uint8))
    example = PhotoRecord(EXAMPLE_PHOTO_NAME, picture, 1.0, ())
    assert example.shown_name(translator("es")) == "la foto de ejemplo"
    assert example.shown_name(ENGLISH) == "the example photo"
    upload = PhotoRecord("the example photo.jpg", picture, 1.0, ())
    assert upload.shown_name(translator("es")) == "the example photo.jpg"
    # a caption starts with it: "La foto de ejemplo: …"; a file's name stays as it is written
    assert example.shown_name(translator("es"), starting=True) == "La foto de ejemplo"
    lower = PhotoRecord("img_01.jpg", picture, 1.0, ())
    assert lower.shown_name(ENGLISH, starting=True) == "img_01.jpg"


def test_the_display_copy_kept_as_a_jpeg_gives_back_its_picture() -> None:
    """The copy a photo is drawn on is kept compressed (a night kept every photo's pixels):
    its size and picture come back, within what a JPEG changes."""
    rows, columns = np.mgrid[0:96, 0:160]
    picture = np.stack([rows * 2, columns, np.full_like(rows, 90)], axis=-1).astype(np.uint8)
    copy = DisplayCopy.of(picture)
    assert (copy.width, copy.height) == (160, 96)
    back = copy.pixels()
    assert back.shape == picture.shape and back.dtype == np.uint8
    assert np.abs(back.astype(int) - picture.astype(int)).mean() < 2
