"""From read corner indices to piles: find the photo's up, drop what is no card, merge the
corners of one card, group rows, order them, give each card one card of a deck, and mark where a
card may be missing.

A pure function of the detections, so it is tested without any model. Geometry is measured in
the photo itself, so it holds for small and jumbo indices and tight or wide rows alike: one index
found twice is told by box overlap, two corners of one card and the next row by the row's own
offset between neighbouring cards and the cards' own corners.

A card's top corner index stands the way the card does; its bottom one (on nearly every deck)
stands upside down. The glyphs' orientations (from the classifier) give the photo's up: the way
most card indices stand. In that frame an upside-down index is a card's bottom corner: it
confirms a card beside it, or, read surely, far from any card whose bottom corner it could be,
is a card whose top corner something hides; else it is dropped.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from itertools import combinations, pairwise
from statistics import median

import cv2
import lap
import numpy as np

from blackcat.games.cards import ALL_CARDS, Card
from blackcat.vision.calibration import UNCALIBRATED, Calibration
from blackcat.vision.types import SIDES, Box, Evidence, Guess, IndexRead, PhotoRead, ReadCard

Point = tuple[float, float]

SAME_INDEX_OVERLAP = 0.5
"""Two detections whose boxes share more than this part of the smaller box are one index found
twice (the detector's overlap suppression leaves such pairs): the more confident one is kept.
Neighbours in a row overlap far less, even when jumbo indices cover one another."""

ACROSS_ROW = 0.5
"""An index lies across the row from another (a card's bottom corner below its top one, or the
next row) when its centre is lower by more than this part of their index height; neighbours in
a row differ along it."""

ALONG_ROW_DEGREES = 30.0
"""A neighbour within this angle of the row direction lies along the row."""

NEIGHBOURS_WITHIN = 1.5
"""Two indices side by side, read as the same card, whose distance is within this factor of the
row's own offset between neighbouring cards look like two neighbours (one of them misread), not
like one card's top-left and top-right corner (farther on a fanned row, nearer on a spread one)."""

NEIGHBOURS_STEP_WITHIN = 1.5
"""...but only in rows whose cards overlap, where neighbours lie at most this many index heights
apart. Where cards lie loosely side by side (a hand put down), one card's two top corners are as
far apart as two neighbours; with one deck such a pair is one card seen at both corners."""

MAX_CORNER_DISTANCE = 9.0
"""Two indices of one card lie at most this many index heights apart (corner to corner): even
the smallest indices are about a ninth of a card's height. Only a bound on far pairs."""

ROW_BREAK_OF_REACH = 0.75
"""The next row starts lower than this part of a card's measured reach across the row (from
its top corner to its bottom corner), and at least an index height lower: a row's cards lie
higher or lower by far less, its bottom corners by a whole reach."""

ROW_GAP = 1.8
"""...where no card shows both corners: the next row starts this many index heights lower."""

GAP_OF_OFFSETS = 1.5
"""Two neighbours of a row farther apart than this many of the row's own offsets (halfway to
two: where one card is missing, two offsets lie between them): a card may be missing there."""

GAP_DETECTION_ABOVE = 0.5
"""A detection the classifier called no index, yet this confident, in a row marks a gap."""

NOT_AN_INDEX_ABOVE = 0.5
"""A detection the classifier finds more likely no index at all (a pip, face art) is dropped."""

UPRIGHT_PRIOR = 1.0
"""A nudge towards the photo's own up, worth one sure index, for glyphs split about evenly: a
spread row of a two-index deck, or a row of a four-index deck, looks the same either way up."""

STRAY_MARK_BELOW = 0.55
"""A row made only of doubtful cards, each read from glyphs smaller than this part of the
photo's median index height, is printed matter (a maker's mark, a court card's lettering), not a
pile: in one photo the indices of a deck are all about the same size, and a real pile of a
smaller deck's indices reads with confidence (court cards' maker's mark "KDE", 0.51-0.53 of
the indices' height, read as a 3C at 0.7 under a harder kitty's pile: k00078)."""

UNLIKELY_BELOW = 0.5
"""A row on the faces of the row above (where a next row's cards cannot lie) is face art or
pips, not a pile, where each of its cards is more likely wrong than right (its probability is
under this). A likelier card there stays: the cards of a hand put down loosely do overlap."""

ONE_DECK_FARTHEST_GUESS = 0.001
"""With one deck, the one-deck step gives a card another of its guesses only where that guess is
at least this likely, so that a sure card is not pushed to a far-fetched guess to make room for
an unsure one (a whole table's right QC, read KC at 0.51 with its KC taken, took a sure JC's
place, 0.92, which became JS at 0.004: three players' piles came out wrong). A card it cannot
place otherwise stays its own best guess, as unlikely as this (one player's layout then drops
it, a gap: ONE_DECK_DROP_BELOW)."""

TAKEN_CONFIDENCE = 0.2
"""The confidence at most of a card whose every guess is a card already taken: it stays, flagged
(below every doubt threshold, above ONE_DECK_DROP_BELOW), for the person to see the conflict."""

TIE_TO_THE_LATER = 1e-9
"""Two cards read as one deck card equally likely (both at 1.0, as sure reads often are) give it
to the later card, as the one-deck step did before (SciPy's solver, calibration table t00045: a
right pile's last card, its top corner read as the left player's, stays the right pile's)."""

ONE_DECK_DROP_BELOW = 0.1
"""With one deck, a card the one-deck step leaves only a guess this unlikely is dropped, a gap
where it lies: another card's index detected again, or a mark, read as a card already taken
(harder scenes: the J of diamonds detected twice, the second then given 2D at 0.04; face art
read as a taken 3C, then given 2S and AC at 0.05 and 0.005). The step's likelier reassignments
are often right: the suits of a whole table's small far indices (QC given QS at 0.23, 6S given
6C at 0.29, both right)."""

CORNER_AGREEMENT = 0.1
"""With one deck, two side-by-side indices read as different cards are one card's top-left and
top-right corner where they share a guess at least this strongly (the product of their
probabilities for it) and lie as far apart as the top corners of a card the photo shows whole
(a four-index deck). A four-index card's second index is often misread, under glare or turned
away from the light (real photos: a 6S's top-right index read as 6C at 0.57, an extra card)."""

CORNER_SPACING_WITHIN = 0.2
"""...as far apart, in index heights, as those cards' top corners are at the nearest and the
farthest (perspective and the boxes' own sizes spread them), less or more by this part."""

ANCHOR_UNSURE_BELOW = 0.5
ANCHOR_SURE_ABOVE = 0.9
"""A card's index whose best guess is less likely than ANCHOR_UNSURE_BELOW is not its place
where one of its top corners is read at least ANCHOR_SURE_ABOVE (`own_corner`)."""

MAX_ROW_TILT_DEGREES = 45.0
TOP_GUESSES = 3


@dataclass(frozen=True)
class Row:
    """One row of cards: positions in the list of cards, left to right, and its geometry."""

    cards: tuple[int, ...]
    anchors: tuple[Point, ...]  # each card's own top-left index, in the row frame
    step: float  # the row's own offset between neighbouring cards
    column: bool = False  # a column, top card first: its anchors are (down, across) then
    rows_or_columns: bool = False  # of a grid of cards that reads as rows and as columns


def arrange(
    indices: Sequence[IndexRead],
    *,
    decks: int = 1,
    width: int = 0,
    height: int = 0,
    calibration: Calibration = UNCALIBRATED,
    up: int | None = None,
    lone_corners: bool = True,
) -> PhotoRead:
    """Piles (rows, top to bottom as the cards stand), each ordered left to right, and for each
    pile the positions before which a card may be missing. `up`: the quarter turn the cards
    stand at (None: the way most glyphs stand, `photo_up`). `lone_corners`: whether a sure
    upside-down index far from the cards is a card whose top corner is hidden
    (`lone_bottom_corners`), and a lone index where a card seen at three corners shows its
    fourth is that card's, misread (`without_misread_fourth_corners`): one player's photo. On a
    table's side another card's corner joins a card it shares any guess with, so three corners
    there may be two cards'."""
    doubted = [
        index
        for index in indices
        if index.index_probability < NOT_AN_INDEX_ABOVE
        and index.detection_confidence >= GAP_DETECTION_ABOVE
    ]
    indices = [index for index in indices if index.index_probability >= NOT_AN_INDEX_ABOVE]
    if not indices:
        return PhotoRead(width=width, height=height, piles=())
    indices = drop_repeated_detections(indices)
    up = photo_up(indices) if up is None else up
    heights = [upright_height(index, up) for index in indices]
    scale = index_height(indices, heights, width, height)
    centres = [turn_to_up(index.centre, up, width, height) for index in indices]
    tops = [i for i, index in enumerate(indices) if not _upside_down(index, up)]
    bottoms = [i for i, index in enumerate(indices) if _upside_down(index, up)]
    angle = row_angle([centres[i] for i in tops])
    framed = [rotate(centre, angle) for centre in centres]
    pips = pips_of_whole_cards(
        indices,
        framed,
        heights,
        set(bottoms),
        scale=scale,
        calibration=calibration,
        up=up,
    )
    if pips:  # laid out as if never found: the rows' angle and scale measured without them
        kept = [index for n, index in enumerate(indices) if n not in pips]
        return arrange(
            [*kept, *doubted],
            decks=decks,
            width=width,
            height=height,
            calibration=calibration,
            up=up,
            lone_corners=lone_corners,
        )
    step = row_step([framed[i] for i in tops], [indices[i].card for i in tops], scale)
    groups = group_corners(indices, tops, framed, heights, decks=decks, step=step, scale=scale)
    if decks == 1:
        groups = join_misread_corners(indices, tops, groups, framed, heights)
    groups = attach_bottom_corners(
        indices, bottoms, groups, framed, heights, scale=scale, strangers_join=not lone_corners
    )
    upside_down = set(bottoms)
    if lone_corners:
        groups += lone_bottom_corners(indices, bottoms, groups, framed, heights, scale=scale)
        groups = without_misread_fourth_corners(groups, framed, heights, upside_down)
    probabilities = best_probabilities(indices)
    anchors = [own_corner(group, framed, heights, probabilities, upside_down) for group in groups]
    cards = [
        merge_group(
            [indices[i] for i in group],
            calibration,
            up,
            framed=seen_as_a_cards_corners(group, indices, framed, upside_down),
        )
        for group in groups
    ]
    shown = [n for n, card in enumerate(cards) if card.confidence >= calibration.drop_below]
    unread = [framed[anchors[n]] for n, card in enumerate(cards) if n not in shown]
    reaches = measured_reaches(groups, anchors, framed, heights)
    reach = median(reach for reach, _ in reaches) if reaches else None
    row_break = next_row_below(reach, scale)
    cards = [cards[n] for n in shown]
    points = [framed[anchors[n]] for n in shown]
    shown_heights = [heights[anchors[n]] for n in shown]
    reach_heights = median(reach / height for reach, height in reaches) if reaches else None
    chains = find_columns(
        points,
        shown_heights,
        scale,
        reach_heights,
        step,
        {p for p, n in enumerate(shown) if upside_down.intersection(groups[n])},
    )
    chains = [
        chain
        for chain in chains
        if not _rows_cards(chain, points, shown_heights, scale, reach_heights)
    ]
    grids = grid_blocks(chains, points, shown_heights, scale, reach_heights, step)
    in_grids = {n for block in grids for n in block}
    in_columns = {i for chain in chains for i in chain}
    loose = [i for i in range(len(points)) if i not in in_columns]
    rows = [
        replace(row, cards=tuple(loose[i] for i in row.cards))
        for row in split_rows(
            [points[i] for i in loose],
            row_break,
            step,
            WOVEN_OF_REACH * reach if reach else None,
            scale,
        )
    ]
    # printed matter goes before the one-deck step, so that a mark read as 3C can't push the
    # real 3C onto its next guess
    rows = [
        row
        for n, row in enumerate(rows)
        if not printed_matter(
            [cards[i] for i in row.cards], row, rows[n - 1] if n else None, reach, scale
        )
    ]
    rows = stacked_rows(rows, points, shown_heights, scale, reach_heights)
    rows = sorted(
        rows
        + [column_row(chain, points) for n, chain in enumerate(chains) if n not in in_grids]
        + [row for block in grids for row in grid_piles([chains[n] for n in block], points)],
        key=lambda row: _top_left(row, points),
    )
    if decks == 1:
        kept = [i for row in rows for i in row.cards]
        for i, card in zip(kept, one_of_each([cards[i] for i in kept]), strict=True):
            cards[i] = card
        unlikely = {i for i in kept if cards[i].confidence < ONE_DECK_DROP_BELOW}
        unread += [points[i] for i in sorted(unlikely)]
        rows = [row for row in (_without(row, unlikely) for row in rows) if row.cards]
    others = unread + [
        rotate(turn_to_up(index.centre, up, width, height), angle) for index in doubted
    ]
    piles = tuple(tuple(cards[i] for i in row.cards) for row in rows)
    down_others = [(y, x) for x, y in others]
    spans = [seen_across(groups[n], framed, scale) for n in shown]
    rows_step = step_of_rows(rows)
    gaps = tuple(
        row_gaps(row, down_others, scale)
        if row.column
        else lone_card_gaps(row, rows_step, others, scale, spans[row.cards[0]])
        if len(row.cards) == 1
        else row_gaps(row, others, scale, tuple(spans[i] for i in row.cards))
        for row in rows
    )
    sides = (SIDES[up],) * len(piles)
    rows_or_columns = tuple(row.rows_or_columns for row in rows)
    return PhotoRead(
        width=width,
        height=height,
        piles=piles,
        gaps=gaps,
        sides=sides,
        rows_or_columns=rows_or_columns if any(rows_or_columns) else (),
    )


CUT_BY_THE_EDGE_WITHIN = 0.1
"""An index whose box reaches within this part of its height of the photo's edge may be cut by
it: its box measures only what shows."""


def index_height(
    indices: Sequence[IndexRead], heights: Sequence[float], width: int, height: int
) -> float:
    """The typical index height of the photo's cards: the median of those no edge of the photo
    cuts (CUT_BY_THE_EDGE_WITHIN; of all where every one may be cut). A patterned cloth cut by
    the photo's edge, read as twenty small unlikely aces, made it 117 px where the cards' stand
    300, and three rows pushed into each other came out as one (pushed kitty k00086)."""
    whole = [h for index, h in zip(indices, heights, strict=True) if not _cut(index, width, height)]
    return median(whole or heights)


def _cut(index: IndexRead, width: int, height: int) -> bool:
    """Whether an index's box reaches the photo's edge (CUT_BY_THE_EDGE_WITHIN); never where the
    photo's size is not known."""
    if not width or not height:
        return False
    x1, y1, x2, y2 = index.box
    near = CUT_BY_THE_EDGE_WITHIN * max(x2 - x1, y2 - y1)
    return min(x1, y1, width - x2, height - y2) <= near


COLUMN_STEP_OF_REACH = 0.9
"""A card of a column lies lower than the one before by less than this part of the cards' reach
(its top index shows, and at most a little more of it); the next row of a table lies a whole
card lower, beyond the reach..."""

LONG_COLUMN_STEP_OF_REACH = 1.1
LONG_COLUMN_CARDS = 3
"""...or, in a column of at least LONG_COLUMN_CARDS, by less than this part (a card laid with
half of it showing, and a reach measured on few cards can be short of a real card's; two cards
alone one below the other may be two rows' cards)..."""

COLUMN_STEP = 5.0
"""...or, where no card shows its reach, less than this many index heights..."""

COLUMN_MIN_STEP = 2.0
"""...but never less than this many index heights: a column shows each card's whole top index,
and a deck whose indices are large for its cards (a jumbo index) reaches barely further than
its indices are tall, so its column steps can exceed its cards' reach (the next row still lies
a whole card lower)..."""

COLUMN_DRIFT = 0.6
"""...and aside from it by at most this part of how much lower it is (a column laid at up to 30
degrees), and an index height..."""

COLUMN_BESIDE = 2.5
"""...and at most a third of its cards have another card beside them (as in a row) within this
many index heights or one and a half of the rows' step: a card laid between two rows lies below
a row's card and above the next row's, which have their rows' neighbours beside them; cards of
a column beside it (columns laid side by side) are no row's."""

MIN_COLUMN_CARDS = 2


def find_columns(
    points: Sequence[Point],
    heights: Sequence[float],
    scale: float,
    reach: float | None,
    step: float,
    whole: set[int] | frozenset[int] = frozenset(),
) -> list[tuple[int, ...]]:
    """The columns among the cards' anchor points (in the row frame): chains of cards, each
    straight below the one before and nearer than a card's reach, top card first. Distances
    are measured in the two cards' own index heights (`heights`, at least the typical `scale`):
    a seated camera sees the cards nearer to it larger. `reach`: in index heights. `whole`:
    the cards whose bottom corner shows (no card lies on them: a pile's last card)."""
    links = []
    for i, (x, y) in enumerate(points):
        for j, (other_x, other_y) in enumerate(points):
            size = _pair_size(heights, i, j, scale)
            down = other_y - y
            aside = abs(other_x - x)
            if (
                ACROSS_ROW * size < down <= _column_step(reach, size, LONG_COLUMN_STEP_OF_REACH)
                and aside <= COLUMN_DRIFT * down + size
                and not _over_another_card(points, i, j, size)
            ):
                links.append((math.hypot(aside, down), i, j))
    below: dict[int, int] = {}
    above: dict[int, int] = {}
    for _, i, j in sorted(links):
        if i not in below and j not in above:
            below[i], above[j] = j, i
    chains = []
    for start in range(len(points)):
        if start in above or start not in below:
            continue
        chain = [start]
        while chain[-1] in below:
            chain.append(below[chain[-1]])
        short_enough = [
            points[b][1] - points[a][1]
            <= _column_step(reach, _pair_size(heights, a, b, scale), COLUMN_STEP_OF_REACH)
            for a, b in pairwise(chain)
        ]
        if len(chain) >= LONG_COLUMN_CARDS or (
            len(chain) >= MIN_COLUMN_CARDS and all(short_enough)
        ):
            chains.append(tuple(chain))
    beside = _beside(scale, step)
    chains = _without_row_heads(chains, points, heights, scale, beside)
    chains = _joined_columns(chains, points, heights, scale, beside, whole)
    in_chains = {i for chain in chains for i in chain}
    return [
        chain
        for chain in chains
        if 3 * _in_rows(chain, points, scale, beside, in_chains) <= len(chain)
    ]


def _beside(scale: float, step: float) -> float:
    """How far beside a card another lies level with it as its neighbour in a row
    (COLUMN_BESIDE)."""
    return max(COLUMN_BESIDE * scale, 1.5 * step)


def grid_blocks(
    chains: Sequence[tuple[int, ...]],
    points: Sequence[Point],
    heights: Sequence[float],
    scale: float,
    reach: float | None,
    step: float,
) -> list[list[int]]:
    """The columns (positions in `chains`) that lie side by side as a grid, in blocks of two or
    more, left to right: columns of as many cards, each card level with the next column's card
    of its place and nearer beside it than a card's reach (`reach`, in index heights; a card is
    about as wide as it reaches) and a row's neighbour (`_beside`). Such cards overlap both
    ways, so they read as rows as well as columns, and nothing in the photo tells which the
    player laid. Columns laid apart (a card's width or more) are no grid."""
    beside = _beside(scale, step)

    def alongside(left: tuple[int, ...], right: tuple[int, ...]) -> bool:
        if len(left) != len(right):
            return False
        for i, j in zip(left, right, strict=True):
            size = _pair_size(heights, i, j, scale)
            across = points[j][0] - points[i][0]
            if abs(points[j][1] - points[i][1]) > ACROSS_ROW * size or not (
                0 < across <= min(beside, (reach or math.inf) * size)
            ):
                return False
        return True

    order = sorted(range(len(chains)), key=lambda n: points[chains[n][0]][0])
    blocks: list[list[int]] = []
    for n in order:
        home = next((block for block in blocks if alongside(chains[block[-1]], chains[n])), None)
        if home is None:
            blocks.append([n])
        else:
            home.append(n)
    return [block for block in blocks if len(block) > 1]


SIDEWAYS_OF_REACH = 0.95
"""A card lies over another sideways, as a row's cards do, where it lies level with it and
nearer beside it than this part of the cards' reach (a card is about as wide as it reaches);
columns laid side by side lie farther apart than a card is wide. At 0.8, two pushed rows whose
cards overlap by a fifth (0.84 of a reach apart) broke into pieces wherever a card of the lower
row lay straight below one of the upper (pushed kitty k00092)."""


def _rows_cards(
    chain: Sequence[int],
    points: Sequence[Point],
    heights: Sequence[float],
    scale: float,
    reach: float | None,
) -> bool:
    """Whether most of a chain's cards lie level with a card over them sideways
    (SIDEWAYS_OF_REACH, `reach` in index heights): they are rows' cards, a player's rows pushed
    into each other, each card lower than one of the row above by less than a card's reach. Not
    told where no card shows its reach."""
    if reach is None:
        return False

    def overlapped(i: int) -> bool:
        return any(
            k != i
            and abs(points[k][1] - points[i][1]) <= ACROSS_ROW * _pair_size(heights, i, k, scale)
            and 0
            < abs(points[k][0] - points[i][0])
            <= SIDEWAYS_OF_REACH * reach * _pair_size(heights, i, k, scale)
            for k in range(len(points))
        )

    return 2 * sum(overlapped(i) for i in chain) > len(chain)


def stacked_rows(
    rows: Sequence[Row],
    points: Sequence[Point],
    heights: Sequence[float],
    scale: float,
    reach: float | None,
) -> list[Row]:
    """The rows (top to bottom), those stacked as a grid marked as rows or columns: rows of as
    many cards, one after the other, each card lying straight below the card of its place in the
    row above as a column's next card would (rows pushed into each other with their cards
    aligned). Read as columns where they are fewer (`grid_piles`)."""

    def stacked(upper: Row, lower: Row) -> bool:
        if len(upper.cards) != len(lower.cards) or len(upper.cards) < 2:
            return False
        for i, j in zip(upper.cards, lower.cards, strict=True):
            size = _pair_size(heights, i, j, scale)
            down = points[j][1] - points[i][1]
            aside = abs(points[j][0] - points[i][0])
            limit = _column_step(reach, size, COLUMN_STEP_OF_REACH)
            if not (ACROSS_ROW * size < down <= limit and aside <= COLUMN_DRIFT * down + size):
                return False
        return True

    out: list[Row] = []
    block: list[Row] = []
    for row in [*rows, None]:
        if row is not None and block and stacked(block[-1], row):
            block.append(row)
            continue
        if len(block) > 1:
            columns = [tuple(row.cards[k] for row in block) for k in range(len(block[0].cards))]
            out += grid_piles(columns, points)
        else:
            out += block
        block = [row] if row is not None else []
    return out


def grid_piles(columns: Sequence[tuple[int, ...]], points: Sequence[Point]) -> list[Row]:
    """A grid's piles (`grid_blocks`: its columns, left to right), marked as rows or columns:
    its columns where they are fewer than its rows (a player lays few piles), else its rows
    (as players are asked to lay their piles)."""
    if len(columns) < len(columns[0]):
        return [replace(column_row(column, points), rows_or_columns=True) for column in columns]
    rows = []
    for place in range(len(columns[0])):
        cards = tuple(column[place] for column in columns)
        anchors = tuple(points[i] for i in cards)
        rows.append(Row(cards, anchors, _anchors_step(anchors), rows_or_columns=True))
    return rows


MIDDLE_CARD_WITHIN = 0.5
"""How near the middle between two cards (in index heights) another card lies where it is a
steep row's card between them. A whole index height reached beyond the middle of a jumbo deck's
column (its steps barely an index height): a mark read beside its last card broke it (3636's
t00063)."""


def _over_another_card(points: Sequence[Point], i: int, j: int, size: float) -> bool:
    """Whether another card's anchor lies within MIDDLE_CARD_WITHIN of `size` (an index height)
    of the middle between cards i and j: a column's next card lies below it with no card
    between them, while a row laid steeply across its frame (a seated camera's pile at an angle
    to the side's other one) has every other card below the one before, its neighbour in
    between."""
    middle = ((points[i][0] + points[j][0]) / 2, (points[i][1] + points[j][1]) / 2)
    return any(
        k not in (i, j) and _distance(point, middle) <= MIDDLE_CARD_WITHIN * size
        for k, point in enumerate(points)
    )


JOIN_OF_STEP = 2.6
"""A column goes on below where its chain broke (a card missing, or an index whose box came out
small, so that the next lay beyond the step allowed): to the top card of another chain, or to a
card of no row, lying straight below its last card within this many of the column's own steps
(its median, in index heights: a seated camera's perspective makes a near column's steps
grow)..."""

HEAD_OF_STEP = 1.8
"""...and a column's top card that lies above the next farther than this many of the column's
other steps, level with a row's cards beside it, is that row's end card (a row laid just above
a column)."""


def _column_steps(
    chain: Sequence[int], points: Sequence[Point], heights: Sequence[float], scale: float
) -> list[float]:
    """How much lower each card of a chain lies than the one before, in their index heights."""
    return [
        (points[b][1] - points[a][1]) / _pair_size(heights, a, b, scale) for a, b in pairwise(chain)
    ]


def _without_row_heads(
    chains: list[tuple[int, ...]],
    points: Sequence[Point],
    heights: Sequence[float],
    scale: float,
    beside: float,
) -> list[tuple[int, ...]]:
    """The chains, each without a top card that is a row's end card (HEAD_OF_STEP)."""
    in_chains = {i for chain in chains for i in chain}
    kept = []
    for chain in chains:
        steps = _column_steps(chain, points, heights, scale)
        if (
            len(steps) >= 3
            and steps[0] > HEAD_OF_STEP * median(steps[1:])
            and _beside_a_row(chain[0], points, scale, beside, in_chains)
        ):
            chain = chain[1:]
        kept.append(chain)
    return kept


def _joined_columns(
    chains: list[tuple[int, ...]],
    points: Sequence[Point],
    heights: Sequence[float],
    scale: float,
    beside: float,
    whole: set[int] | frozenset[int],
) -> list[tuple[int, ...]]:
    """The chains, each joined to what lies below where it broke (JOIN_OF_STEP), nearest
    first; none below a card that shows its bottom corner (`whole`): the next pile may lie
    there, one player's piles laid one below the other. A card of no row lying straight above
    a chain's top card as near (not showing its bottom corner: a card lies on it) is the
    column's first card: where the cards' reach was measured short, its step to the next was
    too long for a link (calibration t00002's first card)."""
    joined = [list(chain) for chain in chains]
    while True:
        in_chains = {i for chain in joined for i in chain}
        heads = {chain[0]: n for n, chain in enumerate(joined)}
        best: tuple[float, int, int, bool] | None = None
        for n, chain in enumerate(joined):
            longest = JOIN_OF_STEP * median(_column_steps(chain, points, heights, scale))
            for k in range(len(points)):
                another_top = k in heads and heads[k] != n
                if k in in_chains and not another_top:
                    continue
                if k not in in_chains and _beside_a_row(k, points, scale, beside, in_chains):
                    continue
                ways = [] if chain[-1] in whole else [(chain[-1], k, False)]
                if k not in in_chains and k not in whole:
                    ways.append((k, chain[0], True))
                for upper, lower, above in ways:
                    apart = _straight_below(points, heights, scale, upper, lower, longest)
                    if apart is not None and (best is None or apart < best[0]):
                        best = (apart, n, k, above)
        if best is None:
            return [tuple(chain) for chain in joined]
        _, n, k, above = best
        if above:
            joined[n].insert(0, k)
        elif k in heads:
            joined[n] += joined[heads[k]]
            del joined[heads[k]]
        else:
            joined[n].append(k)


def _straight_below(
    points: Sequence[Point],
    heights: Sequence[float],
    scale: float,
    upper: int,
    lower: int,
    longest: float,
) -> float | None:
    """How much lower card `lower` lies than card `upper` where it lies straight below it
    (COLUMN_DRIFT), lower by more than ACROSS_ROW and at most `longest` of their index heights;
    else None."""
    size = _pair_size(heights, upper, lower, scale)
    down = points[lower][1] - points[upper][1]
    aside = abs(points[lower][0] - points[upper][0])
    if ACROSS_ROW * size < down <= longest * size and aside <= COLUMN_DRIFT * down + size:
        return down
    return None


def _pair_size(heights: Sequence[float], i: int, j: int, scale: float) -> float:
    """Two cards' index height, for distances between them: their mean, at least `scale`."""
    return max(scale, (heights[i] + heights[j]) / 2)


def _column_step(reach: float | None, size: float, of_reach: float) -> float:
    """How much lower a column's next card may lie: `of_reach` of the reach of cards whose
    indices are `size` tall and reach `reach` index heights (None: unmeasured)."""
    if reach is None:
        return COLUMN_STEP * size
    return max(of_reach * reach, COLUMN_MIN_STEP) * size


def _in_rows(
    chain: Sequence[int],
    points: Sequence[Point],
    scale: float,
    beside: float,
    in_chains: set[int],
) -> int:
    """How many cards of the chain have a card beside them, as in a row: level with them,
    within `beside`, and of no chain (a column's cards meet the next column's level now and
    then)."""
    return sum(_beside_a_row(i, points, scale, beside, in_chains) for i in chain)


def _beside_a_row(
    i: int, points: Sequence[Point], scale: float, beside: float, in_chains: set[int]
) -> bool:
    """Whether a card of no chain lies level with card `i`, within `beside`."""
    return any(
        abs(points[k][1] - points[i][1]) <= ACROSS_ROW * scale
        and abs(points[k][0] - points[i][0]) <= beside
        for k in range(len(points))
        if k not in in_chains and k != i
    )


def _without(row: Row, dropped: set[int]) -> Row:
    """The row without the cards `dropped`, its own step measured again (that of a row left
    with one card kept)."""
    if not dropped.intersection(row.cards):
        return row
    kept = [n for n, i in enumerate(row.cards) if i not in dropped]
    anchors = tuple(row.anchors[n] for n in kept)
    return replace(
        row,
        cards=tuple(row.cards[n] for n in kept),
        anchors=anchors,
        step=_anchors_step(anchors) or row.step,
    )


def column_row(chain: Sequence[int], points: Sequence[Point]) -> Row:
    """A column as a row read top to bottom: its anchors (down, across) and its own step."""
    anchors = tuple((points[i][1], points[i][0]) for i in chain)
    return Row(tuple(chain), anchors, _anchors_step(anchors), column=True)


def _anchors_step(anchors: Sequence[Point]) -> float:
    """The own offset (`_own_offset`) of a row's or column's anchors, in their order."""
    return _own_offset([b[0] - a[0] for a, b in pairwise(anchors)])


def _top_left(row: Row, points: Sequence[Point]) -> tuple[float, float]:
    """Where a row or column starts, for ordering piles top to bottom."""
    first = points[row.cards[0]]
    return min(points[i][1] for i in row.cards), first[0]


def printed_matter(
    cards: Sequence[ReadCard],
    row: Row,
    above: Row | None,
    reach: float | None,
    scale: float,
) -> bool:
    """Whether a row is printed matter on the cards rather than a pile (STRAY_MARK_BELOW,
    UNLIKELY_BELOW)."""
    stray = all(card.doubtful for card in cards) and stray_marks(cards, scale)
    unlikely = all(card.confidence < UNLIKELY_BELOW for card in cards)
    return stray or (unlikely and on_card_faces(row, above, reach, scale))


def stray_marks(cards: Sequence[ReadCard], scale: float) -> bool:
    """Whether a row's cards are all far smaller than the photo's indices: each index measured
    along its box's longer side, its glyphs' height whichever way it is turned (a loose card
    lying a quarter turn from the photo's up shows its index's width up the photo: a 9H at 0.66
    taken for a mark, scattered s61_000117)."""
    return all(
        max(glyph_pixels(index) for index in card.indices) < STRAY_MARK_BELOW * scale
        for card in cards
    )


def on_card_faces(row: Row, above: Row | None, reach: float | None, scale: float) -> bool:
    """Whether a row starts within the faces of the row above's cards: less than their reach
    and an index height lower (a card's bottom edge lies about that far below its top index;
    a next row's indices, a whole card lower, lie lower by two index heights more)."""
    if above is None or reach is None:
        return False
    lower_by = min(y for _, y in row.anchors) - median(y for _, y in above.anchors)
    return lower_by < reach + scale


def drop_repeated_detections(indices: Sequence[IndexRead]) -> list[IndexRead]:
    """The indices without second detections of one index (boxes overlapping by more than
    SAME_INDEX_OVERLAP of the smaller one), most confident kept; but an index read again where
    a pile lost a card (`in_gap`) before all: a detection there was dropped as unlikely."""
    kept: list[IndexRead] = []
    for index in sorted(indices, key=lambda index: (not index.in_gap, -index.confidence)):
        if all(overlap(index.box, other.box) <= SAME_INDEX_OVERLAP for other in kept):
            kept.append(index)
    return kept


def overlap(a: Box, b: Box) -> float:
    """The part of the smaller box that the two boxes share (0 to 1)."""
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    if width <= 0 or height <= 0:
        return 0.0
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return width * height / max(smaller, 1e-9)


def photo_up(indices: Sequence[IndexRead], upright_prior: float = UPRIGHT_PRIOR) -> int:
    """The quarter turn most card glyphs stand at (0 when the classifier gives none), upright
    winning where the glyphs' votes, each as sure as the index is read, fall short of
    `upright_prior`."""
    votes = np.zeros(4)
    votes[0] = upright_prior
    for index in indices:
        if index.orientations:
            votes += np.asarray(index.orientations) * index.confidence
    return int(np.argmax(votes))


def turn_to_up(point: Point, up: int, width: int, height: int) -> Point:
    """A photo point in the frame where glyphs standing at quarter turn `up` stand upright."""
    x, y = point
    if up == 1:  # glyph tops point right: turn the picture a quarter anticlockwise
        return y, width - x
    if up == 2:
        return width - x, height - y
    if up == 3:
        return height - y, x
    return x, y


def upright_height(index: IndexRead, up: int) -> float:
    """The index box's extent up the glyphs of a photo whose up is quarter turn `up`."""
    x1, y1, x2, y2 = index.box
    return x2 - x1 if up % 2 else y2 - y1


def glyph_pixels(index: IndexRead) -> float:
    """An index box's longer side: its glyphs' height, whichever way they are turned."""
    x1, y1, x2, y2 = index.box
    return max(x2 - x1, y2 - y1)


def _stands_with(index: IndexRead, up: int) -> float:
    """Probability that the glyph stands with the photo's up or upside down (1 if unknown)."""
    if not index.orientations:
        return 1.0
    return index.orientations[up] + index.orientations[(up + 2) % 4]


def _upside_down(index: IndexRead, up: int) -> bool:
    return index.orientation is not None and (index.orientation - up) % 4 == 2


def rotate(point: Point, angle: float) -> Point:
    """The point in a frame turned by `angle` (radians), so a row at that angle runs along x."""
    x, y = point
    cos, sin = math.cos(angle), math.sin(angle)
    return x * cos + y * sin, -x * sin + y * cos


ROW_NEIGHBOUR_OF_NEAREST = 3.0
"""An index's nearest neighbour along a row measures the rows' direction only where it lies no
farther than this many times the index's nearest neighbour in any direction: a column's card
lies just above the next, and its neighbour "along a row" is another pile's card far off (a
near player's two columns, converging, framed at 42 degrees: a column split in two, fresh
table t00026)."""


def row_angle(centres: Sequence[Point]) -> float:
    """The direction rows run in (radians): the median direction from each index to its nearest
    neighbour within MAX_ROW_TILT_DEGREES of horizontal (a card's own bottom corner may lie
    nearer, below it), among those no farther than three times the typical such neighbour and
    ROW_NEIGHBOUR_OF_NEAREST times the index's nearest neighbour."""
    dx, dy = _offsets(centres)
    apart = np.hypot(dx, dy)
    nearest = np.where(apart > 0, apart, np.inf).min(axis=1) if len(centres) else []
    found = [
        offset
        for offset, closest in zip(nearest_beside_each(centres), nearest, strict=True)
        if offset is not None and math.hypot(*offset) <= ROW_NEIGHBOUR_OF_NEAREST * closest
    ]
    if not found:
        return 0.0
    reach = 3 * median(math.hypot(dx, dy) for dx, dy in found)
    return median(math.atan2(dy, dx) for dx, dy in found if math.hypot(dx, dy) <= reach)


def nearest_beside_each(points: Sequence[Point]) -> list[Point | None]:
    """For each point, the offset to its nearest other point within MAX_ROW_TILT_DEGREES of
    horizontal, pointing right (None where there is none); of equally near ones, the first."""
    dx, dy = _offsets(points)
    leftwards = dx < 0
    dx, dy = np.where(leftwards, -dx, dx), np.where(leftwards, -dy, dy)
    beside = (dx != 0) | (dy != 0)  # the point itself, and any lying on it, are no neighbour
    beside &= _within_row_tilt(dx, dy)
    distances = np.where(beside, np.hypot(dx, dy), np.inf)
    nearest = distances.argmin(axis=1) if len(points) else []
    return [
        (float(dx[i, j]), float(dy[i, j])) if beside[i, j] else None for i, j in enumerate(nearest)
    ]


def _offsets(points: Sequence[Point]) -> tuple[np.ndarray, np.ndarray]:
    """The offsets (x, then y) from each point (rows) to every point (columns)."""
    xy = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    return xy[None, :, 0] - xy[:, None, 0], xy[None, :, 1] - xy[:, None, 1]


def _within_row_tilt(dx: float | np.ndarray, dy: float | np.ndarray) -> bool | np.ndarray:
    """Whether an offset pointing right (dx >= 0) runs within MAX_ROW_TILT_DEGREES of across
    (offsets one by one, or arrays of them at once)."""
    return np.abs(np.degrees(np.arctan2(dy, dx))) <= MAX_ROW_TILT_DEGREES


def row_step(points: Sequence[Point], cards: Sequence[Card], fallback: float) -> float:
    """The offset between neighbouring cards along the rows (in the row frame): the median
    distance from each index to its nearest neighbour along the row that reads another card
    (a four-index card's own top-right corner is no neighbour); `fallback` if none."""
    dx, dy = _offsets(points)
    codes = {card: n for n, card in enumerate(dict.fromkeys(cards))}
    card_codes = np.array([codes[card] for card in cards])
    along = (card_codes[:, None] != card_codes[None, :]) & ((dx != 0) | (dy != 0))
    along &= np.degrees(np.arctan2(np.abs(dy), np.abs(dx))) <= ALONG_ROW_DEGREES
    nearest = np.where(along, np.hypot(dx, dy), np.inf).argmin(axis=1) if len(points) else []
    # the distance as math.hypot gives it: NumPy's may differ in the last digit
    steps = [math.hypot(dx[i, j], dy[i, j]) for i, j in enumerate(nearest) if along[i, j]]
    return median(steps) if steps else fallback


def _across(upper: Point, lower: Point, height: float) -> bool:
    """Whether `lower` lies across the row from `upper`, below it."""
    return lower[1] - upper[1] > ACROSS_ROW * height


def group_corners(
    indices: Sequence[IndexRead],
    members: Sequence[int],
    framed: Sequence[Point],
    heights: Sequence[float],
    *,
    decks: int,
    step: float,
    scale: float,
) -> list[list[int]]:
    """The indices `members` (positions in `indices`) grouped so that each group is one card.

    Indices read as the same card, placed as two corners of one card lie, are joined: one
    below the other (a top and a bottom corner), or side by side along the row, nothing between
    them, at a distance unlike the row's offset between neighbours when the row's cards overlap
    (a top-left and top-right corner; two neighbours read as the same card are not joined into
    one). With one deck a card exists once, so every such pair joins. With two decks a pair
    joins only if it is across the row, and each index joins at most one other, since two
    copies of a card may lie side by side.
    """
    by_card: dict[Card, list[int]] = defaultdict(list)
    for i in members:
        by_card[indices[i].card].append(i)

    parent = {i: i for i in members}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    overlapping = step <= NEIGHBOURS_STEP_WITHIN * scale
    paired: set[int] = set()
    for same in by_card.values():
        candidates = sorted(
            (_distance(framed[i], framed[j]), i, j)
            for n, i in enumerate(same)
            for j in same[n + 1 :]
            if _alike_in_size(heights[i], heights[j])
        )
        for distance, i, j in candidates:
            if distance > MAX_CORNER_DISTANCE * scale:
                break
            upper, lower = sorted((i, j), key=lambda k: framed[k][1])
            across = _across(framed[upper], framed[lower], (heights[i] + heights[j]) / 2)
            if not across and (
                (overlapping and step / NEIGHBOURS_WITHIN <= distance <= NEIGHBOURS_WITHIN * step)
                or _anything_between(i, j, members, framed, heights)
            ):
                continue
            if decks == 1:
                parent[find(i)] = find(j)
            elif across and i not in paired and j not in paired:
                parent[find(i)] = find(j)
                paired.update((i, j))

    groups: dict[int, list[int]] = defaultdict(list)
    for i in members:
        groups[find(i)].append(i)
    return list(groups.values())


CORNERS_SIZES_WITHIN = 2.0
"""Two indices of one card stand within this ratio of each other's height (a camera's
perspective or a corner part hidden makes one smaller, never this much): a patterned cloth at
the photo's edge, read as twenty aces a third of the row's indices' size, took a row's ace as
its corner (pushed kitty k00086)."""


def _alike_in_size(a: float, b: float) -> bool:
    """Whether two index heights may be two corners of one card (CORNERS_SIZES_WITHIN)."""
    return max(a, b) <= CORNERS_SIZES_WITHIN * min(a, b)


def _anything_between(
    i: int, j: int, members: Sequence[int], framed: Sequence[Point], heights: Sequence[float]
) -> bool:
    """Whether another index lies in the row between indices i and j (side by side)."""
    left, right = sorted((framed[i][0], framed[j][0]))
    middle = (framed[i][1] + framed[j][1]) / 2
    return any(
        left < framed[k][0] < right and abs(framed[k][1] - middle) <= ACROSS_ROW * heights[k]
        for k in members
        if k not in (i, j)
    )


def join_misread_corners(
    indices: Sequence[IndexRead],
    members: Sequence[int],
    groups: list[list[int]],
    framed: Sequence[Point],
    heights: Sequence[float],
) -> list[list[int]]:
    """Cards read as two joined where one is the other's top-right corner misread
    (CORNER_AGREEMENT): most agreeing pair first, each card joined at most once. A card that
    already shows both top corners joins none."""
    spacings = _top_corner_spacings(groups, framed, heights)
    if not spacings:
        return groups
    shortest = min(spacings) / (1 + CORNER_SPACING_WITHIN)
    longest = max(spacings) * (1 + CORNER_SPACING_WITHIN)
    open_cards = [
        g for g, group in enumerate(groups) if not _side_by_side_pairs(group, framed, heights)
    ]
    corners = {g: own_corner(groups[g], framed, heights) for g in open_cards}
    beliefs = {g: _beliefs([indices[i] for i in groups[g]]) for g in open_cards}
    candidates = []
    for n, g in enumerate(open_cards):
        for h in open_cards[n + 1 :]:
            i, j = corners[g], corners[h]
            upper, lower = sorted((i, j), key=lambda k: framed[k][1])
            # a card's two top corners lie along its top edge, the card at its own slight angle
            spacing = _distance(framed[i], framed[j]) / min(heights[i], heights[j])
            if (
                indices[i].card == indices[j].card
                or framed[lower][1] - framed[upper][1] > min(heights[i], heights[j])
                or not shortest <= spacing <= longest
                or _anything_between(i, j, members, framed, heights)
            ):
                continue
            agreement = _shared_belief(beliefs[g], beliefs[h])
            if agreement >= CORNER_AGREEMENT:
                candidates.append((-agreement, g, h))
    partner: dict[int, int] = {}
    for _, g, h in sorted(candidates):
        if g not in partner and h not in partner:
            partner[g], partner[h] = h, g
    kept = [group for g, group in enumerate(groups) if g not in partner]
    return kept + [groups[g] + groups[h] for g, h in partner.items() if g < h]


def _side_by_side_pairs(
    group: Sequence[int], framed: Sequence[Point], heights: Sequence[float]
) -> list[tuple[int, int]]:
    """The pairs of a card's indices that lie side by side (its top-left and top-right)."""
    return [
        (a, b)
        for n, a in enumerate(group)
        for b in group[n + 1 :]
        if not _across(
            *sorted((framed[a], framed[b]), key=lambda point: point[1]),
            (heights[a] + heights[b]) / 2,
        )
    ]


def _top_corner_spacings(
    groups: Sequence[Sequence[int]], framed: Sequence[Point], heights: Sequence[float]
) -> list[float]:
    """The distances, in the smaller index's heights, between the two top corners of each card
    seen whole (two indices side by side in one group)."""
    return [
        _distance(framed[a], framed[b]) / min(heights[a], heights[b])
        for group in groups
        for a, b in _side_by_side_pairs(group, framed, heights)
    ]


def best_probabilities(indices: Sequence[IndexRead]) -> np.ndarray:
    """Each index's best guess's probability (0 where it has none)."""
    return np.array(
        [index.guesses[0].probability if index.guesses else 0.0 for index in indices], dtype=float
    )


def own_corner(
    group: Sequence[int],
    framed: Sequence[Point],
    heights: Sequence[float],
    probabilities: np.ndarray | None = None,
    upside_down: Collection[int] = frozenset(),
) -> int:
    """The card's own top-left index: the leftmost of its topmost indices, of those not read
    unsurely where a top corner is read surely (ANCHOR_UNSURE_BELOW, by their best guesses'
    `probabilities`; a pip read
    as its card just above its index put a column's card level with the one before, 3636's
    t00051; a mark read as the card by the next row's end put the card there, calibration
    t00095). A top corner read unsurely beside a surely read bottom corner (`upside_down`) is
    still the card's place. Its place in the row comes from this index alone, never from one
    joined to it."""
    if probabilities is not None and any(
        probabilities[i] >= ANCHOR_SURE_ABOVE and i not in upside_down for i in group
    ):
        group = [i for i in group if probabilities[i] >= ANCHOR_UNSURE_BELOW]
    top = min(framed[i][1] for i in group)
    upper = [i for i in group if framed[i][1] - top <= ACROSS_ROW * heights[i]]
    return min(upper, key=lambda i: framed[i][0])


def attach_bottom_corners(
    indices: Sequence[IndexRead],
    bottoms: Sequence[int],
    groups: list[list[int]],
    framed: Sequence[Point],
    heights: Sequence[float],
    *,
    scale: float,
    strangers_join: bool = True,
) -> list[list[int]]:
    """Each upside-down index joins the card it is the bottom corner of (the same card, below
    its top corner, within a card's reach), best match first; one that joins none is dropped.
    Unless `strangers_join`, a surely read one joins no card it hardly agrees with
    (STRANGER_AGREEMENT): it is another card's (`lone_bottom_corners` may make it one)."""
    groups = [list(group) for group in groups]
    candidates = []
    for b in bottoms:
        # a surely read one needs more than any shared guess, unless strangers join
        least = (
            STRANGER_AGREEMENT
            if not strangers_join and indices[b].guesses[0].probability >= LONE_CORNER_SURE
            else 0.0
        )
        for g, group in enumerate(groups):
            top = own_corner(group, framed, heights)
            distance = _distance(framed[b], framed[top])
            below = _across(framed[top], framed[b], (heights[b] + heights[top]) / 2)
            agreement = _agreement(indices[b], [indices[i] for i in group])
            if (
                below
                and distance <= MAX_CORNER_DISTANCE * scale
                and agreement > 0
                and agreement >= least
            ):
                candidates.append((-agreement, distance, b, g))
    taken: set[int] = set()
    joined = [0] * len(groups)
    for _, _, b, g in sorted(candidates):
        # a card shows one bottom-right and, on four-index decks, one bottom-left index
        if b not in taken and joined[g] < 2:
            groups[g].append(b)
            taken.add(b)
            joined[g] += 1
    return groups


STRANGER_AGREEMENT = 0.05
"""An upside-down index read as surely as LONE_CORNER_SURE joins, in one player's photo, only a
card it agrees with at least this strongly (`_agreement`): any shared guess joined it before, and
a card lying upside down beside a pile's card gave it its corners (a real photo: a 10S's two sure
corners joined the QS beside it, read doubtful, 0.71; a sure 7S corner joined a 5S). Kept apart,
it may still be a card of its own (`lone_bottom_corners`; that 10S, within the QS's reach, is
not). On a whole table's side (no lone corners: an upside-down index there is the opposite
player's card) they join as before: fresh tables 3636 read 0.899 -> 0.893 of piles right with
them apart. Session 56, one player's photos: harder kitty 0.950 -> 0.960 of piles right, edje
recall 0.993 -> 1.000, scattered cards 0.7959 -> 0.7977 read right, right cards flagged as often
or less on every set."""

LONE_CORNER_SURE = 0.9
"""An upside-down index that joins no card becomes a card of its own (its top corner hidden:
under another object, or out of the frame) only where it is read this surely..."""

LIKELY_CARD_ABOVE = 0.25
"""...found and read at least this likely (`IndexRead.confidence`), as the card above it must be
to hide it: a faint mark read as an index above it is no card."""


def lone_bottom_corners(
    indices: Sequence[IndexRead],
    bottoms: Sequence[int],
    groups: Sequence[Sequence[int]],
    framed: Sequence[Point],
    heights: Sequence[float],
    *,
    scale: float,
) -> list[list[int]]:
    """Cards read from their bottom corners alone (a bottom-left and a bottom-right index of
    one card together): sure upside-down indices that joined no card, read as no card already
    read, with no card above them within a card's reach whose own bottom corner is unseen (a
    pile's last card whose top corner was misread shows its bottom corner there)."""
    joined = {i for group in groups for i in group}
    read_already = {indices[i].guesses[0].card for i in joined}
    upside_down = set(bottoms)
    open_tops = [
        own_corner(group, framed, heights)
        for group in groups
        if upside_down.isdisjoint(group)
        and max(indices[i].confidence for i in group) >= LIKELY_CARD_ABOVE
    ]
    lone: dict[Card, list[int]] = {}
    for b in bottoms:
        best = indices[b].guesses[0]
        if (
            b in joined
            or best.probability < LONE_CORNER_SURE
            or indices[b].confidence < LIKELY_CARD_ABOVE
            or best.card in read_already
        ):
            continue
        covered = any(
            _across(framed[top], framed[b], (heights[b] + heights[top]) / 2)
            and _distance(framed[b], framed[top]) <= MAX_CORNER_DISTANCE * scale
            for top in open_tops
        )
        if not covered:
            lone.setdefault(best.card, []).append(b)
    return list(lone.values())


FOURTH_CORNER_WITHIN = 0.75
"""A lone index lies where a card seen at three corners must show its fourth when its centre is
within this many of the card's index heights of that place (the corners' parallelogram, which a
camera's perspective bends a little)."""

CORNERS_SQUARE_WITHIN = 0.35
"""A card's three seen corners make a right angle, under a camera's perspective, when the cosine
of their angle is at most this."""

CORNERS_BEYOND_PAIR = 0.5
"""...and the corner beside the two lies above or below one of them, along their edge no farther
than this share of their distance apart beyond either (a real photo's dark-faced KC, read as
a card of its own, joined three corners of a 4C at 1.6 of it)."""

CORNERS_ASPECT = (0.5, 3.0)
"""The distance from a card's top to its bottom corner over that between its two top (or bottom)
corners: about 1.3 on a poker card, 1.4 on a bridge card, either way squeezed by a seated
camera or a frame resized to a square."""


def without_misread_fourth_corners(
    groups: Sequence[Sequence[int]],
    framed: Sequence[Point],
    heights: Sequence[float],
    upside_down: Collection[int],
) -> list[list[int]]:
    """The cards less each lone index that lies where a card seen at three corners (a four-index
    deck's) shows its fourth, standing as that corner stands, whatever it reads, where no other
    index lies on that card: no other card can show an index there without hiding a corner of
    the card, so it is the card's own corner misread (under glare, or noise), no card of its own;
    the three read the card (best fit first, one each). An index on the card means cards lie on
    it, and its three "corners" may be two cards' (a row's next cards, one's bottom corner
    misread as the card's)."""
    lone = {group[0]: g for g, group in enumerate(groups) if len(group) == 1}
    grouped = [i for group in groups for i in group]
    candidates = []
    for g, group in enumerate(groups):
        corner = missing_corner(group, framed, upside_down) if len(group) == 3 else None
        if corner is None:
            continue
        place, bottom = corner
        within = FOURTH_CORNER_WITHIN * max(heights[i] for i in group)
        card = [*(framed[i] for i in group), place]
        near = [
            i
            for i in lone
            if (i in upside_down) == bottom and _distance(framed[i], place) <= within
        ]
        candidates += [
            (_distance(framed[i], place), i, g)
            for i in near
            if not any(_on_the_card(framed[k], card) for k in grouped if k != i and k not in group)
        ]
    hosts: dict[int, int] = {}
    for _, i, g in sorted(candidates):
        if g not in hosts.values() and i not in hosts:
            hosts[i] = g
    misread = {lone[i] for i in hosts}
    return [list(group) for g, group in enumerate(groups) if g not in misread]


def pips_of_whole_cards(
    indices: Sequence[IndexRead],
    framed: Sequence[Point],
    heights: Sequence[float],
    upside_down: Collection[int],
    *,
    scale: float,
    calibration: Calibration,
    up: int,
) -> set[int]:
    """The top indices that are a pip of a card seen whole: lying between a card's top corner
    and its bottom corner (both read surely as that card, PIP_HOST_SURE, within a card's
    reach), PIP_INSIDE in from their span, and read as that card itself, or unsurely (below
    the doubt threshold, read alone) as a card of its suit. A card laid the same way with its
    index there would hide the bottom corner, so the index is the card's own face (a table's
    7D, both corners read, showed a diamond pip read as a 4D at 0.41 after its last card, fresh
    table t00092)."""
    spans = [
        (indices[top].card, framed[top], framed[bottom])
        for top in range(len(indices))
        if top not in upside_down
        for bottom in upside_down
        if indices[bottom].card == indices[top].card
        and min(indices[n].guesses[0].probability for n in (top, bottom)) >= PIP_HOST_SURE
        and framed[bottom][0] > framed[top][0]
        and framed[bottom][1] > framed[top][1]
        and _distance(framed[top], framed[bottom]) <= MAX_CORNER_DISTANCE * scale
    ]
    if not spans:
        return set()
    pips: set[int] = set()
    for i, index in enumerate(indices):
        if i in upside_down:
            continue
        margin = PIP_INSIDE * heights[i]
        x, y = framed[i]
        inside = [
            card
            for card, (left, top), (right, bottom) in spans
            if left + margin < x < right - margin and top + margin < y < bottom - margin
        ]
        if index.card in inside or (
            any(card.suit == index.card.suit for card in inside)
            and merge_group([index], calibration, up).confidence < calibration.doubtful_below
        ):
            pips.add(i)
    return pips


PIP_INSIDE = 0.25
"""A pip lies at least this many of its index heights in from the span between its card's
corners: a four-index card's top-right corner lies level with its top-left one."""

PIP_HOST_SURE = 0.9
"""A card shows its whole face between two of its corners only where both read it at least this
surely: a far pile's 5D and another card's bottom corner misread 5D at 0.63, a card's reach
apart, spanned a near pile's JD (fresh table t00106)."""


CARD_GROWN = 1.1
"""A point lies on a card when it lies within the card's corner indices' quadrilateral grown by
this about its middle (an index centre sits a little in from the card's edge)."""


def _on_the_card(point: Point, corners: Sequence[Point]) -> bool:
    """Whether `point` lies on the card whose four corner indices lie at `corners` (any order;
    CARD_GROWN)."""
    around = np.asarray(corners, dtype=np.float32)
    middle = around.mean(axis=0)
    card = cv2.convexHull(middle + CARD_GROWN * (around - middle))
    return cv2.pointPolygonTest(card, (float(point[0]), float(point[1])), False) >= 0


def missing_corner(
    group: Sequence[int], framed: Sequence[Point], upside_down: Collection[int]
) -> tuple[Point, bool] | None:
    """Where a card whose three indices are three of its corners (two top and one bottom, or one
    top and two bottom) shows its fourth, and whether that is a bottom (upside-down) corner;
    None when its indices are not three corners of a card (CORNERS_SQUARE_WITHIN,
    CORNERS_BEYOND_PAIR, CORNERS_ASPECT)."""
    tops = sorted((framed[i] for i in group if i not in upside_down), key=lambda point: point[0])
    bottoms = sorted((framed[i] for i in group if i in upside_down), key=lambda point: point[0])
    if len(tops) == 2 and len(bottoms) == 1:
        pair, other, bottom = tops, bottoms[0], True
    elif len(tops) == 1 and len(bottoms) == 2:
        pair, other, bottom = bottoms, tops[0], False
    else:
        return None
    (lx, ly), (rx, ry) = pair
    across = (rx - lx, ry - ly)
    width = math.hypot(*across)
    if width == 0:
        return None
    share = ((other[0] - lx) * across[0] + (other[1] - ly) * across[1]) / width**2
    near, far = (pair[0], pair[1]) if share < 0.5 else (pair[1], pair[0])
    side = (other[0] - near[0], other[1] - near[1])
    length = math.hypot(*side)
    if (
        length == 0
        or not -CORNERS_BEYOND_PAIR <= share <= 1 + CORNERS_BEYOND_PAIR
        or (side[1] > 0) != bottom  # a bottom corner lies below the top ones, a top one above
        or abs(side[0] * across[0] + side[1] * across[1]) > CORNERS_SQUARE_WITHIN * length * width
        or not CORNERS_ASPECT[0] <= length / width <= CORNERS_ASPECT[1]
    ):
        return None
    return (far[0] + side[0], far[1] + side[1]), bottom


def _agreement(bottom: IndexRead, group: Sequence[IndexRead]) -> float:
    """How strongly an upside-down index and a card agree on what the card is: the product of
    their probabilities for their best shared guess; 0 when they share none."""
    return _shared_belief(_beliefs([bottom]), _beliefs(group))


def _beliefs(group: Sequence[IndexRead]) -> dict[Card, float]:
    """A card's guesses, each index's probabilities averaged over its indices."""
    beliefs: dict[Card, float] = defaultdict(float)
    for index in group:
        for guess in index.guesses:
            beliefs[guess.card] += guess.probability / len(group)
    return beliefs


def _shared_belief(mine: dict[Card, float], theirs: dict[Card, float]) -> float:
    """The product of two beliefs' probabilities for their best shared card; 0 when none."""
    return max((mine[card] * theirs[card] for card in mine if card in theirs), default=0.0)


def agreeing(group: Sequence[int], indices: Sequence[IndexRead]) -> list[int]:
    """The indices of a card (`group`) whose own best guess is the card's (`merge_group`)."""
    beliefs = _beliefs([indices[i] for i in group])
    if not beliefs:
        return []
    card = max(beliefs, key=lambda guess: beliefs[guess])
    return [i for i in group if indices[i].card == card]


def seen_as_a_cards_corners(
    group: Sequence[int],
    indices: Sequence[IndexRead],
    framed: Sequence[Point],
    upside_down: Collection[int],
) -> bool:
    """Whether three of a card's indices that read it (`agreeing`: corners reading other cards
    say nothing) stand as three corners of one card (`missing_corner`): a four-index deck's card
    lying whole, not indices of several cards read alike and grouped (fanned and loose cards'
    groups of three were wrong one time in seven, session 59)."""
    if len(group) < 3:  # most cards: their guesses are not weighed twice
        return False
    corners = agreeing(group, indices)
    return any(
        missing_corner(three, framed, upside_down) is not None for three in combinations(corners, 3)
    )


def merge_group(
    group: Sequence[IndexRead],
    calibration: Calibration = UNCALIBRATED,
    up: int = 0,
    framed: bool = False,
) -> ReadCard:
    """One card from its indices: guesses averaged over the indices, box around all of them, and
    one calibrated probability, which its alternatives share in the classifier's proportions;
    `framed`: three of its indices stand as three of its corners (`seen_as_a_cards_corners`).

    The raw belief multiplies the detector's, the classifier's "an index" and its best card, and
    how well the glyphs stand with the photo's up (or upside down): an index lying across the
    rows of a pile is most often a pip or face art."""
    ranked = sorted(_beliefs(group).items(), key=lambda item: -item[1])[:TOP_GUESSES]
    is_index = sum(index.index_probability for index in group) / len(group)
    detected = max(index.detection_confidence for index in group)
    upright = sum(_stands_with(index, up) for index in group) / len(group)
    evidence = Evidence(ranked[0][1], detected, is_index, upright, len(group), framed)
    probability = (
        found_in_gap(ranked[0][1] * is_index, calibration)
        if all(index.in_gap for index in group)
        else calibration(evidence)
    )
    best, rest = ranked[0][1], max(1e-9, 1.0 - ranked[0][1])
    alternatives = (
        Guess(ranked[0][0], probability),
        *tuple(
            Guess(card, min(probability * share / best, (1.0 - probability) * share / rest))
            for card, share in ranked[1:]
        ),
    )
    return ReadCard(
        card=alternatives[0].card,
        box=_union([index.box for index in group]),
        confidence=probability,
        alternatives=alternatives,
        indices=tuple(group),
        doubtful_below=calibration.doubtful_below,
        evidence=evidence,
    )


def found_in_gap(belief: float, calibration: Calibration) -> float:
    """The probability of a card read only where a pile's lost card must lie (no detector found
    it, so the calibration, fitted on detections, does not apply): the classifier's belief, but
    shown (at least the calibration's drop threshold) and always flagged for the player to
    check (below its doubt threshold)."""
    just_below_doubt = min(calibration.doubtful_below, 1.0) - 0.01
    return min(max(belief, calibration.drop_below), just_below_doubt)


def one_of_each(cards: Sequence[ReadCard]) -> list[ReadCard]:
    """With one deck, each card at most once: the most probable set of cards (a linear
    assignment over each card's ranked guesses, none less likely than ONE_DECK_FARTHEST_GUESS).
    A card it cannot place keeps its own best guess: flagged (TAKEN_CONFIDENCE) where each of
    its guesses is taken, so the person sees the conflict; else as unlikely as
    ONE_DECK_FARTHEST_GUESS."""
    return placed_once(cards)[0]


def placed_once(cards: Sequence[ReadCard]) -> tuple[list[ReadCard], frozenset[int]]:
    """`one_of_each`'s cards, and the positions of those it could not place (each of their
    guesses taken by a likelier card, or too unlikely)."""
    if len({card.card for card in cards}) == len(cards):
        return list(cards), frozenset()  # each its own best guess: the most probable set
    codes = {card: column for column, card in enumerate(ALL_CARDS)}
    impossible = 1e6
    # beyond the deck's columns, one per card: it stays a card already taken
    cost = np.full((len(cards), len(ALL_CARDS) + len(cards)), impossible)
    for row, card in enumerate(cards):
        for guess in card.alternatives:
            cost[row, codes[guess.card]] = -math.log(max(guess.probability, 1e-9))
        cost[row, len(ALL_CARDS) + row] = -math.log(ONE_DECK_FARTHEST_GUESS)
    cost[:, : len(ALL_CARDS)] -= TIE_TO_THE_LATER * np.arange(len(cards))[:, None]
    out = list(cards)
    _, columns, _ = lap.lapjv(cost, extend_cost=True)
    assigned = {row: int(column) for row, column in enumerate(columns)}
    placed = {ALL_CARDS[column] for column in assigned.values() if column < len(ALL_CARDS)}
    unplaced = frozenset(row for row, column in assigned.items() if column >= len(ALL_CARDS))
    for row, column in assigned.items():
        if column >= len(ALL_CARDS):
            all_taken = all(guess.card in placed for guess in cards[row].alternatives)
            at_most = TAKEN_CONFIDENCE if all_taken else ONE_DECK_FARTHEST_GUESS
            out[row] = replace(cards[row], confidence=min(cards[row].confidence, at_most))
            continue
        chosen = ALL_CARDS[column]
        if chosen == cards[row].card:
            continue
        alternatives = sorted(cards[row].alternatives, key=lambda guess: guess.card != chosen)
        out[row] = replace(
            cards[row],
            card=chosen,
            confidence=alternatives[0].probability,
            alternatives=tuple(alternatives),
        )
    return out, unplaced


def measured_reaches(
    groups: Sequence[Sequence[int]],
    anchors: Sequence[int],
    framed: Sequence[Point],
    heights: Sequence[float],
) -> list[tuple[float, float]]:
    """The cards' reach across the row, from top corner to bottom corner, with their index
    height, for the cards that show a corner below their top one (the cards' reach: the median;
    in index heights, the same for cards near the camera and far from it)."""
    reaches = []
    for group, anchor in zip(groups, anchors, strict=True):
        lowest = max(framed[i][1] for i in group)
        if _across(framed[anchor], (0.0, lowest), heights[anchor]) and heights[anchor] > 0:
            reaches.append((lowest - framed[anchor][1], heights[anchor]))
    return reaches


def next_row_below(reach: float | None, scale: float) -> float:
    """How much lower than a row's cards the next row starts: a part of the cards' reach
    (ROW_BREAK_OF_REACH), at least an index height; ROW_GAP index heights where no card shows a
    corner below its top one."""
    if reach is None:
        return ROW_GAP * scale
    return max(scale, ROW_BREAK_OF_REACH * reach)


def split_rows(
    anchors: Sequence[Point],
    row_break: float,
    step: float,
    woven_break: float | None = None,
    scale: float | None = None,
) -> list[Row]:
    """Row-frame anchor points split into rows (top to bottom) where the next is lower by more
    than `row_break`, each ordered left to right; a row's step is its own median offset
    between neighbouring cards (`step`, the photo's, for a row of one card). Where the cards of
    one such row, taken left to right, jump up or down by more than `woven_break`, it is rows
    woven together by a card lying between them: it is split again wherever the next card
    lies that much lower."""
    rows = [
        part
        for row in _split_lower(range(len(anchors)), anchors, row_break)
        for woven in unwoven(row, anchors, woven_break)
        for part in levels(woven, anchors, scale)
    ]
    rows = rejoined_row_ends(rows, anchors, row_break)
    rows = joined_sloping_singles(rows, anchors)
    out = []
    for row in rows:
        ordered = tuple(sorted(row, key=lambda i: anchors[i][0]))
        points = tuple(anchors[i] for i in ordered)
        out.append(Row(ordered, points, _row_offset(row, anchors) or step))
    return out


ROW_LINE_CARDS = 3
ROW_LINE_SLACK = 0.5
ROW_END_STEPS = 2.5
"""A card left alone by the split lies at the end of a row of at least ROW_LINE_CARDS whose own
line (a tilted or keystoned row's cards do not lie level in the photo's row frame) passes
within ROW_LINE_SLACK of the row break of it, at most ROW_END_STEPS of that row's own offsets
beyond its last (or before its first) card: it is that row's end card. A card between two rows
lies within a row's span, never beyond its end."""


def rejoined_row_ends(
    rows: list[list[int]], anchors: Sequence[Point], row_break: float
) -> list[list[int]]:
    """The rows, each card left alone by the split joined to the row whose end it continues
    (ROW_END_STEPS), the one whose line passes nearest it."""
    lines = {
        n: (np.polyfit(*np.array([anchors[i] for i in row]).T, 1), _row_offset(row, anchors))
        for n, row in enumerate(rows)
        if len(row) >= ROW_LINE_CARDS
    }
    joined = {n: list(row) for n, row in enumerate(rows)}
    for n, row in enumerate(rows):
        if len(row) != 1:
            continue
        x, y = anchors[row[0]]
        fits = []
        for m, ((slope, intercept), offset) in lines.items():
            xs = [anchors[i][0] for i in rows[m]]
            beyond = max(x - max(xs), min(xs) - x)
            off_line = abs(y - (intercept + slope * x))
            if 0 < beyond <= ROW_END_STEPS * offset and off_line <= ROW_LINE_SLACK * row_break:
                fits.append((off_line, m))
        if fits:
            joined[min(fits)[1]].append(row[0])
            del joined[n]
    return list(joined.values())


SLOPING_SINGLES = 3
SLOPING_STEPS_WITHIN = 1.5
"""At least SLOPING_SINGLES cards each left alone by the split, lying left to right at a steady
slope (`_steadily_sloping`, at most MAX_ROW_TILT_DEGREES) with steps across within
SLOPING_STEPS_WITHIN of each other, are one row laid at its own angle: a far player's pile
spread wide (each card showing both corners) and sloping against the side's other pile came out
card by card (fresh table t00115 of seed 3636)."""


def joined_sloping_singles(rows: list[list[int]], anchors: Sequence[Point]) -> list[list[int]]:
    """The rows, each run of single cards laid as one sloping row (SLOPING_SINGLES) joined."""
    singles = sorted((row[0] for row in rows if len(row) == 1), key=lambda i: anchors[i][0])
    runs: list[list[int]] = []
    for i in singles:
        if runs and _continues_sloping(runs[-1], i, anchors):
            runs[-1].append(i)
        else:
            runs.append([i])
    joined = [run for run in runs if len(run) >= SLOPING_SINGLES]
    if not joined:
        return rows
    taken = {i for run in joined for i in run}
    return [row for row in rows if not (len(row) == 1 and row[0] in taken)] + joined


def _continues_sloping(run: list[int], i: int, anchors: Sequence[Point]) -> bool:
    """Whether card i continues the run of single cards (SLOPING_SINGLES) after its last."""
    steps = [
        (anchors[b][0] - anchors[a][0], anchors[b][1] - anchors[a][1])
        for a, b in pairwise([*run, i])
    ]
    across = [dx for dx, _ in steps]
    return (
        min(across) > 0
        and max(across) <= SLOPING_STEPS_WITHIN * min(across)
        and all(_within_row_tilt(dx, dy) for dx, dy in steps)
        and _steadily_sloping([dy for _, dy in steps])
    )


def _row_offset(row: Sequence[int], anchors: Sequence[Point]) -> float:
    xs = sorted(anchors[i][0] for i in row)
    return _own_offset([b - a for a, b in pairwise(xs)])


WOVEN_OF_REACH = 0.65
"""Neighbouring cards of one row lie higher or lower than each other by less than this part of
a card's reach across the row (a row laid carelessly, or bending, drifts by far less from card
to card); two rows about a card apart, woven into one by a card lying between them (each row
within ROW_BREAK_OF_REACH of it), jump by 0.7 of a reach or more from card to card. At 0.5,
rows laid unevenly on harder kitty scenes (jumps up to 0.54) were split too."""


def _split_lower(
    members: Sequence[int], anchors: Sequence[Point], row_break: float
) -> list[list[int]]:
    """Members split, top to bottom, where the next lies lower by more than `row_break`."""
    rows: list[list[int]] = []
    previous_y = -math.inf
    for i in sorted(members, key=lambda i: anchors[i][1]):
        y = anchors[i][1]
        if y - previous_y > row_break:
            rows.append([])
        rows[-1].append(i)
        previous_y = y
    return rows


def unwoven(
    row: Sequence[int], anchors: Sequence[Point], woven_break: float | None
) -> list[list[int]]:
    """One row as it is, or the rows woven into it (see `split_rows`), top to bottom."""
    if woven_break is None or len(row) < 3:
        return [list(row)]
    left_to_right = sorted(row, key=lambda i: anchors[i][0])
    steps = [anchors[b][1] - anchors[a][1] for a, b in pairwise(left_to_right)]
    if max(abs(step) for step in steps) <= woven_break or _steadily_sloping(steps):
        return [list(row)]
    return _split_lower(row, anchors, woven_break)


LEVELS_APART_HEIGHTS = 0.5
"""Rows pushed into each other (each lying over the cards of the one above, less than a card's
reach lower) lie in one band of the split, their cards side by side: their top indices stand at
levels, one above the other. Sorted by height, the cards drop from one level to the next by
more than this many index heights..."""

LEVELS_APART = 4.0
"""...and by more than this many times the typical drop from card to card (within a level, a
row's cards lie at about one height)."""


def levels(row: Sequence[int], anchors: Sequence[Point], scale: float | None) -> list[list[int]]:
    """One row as it is, or, top to bottom, the rows pushed into each other that it holds: its
    cards split where they drop from one level to the next (LEVELS_APART_HEIGHTS,
    LEVELS_APART), a lone card between levels given to the nearer one, each level of at least
    two cards lying side by side with another (a row that bends lies at two levels one after
    the other: one row; a middle row hidden but for its last cards past the end of the row
    above lies beside the row below, pushed kitty k00007)."""
    if scale is None or len(row) < 4:
        return [list(row)]
    by_height = sorted(row, key=lambda i: anchors[i][1])
    ys = [anchors[i][1] for i in by_height]
    drops = [b - a for a, b in pairwise(ys)]
    least = max(LEVELS_APART_HEIGHTS * scale, LEVELS_APART * median(drops))
    parts: list[list[int]] = [[by_height[0]]]
    for i, drop in zip(by_height[1:], drops, strict=True):
        if drop > least:
            parts.append([])
        parts[-1].append(i)
    parts = _lone_cards_to_levels(parts, anchors)
    if len(parts) < 2 or not all(
        any(_side_by_side(part, other, anchors) for other in parts if other is not part)
        for part in parts
    ):
        return [list(row)]
    return parts


def _lone_cards_to_levels(parts: list[list[int]], anchors: Sequence[Point]) -> list[list[int]]:
    """The levels, each of one card joined to the nearer level above or below it."""
    joined = [list(part) for part in parts]
    lone = [n for n, part in enumerate(joined) if len(part) < 2]
    while lone and len(joined) > 1:
        n = lone[0]
        y = anchors[joined[n][0]][1]
        neighbours = [m for m in (n - 1, n + 1) if 0 <= m < len(joined)]
        nearest = min(neighbours, key=lambda m: abs(median(anchors[i][1] for i in joined[m]) - y))
        joined[nearest].extend(joined[n])
        del joined[n]
        lone = [n for n, part in enumerate(joined) if len(part) < 2]
    return joined


def _side_by_side(upper: Sequence[int], lower: Sequence[int], anchors: Sequence[Point]) -> bool:
    """Whether two levels' cards lie side by side, neither level beyond the other's ends."""
    xs_upper = [anchors[i][0] for i in upper]
    xs_lower = [anchors[i][0] for i in lower]
    return min(max(xs_upper), max(xs_lower)) > max(min(xs_upper), min(xs_lower))


STEADY_SLOPE_SHARE = 0.5
"""A row's cards slope steadily where each lies lower (or each higher) than the one before by
at least this share of the largest drop: a far pile seen from a seat (its cards' reach short, so
rows are told apart by little) laid at an angle to the side's other pile came out card by card
as rows woven together (test table t00065)."""


def _steadily_sloping(steps: Sequence[float]) -> bool:
    """Whether a row's drops from card to card, left to right, slope steadily
    (STEADY_SLOPE_SHARE): a row laid at an angle to its frame, not two rows woven."""
    jumps = [abs(step) for step in steps]
    one_way = all(step > 0 for step in steps) or all(step < 0 for step in steps)
    return one_way and min(jumps) >= STEADY_SLOPE_SHARE * max(jumps)


def _own_offset(offsets: Sequence[float]) -> float:
    """A row's typical offset between neighbours: the median, or with only two offsets the
    smaller one (one of them may hold a gap); 0 with none."""
    if not offsets:
        return 0.0
    return min(offsets) if len(offsets) == 2 else median(offsets)


Span = tuple[float, float]  # where across its row a card lies: its nearest index, its farthest


def seen_across(group: Sequence[int], framed: Sequence[Point], scale: float) -> Span | None:
    """Where across the row a card lies, where its indices show it from side to side (a corner
    on its right side seen: nothing lies on it); None where only one side shows (the next card
    lies on it, as in a kitty pile)."""
    xs = [framed[i][0] for i in group]
    return (min(xs), max(xs)) if max(xs) - min(xs) > scale else None


def row_gaps(
    row: Row,
    others: Sequence[Point],
    scale: float,
    spans: Sequence[Span | None] = (),
) -> tuple[int, ...]:
    """Positions in the row before which a card may be missing (len(row) for after its last):
    where two neighbours lie about twice the row's own offset apart (after a card seen from
    side to side, `spans`, only where the room left to the next card could hold a card of its
    size: cards laid apart lie as far apart as the hand put them), and where a detection that
    was dropped (unsure, or called no index) lies in the row between its cards' indices, not on
    a card seen whole."""
    xs = [point[0] for point in row.anchors]
    seen = list(spans) or [None] * len(xs)
    gaps = {
        position + 1
        for position, (a, b) in enumerate(pairwise(xs))
        if b - a >= GAP_OF_OFFSETS * row.step
        and _room_for_a_card(seen[position], seen[position + 1] or (b, b))
    }
    top = min(point[1] for point in row.anchors) - ACROSS_ROW * scale
    bottom = max(point[1] for point in row.anchors) + ACROSS_ROW * scale
    last_steps = [None] * (len(xs) - 1) + [row.step if len(xs) > 1 else None]
    for x, y in others:
        in_row = top <= y <= bottom and xs[0] - 1.5 * row.step <= x <= xs[-1] + 1.5 * row.step
        on_a_card = any(abs(x - own) < row.step / 2 for own in xs) or any(
            _on_a_whole_card(x, own, span, scale, last_step)
            for own, span, last_step in zip(xs, seen, last_steps, strict=True)
        )
        if in_row and not on_a_card:
            gaps.add(sum(own < x for own in xs))
    return tuple(sorted(gaps))


def step_of_rows(rows: Sequence[Row]) -> float | None:
    """The offset between neighbouring cards the photo's rows of several cards measure (their
    median; None: no such row)."""
    steps = [row.step for row in rows if len(row.cards) > 1 and not row.column]
    return median(steps) if steps else None


def lone_card_gaps(
    row: Row, rows_step: float | None, others: Sequence[Point], scale: float, span: Span | None
) -> tuple[int, ...]:
    """`row_gaps` of a row of one card, where a neighbour lost beside it would lie a step of the
    photo's rows of several cards away (`rows_step`); none where there is no such row: nothing
    then measures where a neighbour would lie, and the photo's step is the distance to the
    nearest thing read as another card, whatever it is. Real photos of one card on a cereal box
    or a flyer: a word read as an unlikely card beside it marked a gap (edje 7 of 7 gap
    markers, rf100 1 of 1, none where a card was lost)."""
    if rows_step is None:
        return ()
    return row_gaps(replace(row, step=rows_step), others, scale, (span,))


def _on_a_whole_card(
    x: float, anchor: float, span: Span | None, scale: float, last_step: float | None
) -> bool:
    """Whether a dropped detection at `x` lies on a card seen from side to side (a pip taken for
    an index). On the last card of a row of several (`last_step`: the row's step, measured
    from its cards), not where a next card would lie on it: a card lost there would hide its
    far corner, unless the lost card's own corner was taken for it."""
    if span is None:
        return False
    near, far = span
    on_it = near <= x <= far + scale / 2
    if last_step is None:
        return on_it
    return on_it and abs(x - (anchor + last_step)) >= last_step / 2


def _room_for_a_card(card: Span | None, following: Span) -> bool:
    """Whether a card lost between a card (None: seen on one side only) and the next had room:
    a card seen from side to side has nothing on it, so a lost card lay wholly between them
    (seen on real photos: poker hands laid apart, the nearest card larger, and four-index decks
    whose cards' right corners show; 34 of rf100's 35 gap markers where no card was lost)."""
    if card is None:
        return True
    near, far = card
    return following[0] - far >= far - near


def _distance(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _union(boxes: Sequence[Box]) -> Box:
    return (
        min(box[0] for box in boxes),
        min(box[1] for box in boxes),
        max(box[2] for box in boxes),
        max(box[3] for box in boxes),
    )
