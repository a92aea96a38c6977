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
BLURRED = 210  # the photo width at which the stand-in reader finds the photo blurred
FAKE_ROWS[BLURRED] = FAKE_ROWS[200]  # with its doubtful 2H
FAKE_SHARPNESS = {BLURRED: 1.8}


def table_row(codes: str, left: float, top: float) -> tuple[ReadCard, ...]:
    """A pile of the whole table's photo, its cards left to right from (`left`, `top`)."""
    return tuple(
        read_card(code, box=(left + 16 * n, top, left + 14 + 16 * n, top + 20))
        for n, code in enumerate(codes.split())
    )


WHOLE_TABLE = 240  # the photo width at which the stand-in reader sees a table of four
FAKE_ROWS[WHOLE_TABLE] = (  # top to bottom, as the reader gives them
    table_row("8D 2H 8H", 60, 10),  # far side
    table_row("5H 5D", 140, 10),  # far side
    table_row("KS 9C 4S", 5, 110),  # the photo's left
    table_row("10S 10H KD 10C", 150, 110),  # the photo's right
    table_row("QS 2C 3H 7H", 80, 210),  # the photographer's side
)
ACROSS_ONLY = 245  # the photo width at which it sees piles across and near alone
FAKE_ROWS[ACROSS_ONLY] = (FAKE_ROWS[WHOLE_TABLE][0], FAKE_ROWS[WHOLE_TABLE][4])
DOUBTED_TABLE = 250  # the photo width at which it sees the table of four, the far 2H doubtful
FAKE_ROWS[DOUBTED_TABLE] = (
    tuple(read_card("2H", 0.41, "2S") if c.card.code == "2H" else c for c in FAKE_ROWS[240][0]),
    *FAKE_ROWS[WHOLE_TABLE][1:],
)
FAKE_SIDES = {
    WHOLE_TABLE: ("far", "far", "left", "right", "near"),
    DOUBTED_TABLE: ("far", "far", "left", "right", "near"),
    ACROSS_ONLY: ("far", "near"),
}
GRID = 230  # the photo width at which the stand-in reader sees two rows laid card on card
FAKE_ROWS[GRID] = (
    FAKE_ROWS[200][1],
    (read_card("AD", box=(10.0, 50.0, 30.0, 80.0)), read_card("6C"), read_card("JH")),
)
FAKE_GRIDS = {GRID: (True, True)}
LONG_PILE = 260  # the photo width at which it sees one pile of 15, wider than a phone: its
CLUBS = ("AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC")
FAKE_ROWS[LONG_PILE] = (  # 13th doubtful (read as 3♦, maybe 8♦), past a phone's edge
    (*map(read_card, CLUBS), read_card("3D", 0.41, "8D"), read_card("KC"), read_card("AD")),
)


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
            sides=FAKE_SIDES.get(width, ()),
            sharpness=FAKE_SHARPNESS.get(width, 3.5),
            rows_or_columns=FAKE_GRIDS.get(width, ()),
        )  # other photos: no cards
