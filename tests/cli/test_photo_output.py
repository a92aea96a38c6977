"""What both `blackcat scan` games share: where drawings go, what a name opens, the notes."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from blackcat.cli.photo_output import (
    AnnotateError,
    annotation_paths,
    no_cards_note,
    photo_source,
    save_annotated,
)
from blackcat.games.cards import parse_pile
from blackcat.i18n import translator
from blackcat.vision.image_io import MAX_FILE_BYTES, ImageReadError
from blackcat.vision.types import Guess, PhotoRead, ReadCard


def test_one_photo_draws_to_the_picture_named_or_into_a_folder_that_exists(tmp_path: Path) -> None:
    photo = tmp_path / "piles.jpg"
    photo.write_bytes(b"")
    assert annotation_paths(tmp_path / "new" / "drawn.png", [photo]) == [
        tmp_path / "new" / "drawn.png"
    ]
    assert (tmp_path / "new").is_dir()
    folder = tmp_path / "drawings"
    folder.mkdir()
    assert annotation_paths(folder, [photo]) == [folder / "piles.annotated.jpg"]


@pytest.mark.parametrize("name", ["drawn.txt", "drawn"])
def test_one_photo_refuses_a_name_that_is_no_picture(tmp_path: Path, name: str) -> None:
    with pytest.raises(AnnotateError) as refused:
        annotation_paths(tmp_path / name, [tmp_path / "piles.jpg"])
    assert str(refused.value) == (
        f"--annotate {tmp_path / name}: name the drawing as a picture, such as "
        f"{tmp_path / 'drawn.jpg'}, or name a folder that exists to write it into"
    )
    assert not (tmp_path / name).exists()


def test_several_photos_refuse_a_file_for_their_folder(tmp_path: Path) -> None:
    drawn = tmp_path / "drawn.jpg"
    drawn.write_bytes(b"kept")
    with pytest.raises(AnnotateError, match="is a file: with several photos it names a folder"):
        annotation_paths(drawn, [tmp_path / "a.jpg", tmp_path / "b.jpg"])
    assert drawn.read_bytes() == b"kept"


def test_several_photos_refuse_a_pictures_name_for_their_folder(tmp_path: Path) -> None:
    with pytest.raises(AnnotateError) as refused:
        annotation_paths(tmp_path / "drawn.jpg", [tmp_path / "a.jpg", tmp_path / "b.jpg"])
    assert str(refused.value) == (
        f"--annotate {tmp_path / 'drawn.jpg'} names a picture: with several photos give a folder "
        f"for their drawings, such as {tmp_path / 'drawn'}"
    )
    assert not (tmp_path / "drawn.jpg").exists()
    (tmp_path / "drawn.jpg").mkdir()  # a folder of that name, made on purpose, is taken
    targets = annotation_paths(tmp_path / "drawn.jpg", [tmp_path / "a.jpg", tmp_path / "b.jpg"])
    assert [target.parent for target in targets] == [tmp_path / "drawn.jpg"] * 2


def test_a_drawing_never_replaces_one_of_the_photos(tmp_path: Path) -> None:
    photo = tmp_path / "piles.jpg"
    photo.write_bytes(b"the photo")
    with pytest.raises(AnnotateError, match="is one of the photos"):
        annotation_paths(tmp_path / "." / "piles.jpg", [photo])
    named_like_its_drawing = tmp_path / "piles.annotated.jpg"
    named_like_its_drawing.write_bytes(b"another photo")
    with pytest.raises(AnnotateError, match="is one of the photos"):
        annotation_paths(tmp_path, [photo, named_like_its_drawing])


def test_a_place_no_folder_can_be_made_is_said_in_words(tmp_path: Path) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("")
    with pytest.raises(AnnotateError, match="the drawing can't be written there"):
        annotation_paths(a_file / "drawn.jpg", [tmp_path / "piles.jpg"])
    spanish = translator("es")
    with pytest.raises(AnnotateError) as refused:
        annotation_paths(a_file / "drawn", [tmp_path / "a.jpg", tmp_path / "b.jpg"])
    assert "la foto anotada no se puede escribir ahí" in refused.value.describe(spanish)


class Piped(io.BytesIO):
    def __init__(self, data: bytes, tty: bool = False) -> None:
        super().__init__(data)
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_a_dash_reads_the_photo_piped_in_and_other_names_are_paths() -> None:
    assert photo_source("-", Piped(b"jpeg bytes")) == b"jpeg bytes"
    assert photo_source("photo.jpg", Piped(b"unread")) == Path("photo.jpg")
    assert photo_source("") == ""
    too_large = Piped(b"x" * (MAX_FILE_BYTES + 10))
    assert len(photo_source("-", too_large)) == MAX_FILE_BYTES + 1  # open_photo refuses it


@pytest.mark.parametrize("tty", [True, False])  # a terminal, or an empty pipe (< /dev/null)
def test_a_dash_with_nothing_piped_in_says_how_to_pipe_a_photo(tty: bool) -> None:
    with pytest.raises(ImageReadError, match="nothing is piped in"):
        photo_source("-", Piped(b"", tty=tty))


def test_a_dash_with_standard_input_closed_says_how_to_pipe_a_photo(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "stdin", None)  # as Python starts with it closed (`<&-`)
    with pytest.raises(ImageReadError, match="nothing is piped in"):
        photo_source("-")


def test_a_photo_without_a_card_says_how_to_take_one_that_reads() -> None:
    empty = PhotoRead(width=800, height=600, piles=())
    assert no_cards_note(empty) == [
        "no cards found. Lay each pile out in a row with every card's corner showing, "
        "photograph from straight above in good light and try again"
    ]
    assert no_cards_note(empty, translator("es"))[0].startswith("no se encontraron cartas. ")
    queen = parse_pile("QS")[0]
    read = ReadCard(queen, (0.0, 0.0, 10.0, 20.0), 0.99, (Guess(queen, 0.99),), ())
    one_card = PhotoRead(width=800, height=600, piles=((read,),))
    assert no_cards_note(one_card) == []


def test_a_jpeg_too_large_to_draw_whole_is_drawn_at_a_reduced_scale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 200 MP photo's drawing took 2.7 GB decoded whole: over MAX_PIXELS (scaled down here)
    it is drawn at the half (or less) that fits, its boxes where its cards are."""
    import io

    from PIL import Image

    from blackcat.games.cards import Card
    from blackcat.vision import image_io
    from blackcat.vision.drawing import PILE_COLOURS
    from blackcat.vision.types import IndexRead

    monkeypatch.setattr(image_io, "MAX_PIXELS", 1_000_000)
    monkeypatch.setattr(image_io, "MAX_JPEG_PIXELS", 4_000_000)
    buffer = io.BytesIO()
    Image.new("RGB", (2400, 1600), (0, 0, 0)).save(buffer, "JPEG")
    photo = image_io.open_photo(buffer.getvalue(), name="big.jpg")
    card = Card.parse("QS")
    box = (400.0, 400.0, 800.0, 1000.0)
    read = ReadCard(card, box, 0.99, (Guess(card, 0.99),), (IndexRead(box, 1.0, ()),))
    save_annotated(photo, PhotoRead(2400, 1600, ((read,),)), tmp_path / "drawn.png")
    with Image.open(tmp_path / "drawn.png") as drawn:
        assert drawn.size == (1200, 800)
        assert drawn.getpixel((200, 350)) == PILE_COLOURS[0]  # the card's left edge, halved
