"""A stand-in photo reader for the app's tests: it "sees" known rows of cards, chosen by the
photo's width, so the app's photo handling can be tested without the trained models."""

from __future__ import annotations

from blackcat.games.cards import parse_card
from blackcat.vision.image_io import Photo
from blackcat.vision.types import Guess, PhotoRead, ReadCard

Box = tuple[float, float, float, float]


def read_card(
    code: str, confidence: float = 0.98, *others: str, box: Box = (10.0, 10.0, 30.0, 40.0)
) -> ReadCard:
    rest = (Guess(parse_card(other), (1 - confidence) / len(others)) for other in others)
    guesses = (Guess(parse_card(code), confidence), *rest)
    return ReadCard(parse_card(code), box, confidence, guesses, ())


FAKE_ROWS = {
    # photo width -> the rows the stand-in reader "sees"
    200: (
        (read_card("8D"), read_card("2H", 0.41, "2S", "7H"), read_card("8H")),
        (read_card("KS"), read_card("9C"), read_card("4S")),
    ),
    160: ((read_card("QS"), read_card("2C")),),
    150: (),
    180: ((read_card("QS"), read_card("2C"), read_card("9H")),),  # with a gap before 1.3
    220: (  # one pile, at the photo's right
        tuple(
            read_card(code, box=(150.0 + 22 * n, 40.0, 168.0 + 22 * n, 70.0))
            for n, code in enumerate(("AS", "2D", "3H"))
        ),
    ),
}
FAKE_GAPS = {180: ((2,),)}


class FakeReader:
    def __init__(self) -> None:
        self.reads = 0

    def read(self, image: Photo, *, decks: int = 1) -> PhotoRead:
        self.reads += 1
        width, height = image.size
        return PhotoRead(
            width=width,
            height=height,
            piles=FAKE_ROWS.get(width, ()),
            gaps=FAKE_GAPS.get(width, ()),
        )  # other photos: no cards
