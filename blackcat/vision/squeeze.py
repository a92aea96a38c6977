"""Photos squeezed along one axis: a wide webcam frame resized to a square, or a frame saved at
the wrong aspect. The cards' corner indices show it (their glyphs stand narrower or wider than
any deck prints them), and the photo is read again stretched back.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from statistics import median

from blackcat.vision.layout import NOT_AN_INDEX_ABOVE
from blackcat.vision.types import Box, PhotoRead

TYPICAL_NARROWNESS = 0.47
"""An index box's width over its height, across its glyphs (rank over suit), the median over a
photo's surely read indices: 0.34-0.59 on kitty scenes of every deck and style in any light
(0.47 the middle); frames squeezed to a square 0.25-0.35..."""

SQUEEZED_BELOW = 0.36
WIDENED_ABOVE = 0.66
"""...so a photo whose indices stand narrower than SQUEEZED_BELOW (or wider than WIDENED_ABOVE:
squeezed the other way) is read again stretched so they stand TYPICAL_NARROWNESS wide."""

TABLE_WIDENED_ABOVE = 0.49
"""A whole table (piles facing several sides) is read again stretched down as soon as its glyphs
stand wider than this: a seated camera squeezes the table's depth, and its far and side piles'
indices, squeezed, are found and read worse than stretched back. Stretched from 0.66 as one
player's photos are, piles right on the 250 test and calibration tables 0.813; from 0.58, 0.841;
from 0.52, 0.855; from 0.49, 0.857."""

MOST_STRETCH = 2.0
STRETCHED_LONGEST = 2048  # a small frame stretched is enlarged up to this; a large one shrunk
MIN_INDICES = 3  # surely read indices needed to tell
SURE_ABOVE = 0.8  # an index's best guess this likely counts


def narrowness(read: PhotoRead) -> float | None:
    """How narrow the read's surely read indices stand in the photo's own axes, as an upright
    glyph's width over height (the median); None where too few tell. A quarter-turned glyph
    lies across the photo: its box's width over height is an upright one's over
    TYPICAL_NARROWNESS squared, so that a photo squeezed down (a seated camera's view of a
    whole table, its side players' glyphs turned) reads wide from every glyph, whichever way it
    stands, and is stretched down, not across."""
    ratios = [
        (width / height) * (1.0 if index.orientation % 2 == 0 else TYPICAL_NARROWNESS**2)
        for pile in read.piles
        for card in pile
        for index in card.indices
        if index.orientation is not None
        and index.index_probability >= NOT_AN_INDEX_ABOVE
        and index.guesses[0].probability >= SURE_ABOVE
        and (width := index.box[2] - index.box[0]) > 0
        and (height := index.box[3] - index.box[1]) > 0
    ]
    return median(ratios) if len(ratios) >= MIN_INDICES else None


def stretch_for(read: PhotoRead) -> tuple[float, float] | None:
    """How much to stretch the photo across (x, y) so its indices stand as wide as a deck's
    print them; None where they already do (or too few tell; a whole table's from
    TABLE_WIDENED_ABOVE)."""
    measured = narrowness(read)
    widened_above = TABLE_WIDENED_ABOVE if read.whole_table else WIDENED_ABOVE
    if measured is None or SQUEEZED_BELOW <= measured <= widened_above:
        return None
    if measured < SQUEEZED_BELOW:
        return min(MOST_STRETCH, TYPICAL_NARROWNESS / measured), 1.0
    return 1.0, min(MOST_STRETCH, measured / TYPICAL_NARROWNESS)


SEARCHED_STRETCHES = ((4 / 3, 1.0), (16 / 9, 1.0), (1.0, 4 / 3), (1.0, 16 / 9))
"""Stretches (across, down) that undo the usual squeezes of a frame saved at another aspect: 4:3
or 16:9 resized to a square, or 16:9 to 4:3, either way."""

SEARCHED_UP_TO = 2048
"""A one player's photo this small (its long side, pixels: video frames, webcam stills and 1080p
frames, a phone's 2 MP photos) whose indices don't tell a squeeze is read again at each of
SEARCHED_STRETCHES, and the best read kept (`chooser_of_searched`). Cards spread at their own
angles hide a squeeze from `narrowness` (a tilted index's box is about as wide as tall, and few
stand square), and small frames are where squeezes happen; elsewhere each stretch is a second
look (`SEARCHED_FREELY_UP_TO`). Session 25, 200 scenes of fanned and loose cards in 640 px
frames of held-out decks (`blackcat evaluate --synthetic`): cards read right 0.754 -> 0.776 (the
squeezed ones 0.576 -> 0.709, their precision 0.829 -> 0.892), cards read that are not there 78
-> 78; rf100 recall / precision 0.977 / 0.975 -> 0.989 / 0.977. It costs such a photo four more
reads (a 960x720 one 0.07 -> 0.37 s here)."""

SEARCHED_FREELY_UP_TO = 1024
"""A photo larger than this (and at most SEARCHED_UP_TO) is searched only where its first read
shows one player's piles at most, and a searched read replaces the one kept only where it is
likelier right by LARGER_PHOTO_MARGIN (`chooser_of_searched`): such a photo mostly reads well as
it is (the detector sees it shrunk, its noise smoothed). Session 55, real photos made 1920x1080
webcam frames (`workshop/real_faults.py --faults webcam1080,webcam1080small`: enlarged 1.5
times, or as they are and so smaller in the frame; mild noise, JPEG 70), searched up to 2048
from 1024: rf100 0.978 / 0.975 -> 0.984 / 0.970, smaller in the frame 0.971 / 0.969 -> 0.989 /
0.979; edje 0.951 / 0.986 -> 0.986 / 0.993, smaller 0.979 / 0.986 -> 0.986 / 0.986 (no single
stretch reads rf100's frames better than as they are: 0.962 as they are, 0.995 the best of the
five in hindsight: each is a second look). Without the pile rule a 1280x960 whole table read as
three near piles (fresh 3636 t00006) lost three cards unmarked; without the margin 2 MP kitty
scenes took stretched reads likelier right by 0.01-0.27 of a card and read worse (a pile laid
out wrong, a 4S read 4C unflagged); every kitty and table set reads as before."""

LARGER_PHOTO_MARGIN = 0.5
"""How much likelier right (`right_over_wrong`, in cards) a searched read of a photo larger than
SEARCHED_FREELY_UP_TO must be to replace the read kept."""


def stretches_to_search(read: PhotoRead, long_side: int) -> tuple[tuple[float, float], ...]:
    """The stretches to read a photo again at where its indices (`read`) don't tell how it is
    squeezed (`stretch_for`): SEARCHED_STRETCHES for one player's photo of at most
    SEARCHED_UP_TO pixels (above SEARCHED_FREELY_UP_TO only where its first read shows one
    player's piles at most); none for a larger one, a whole table, or one `stretch_for`
    stretches (searching there too lost a card of a squeezed kitty scene and found no more)."""
    if read.whole_table or long_side > SEARCHED_UP_TO or stretch_for(read) is not None:
        return ()
    if long_side > SEARCHED_FREELY_UP_TO and len(read.piles) > ONE_PLAYERS_PILES:
        return ()
    return SEARCHED_STRETCHES


def stretched_size(
    size: tuple[int, int], stretch: tuple[float, float], longest: int
) -> tuple[int, int]:
    """The size of the photo stretched, shrunk where needed so its long side is at most
    `longest`."""
    width, height = size[0] * stretch[0], size[1] * stretch[1]
    shrink = min(1.0, longest / max(width, height))
    return max(1, round(width * shrink)), max(1, round(height * shrink))


def sure_cards(read: PhotoRead) -> int:
    """How many cards the read is sure of (not flagged for checking)."""
    return sum(not card.doubtful for pile in read.piles for card in pile)


def surer(read: PhotoRead, than: PhotoRead) -> bool:
    """Whether `read` is sure of more cards than `than` and of no smaller share of the cards it
    reads: a photo stretched the wrong way reads some cards surely too, but more of them
    flagged or not there."""
    sure, than_sure = sure_cards(read), sure_cards(than)
    share, than_share = sure / max(read.card_count, 1), than_sure / max(than.card_count, 1)
    return sure > than_sure and share >= than_share


def right_over_wrong(read: PhotoRead) -> float:
    """How many more of the read's cards are likely right than wrong: each card's probability
    less its doubt (`2p - 1`), summed."""
    return sum(2.0 * card.confidence - 1.0 for pile in read.piles for card in pile)


def likelier_right(read: PhotoRead, than: PhotoRead, by: float = 0.0) -> bool:
    """Whether more of `read`'s cards are likely right than wrong than of `than`'s
    (`right_over_wrong`), by more than `by` cards (a tie keeps `than`). Unlike `surer` it counts
    a card flagged at 0.7 for its read and one at 0.3 against it, where `surer` counts neither."""
    return right_over_wrong(read) > right_over_wrong(than) + by + 1e-9


ONE_PLAYERS_PILES = 2
"""A Black Cat player lays two kitty piles: a first read of more piles than this in a small
photo may be a whole table whose indices were too small to tell its sides."""


def chooser_of_searched(first: PhotoRead, long_side: int) -> Callable[[PhotoRead, PhotoRead], bool]:
    """How a small photo's read at a searched stretch is judged against the read kept so far
    (`stretches_to_search`; `long_side`: the photo's, pixels): `likelier_right` by
    LARGER_PHOTO_MARGIN for a photo larger than SEARCHED_FREELY_UP_TO; else `likelier_right`
    where the photo's first read shows one player's piles at most, and `surer` where it shows
    more (a 640 px table read as one player's kept the read as it is, with cards the stretched
    reads left out unmarked: test t00024). Session 40, against
    `surer` for every photo: 200 scattered 640 px frames read right 0.7809 -> 0.7880 (read not
    there 90 -> 89, wrong and unflagged 0.62 -> 0.41 per 100), rf100 0.987 / 0.984 -> 0.989 /
    0.986, edje precision 0.959 -> 0.966, fresh tables' silent errors 2.14 -> 2.03 per 100;
    every other set as before."""
    if long_side > SEARCHED_FREELY_UP_TO:
        return partial(likelier_right, by=LARGER_PHOTO_MARGIN)
    return likelier_right if len(first.piles) <= ONE_PLAYERS_PILES else surer


def unstretched(read: PhotoRead, size: tuple[int, int]) -> PhotoRead:
    """A read of the stretched photo with its boxes in the photo as it is, of `size`."""
    across, down = size[0] / read.width, size[1] / read.height

    def back(box: Box) -> Box:
        x1, y1, x2, y2 = box
        return x1 * across, y1 * down, x2 * across, y2 * down

    return read.with_boxes(back, *size)
