"""The whole table in one photo: up to four players' piles, each read from its own player's side.

Every player lays their piles upright for themselves, so in a photo of the whole table the near
player's glyphs stand upright, the far player's upside down and the side players' a quarter
turned. The indices are first given to table sides (`table_sides`): indices on one axis
(upright or upside down, or both quarter turns) lying near each other belong to one player's
piles, whose up is the way most of their glyphs stand (`layout.photo_up`; a card's upside-down
bottom corner lies within its reach and goes with it). Then each side's indices are laid out as
a photo of that player's piles seen from their seat (`layout.arrange` in that side's frame), so
no pile ever joins two players' cards, and the piles come in seat order (types.SIDES).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from itertools import pairwise

import numpy as np

from blackcat.games.cards import Card
from blackcat.vision.calibration import UNCALIBRATED, Calibration
from blackcat.vision.graphs import connected_labels
from blackcat.vision.layout import (
    NOT_AN_INDEX_ABOVE,
    SAME_INDEX_OVERLAP,
    arrange,
    best_probabilities,
    drop_repeated_detections,
    glyph_pixels,
    nearest_beside_each,
    overlap,
    photo_up,
    placed_once,
    turn_to_up,
    upright_height,
)
from blackcat.vision.squeeze import sure_cards
from blackcat.vision.types import SIDES, IndexRead, PhotoRead, ReadCard

Pile = tuple[ReadCard, ...]

SIDE_LINK = 9.0
"""Indices on one axis within this many glyph sizes of each other (centre to centre, the smaller
glyph) are one player's: it spans a card's reach (layout.MAX_CORNER_DISTANCE), so a card's
bottom corners stay with its top ones, and the rows of one player's piles stay together; two
players' piles lie a table's width apart."""

FACING_LINK = 6.0
"""...but indices standing opposite ways (a card's upside-down bottom corner, or the far
player's piles beyond the near player's) only within this many: a card's corners lie closer,
and a table seen from a seat squeezes the far side's piles towards the near side's (a compact
table in a 12 MP photo had its near and far players' piles 7 glyph sizes apart)."""

MIN_SIDE_CARDS = 2
"""A group of indices stands for a player of its own only where it reads at least this many
different cards with some confidence; a smaller one (a misread glyph, face art turned a
quarter, a card or two dropped at an angle) goes with the nearest player's indices, as in a
photo of one player's piles."""

CONFIDENT_CARD_ABOVE = 0.5
"""An index counts towards MIN_SIDE_CARDS, and links others into one player's group, where its
best guess is at least this likely."""

GROUP_UPRIGHT_SHARE = 0.1
"""A group of indices stands as its glyphs do, upright unless another way outvotes it by this
share of all their votes: the photo's upright prior (layout.UPRIGHT_PRIOR, one sure glyph's
vote) held a far player's few small indices, each read unsure, with the near player; a pile
showing both corners of each card has almost as many glyphs standing each way."""

FACING_WITHIN_DEGREES = 70.0
"""A player's piles lie on their own side of the others': seen from the middle of the other
players' cards, within this angle of the direction of their side (down for the near side,
left, up, right). Cards scattered at their own angles (a hand spread out) make groups turned
every way, wherever they lie: those are one player's cards, not a table..."""

PILES_FACING_WITHIN_DEGREES = 80.0
PILES_CARDS = 5
"""...but a side reading at least PILES_CARDS cards (a player's piles, not a few cards of a
hand) within PILES_FACING_WITHIN_DEGREES: a near player's piles lying right of the left
player's, 72 degrees from straight below them, made the photo one player's. Piles right on the
test / calibration tables 0.872 / 0.886 -> 0.872 / 0.891, on the right side 0.973 / 0.977 ->
0.974 / 0.981; every side at 80 degrees made two rf100 photos of a few scattered cards tables."""

FACING = {0: (0.0, 1.0), 1: (-1.0, 0.0), 2: (0.0, -1.0), 3: (1.0, 0.0)}
"""The direction of each side (a quarter turn, SIDES) in the photo, y pointing down."""


def table_sides(indices: Sequence[IndexRead], players: int | None = None) -> list[int]:
    """For each index, the quarter turn of the table side whose player's pile it belongs to
    (an index of SIDES). `players`: how many players to expect at most (None: up to four);
    where more sides are found, the ones with the fewest cards go with their nearest kept
    side."""
    if not indices:
        return []
    centres = np.array([index.centre for index in indices])
    turns, glyphs_apart = _turns_and_distances(indices)
    groups = _linked_groups(indices, turns, glyphs_apart)
    ups = [_group_up([indices[i] for i in group]) for group in groups]
    strength = [_cards_read([indices[i] for i in group]) for group in groups]
    twins = _turned_round_twins(indices, turns, glyphs_apart, CORNERS_APART)
    both_corners = [_both_corners_shown(indices, group, twins) for group in groups]
    sizes = [float(np.median([glyph_pixels(indices[i]) for i in group])) for group in groups]
    ups = _beyond_the_others_turned_round(
        ups, [centres[group].mean(axis=0) for group in groups], strength, both_corners, sizes
    )
    members: dict[int, list[int]] = {}
    cards: dict[int, int] = {}
    for up, read, group in zip(ups, strength, groups, strict=True):
        if read >= MIN_SIDE_CARDS:
            members.setdefault(up, []).extend(group)
            cards[up] = cards.get(up, 0) + read
    kept = sorted(cards, key=lambda up: -cards[up])[: players or len(SIDES)]
    kept = facing_their_sides(kept, {up: centres[members[up]] for up in kept}, cards)
    if len(kept) <= 1:
        whole = photo_up(indices) if not kept else kept[0]
        return [whole] * len(indices)
    sides = [-1] * len(indices)
    for up in kept:
        for i in members[up]:
            sides[i] = up
    placed = [i for i, side in enumerate(sides) if side >= 0]
    for i, side in enumerate(sides):
        if side < 0:
            nearest = min(placed, key=lambda j: float(np.hypot(*(centres[i] - centres[j]))))
            sides[i] = sides[nearest]
    return sides


def sides_for_players(indices: Sequence[IndexRead], players: int | None) -> tuple[list[int], int]:
    """`table_sides(indices, players)`, and how many sides hold piles where that is more than
    the `players` told to expect (whose cards are then read with their nearest players'; with
    `players` 1, all as one player's however they stand), so that `scan` says so; 0 where it is
    not more. The sides are told once where the players told change nothing."""
    sides = table_sides(indices)
    found = len(set(sides))
    if players is None or found <= players:
        return sides, 0
    return table_sides(indices, players), found


def _beyond_the_others_turned_round(
    ups: list[int],
    centres: list[np.ndarray],
    strength: list[int],
    both_corners: list[bool],
    sizes: list[float],
) -> list[int]:
    """The groups' quarter turns, a group that lies on the side opposite its own (within
    FACING_WITHIN_DEGREES, seen from the middle of the groups standing other ways) turned round
    where groups stand that opposite way too: a far player's small glyphs read upside down
    stand the near player's way, yet lie beyond the far player's other piles (not merely where
    the others stand two ways: cards scattered at their own angles stand every way). A group
    whose cards show both corners (`both_corners`) is turned round too where it lies towards
    the opposite side seen from the middle of all the other groups, and those stand at least
    two ways (a table without it) or one way with far larger glyphs (`_spread_the_other_way`).
    A photo whose groups all stand one way, or one player's with a few glyphs turned, keeps
    them."""
    strong = [n for n, read in enumerate(strength) if read >= MIN_SIDE_CARDS]
    turned = list(ups)
    for n in strong:
        others = [centres[m] for m in strong if ups[m] != ups[n]]
        opposite = (ups[n] + 2) % 4
        beyond = any(ups[m] == opposite for m in strong) and _lies_towards(
            opposite, centres[n] - np.mean(others, axis=0)
        )
        if beyond or (both_corners[n] and _spread_the_other_way(n, ups, centres, strong, sizes)):
            turned[n] = opposite
    return turned


def _spread_the_other_way(
    n: int, ups: list[int], centres: list[np.ndarray], strong: list[int], sizes: list[float]
) -> bool:
    """Whether group `n`, its cards showing both corners, belongs to the player opposite the
    way it was read: a pile spread so wide that each card shows both corners has as many
    glyphs standing each way, and the photo's upright prior reads a far player's as the near
    player's, in reverse. Where it lies tells: towards the opposite side, seen from the middle
    of the other groups, which stand at least two ways without it (a whole table; one player's
    cards spread out stay theirs), or stand one way and read glyphs far larger (FARTHER_GLYPHS)."""
    rest = [m for m in strong if m != n]
    if not rest:
        return False
    middle = np.mean([centres[m] for m in rest], axis=0)
    towards = _lies_towards((ups[n] + 2) % 4, centres[n] - middle)
    if len({ups[m] for m in rest}) >= 2:
        return towards
    # the others all stand one way: across the table a pile stands out by its smaller glyphs
    return towards and sizes[n] <= FARTHER_GLYPHS * float(np.median([sizes[m] for m in rest]))


FARTHER_GLYPHS = 0.7
"""A pile spread so wide that each card shows both corners, lying towards the side opposite the
way it was read while every other group stands one way, is that side's player's only where its
glyphs stand at most this part of the others' tall: a far player's one pile across the table
from a seated camera (calibration table t00138, read as the near player's third pile), not one
player's piles photographed from above."""

BOTH_CORNERS_SHARE = 0.6
"""A group shows both corners of its cards where at least this share of the cards it reads
show an index each way (a pile spread wide: far players' piles on a test table and two tables
drawn afresh, read as the near player's)..."""

CORNERS_APART = 12.0
"""...the two within this many glyph sizes of each other (a card's two corner indices lie
about four to six apart, farther along a steep view's depth)."""


def _both_corners_shown(
    indices: Sequence[IndexRead], group: list[int], twins: list[tuple[int, int]]
) -> bool:
    """Whether most of the cards a group of indices (positions) reads show both corners
    (BOTH_CORNERS_SHARE): two of its indices read as that card, standing opposite ways (a pair
    of `twins`, `_turned_round_twins`)."""
    if len(group) < 2 * MIN_SIDE_CARDS:
        return False
    members = set(group)
    both = {indices[i].card for i, j in twins if i in members and j in members}
    return len(both) >= BOTH_CORNERS_SHARE * len({indices[i].card for i in group})


def _lies_towards(side: int, away: np.ndarray, within: float = FACING_WITHIN_DEGREES) -> bool:
    """Whether a direction (from the others' cards to a group's) points to `side`'s edge of the
    table, within `within` degrees of FACING."""
    length = float(np.hypot(*away))
    limit = np.cos(np.radians(within))
    return length > 0 and float(np.dot(away, FACING[side])) / length >= limit


def facing_their_sides(
    ups: list[int], centres: dict[int, np.ndarray], cards: dict[int, int] | None = None
) -> list[int]:
    """The sides (strongest first) that lie on their own side of the others' cards
    (FACING_WITHIN_DEGREES; PILES_FACING_WITHIN_DEGREES for a side reading PILES_CARDS
    `cards`), the weakest misplaced one left out until all are placed."""
    ups = list(ups)
    cards = cards or {}
    while len(ups) > 1:
        misplaced = []
        for up in ups:
            others = np.concatenate([centres[other] for other in ups if other != up])
            within = (
                PILES_FACING_WITHIN_DEGREES
                if cards.get(up, 0) >= PILES_CARDS
                else FACING_WITHIN_DEGREES
            )
            if not _lies_towards(up, centres[up].mean(axis=0) - others.mean(axis=0), within):
                misplaced.append(up)
        if not misplaced:
            break
        ups.remove(misplaced[-1])
    return ups


def _linked_groups(
    indices: Sequence[IndexRead], turns: np.ndarray, glyphs_apart: np.ndarray
) -> list[list[int]]:
    """The indices in groups joined by SIDE_LINK (single linkage, one axis); `turns` and
    `glyphs_apart` as `_turns_and_distances` measures them."""
    return _linked(indices, turns, glyphs_apart, SIDE_LINK, same_axis=True)


def _linked(
    indices: Sequence[IndexRead],
    turns: np.ndarray,
    glyphs_apart: np.ndarray,
    link: float,
    *,
    same_axis: bool,
) -> list[list[int]]:
    """The indices (positions) in groups joined where they lie within `link` glyph sizes (the
    smaller of the two) of each other (single linkage); if `same_axis`, on one axis, and
    within FACING_LINK where they stand opposite ways unless both are surely different cards
    (`_surely_different`), a card's bottom corner joined to its top corner alone
    (`_bottom_corners`), and an index read unsurely joined to none."""
    linked = glyphs_apart <= link
    if same_axis:
        linked &= turns[:, None] % 2 == turns[None, :] % 2
        distinct = _surely_different(indices)
        linked &= (turns[:, None] == turns[None, :]) | ((glyphs_apart <= FACING_LINK) & ~distinct)
        # an index read unsurely (a phantom between two players' piles) links no one: it goes
        # with the side of the nearest index
        unsure = ~_confident(indices)
        linked[unsure, :] = linked[:, unsure] = False
        for corner, partner in _bottom_corners(indices, turns, glyphs_apart):
            linked[corner, :] = linked[:, corner] = False
            linked[corner, partner] = linked[partner, corner] = True
    count, labels = connected_labels(linked)
    return [[int(i) for i in np.flatnonzero(labels == label)] for label in range(count)]


SURELY_READ = 0.9
"""Two indices standing opposite ways, each read this surely as a different card, are two
players' (the near and the far one's, close across a table seen from a seat), never one card's
top and bottom corners; a corner read less surely may still be its card's, misread."""


def _surely_different(indices: Sequence[IndexRead]) -> np.ndarray:
    """For each two indices, whether both are read at least SURELY_READ as different cards."""
    sure = best_probabilities(indices) >= SURELY_READ
    codes = np.array([index.card.code if index.guesses else "" for index in indices], dtype=str)
    return (codes[:, None] != codes[None, :]) & sure[:, None] & sure[None, :]


def _confident(indices: Sequence[IndexRead]) -> np.ndarray:
    """Whether each index's best guess is at least CONFIDENT_CARD_ABOVE likely."""
    return best_probabilities(indices) >= CONFIDENT_CARD_ABOVE


def _group_up(group: Sequence[IndexRead]) -> int:
    """The quarter turn a group's glyphs stand at (GROUP_UPRIGHT_SHARE)."""
    votes = sum(index.confidence for index in group if index.orientations)
    return photo_up(group, GROUP_UPRIGHT_SHARE * votes)


def _turns_and_distances(indices: Sequence[IndexRead]) -> tuple[np.ndarray, np.ndarray]:
    """Each index's glyph turn (0 where unknown), and how far apart each two lie, in glyph
    sizes (the smaller glyph's)."""
    centres = np.array([index.centre for index in indices])
    sizes = np.array([glyph_pixels(index) for index in indices])
    distance = np.hypot(*(centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
    glyphs_apart = distance / np.maximum(np.minimum(sizes[:, None], sizes[None, :]), 1e-9)
    return np.array([index.orientation or 0 for index in indices]), glyphs_apart


def _bottom_corners(
    indices: Sequence[IndexRead], turns: np.ndarray, glyphs_apart: np.ndarray
) -> list[tuple[int, int]]:
    """A card's bottom corner with its top corner: two indices read as the same card, standing
    opposite ways within FACING_LINK of each other; the bottom one has fewer indices standing
    its way within FACING_LINK (its pile's cards stand with the top one; where as many stand
    each way, neither is told). A bottom corner stands as the facing player's glyphs do: it
    belongs to its card alone, else it would join two players' piles (a seated camera shows
    the left and right players' piles a few glyph sizes apart)."""
    near = glyphs_apart <= FACING_LINK
    support = [int((near[i] & (turns == turns[i])).sum()) for i in range(len(indices))]
    return [
        (i, j) if support[i] < support[j] else (j, i)
        for i, j in _turned_round_twins(indices, turns, glyphs_apart, FACING_LINK)
        if support[i] != support[j]
    ]


def _turned_round_twins(
    indices: Sequence[IndexRead], turns: np.ndarray, glyphs_apart: np.ndarray, within: float
) -> list[tuple[int, int]]:
    """The pairs of indices (positions, the first lower) read as the same card and standing
    opposite ways, within `within` glyph sizes of each other: a card's two corners."""
    opposite = (turns[:, None] - turns[None, :]) % 4 == 2
    return [
        (int(i), int(j))
        for i, j in zip(*np.nonzero((glyphs_apart <= within) & opposite), strict=True)
        if i < j and indices[i].card == indices[j].card
    ]


def _cards_read(indices: Sequence[IndexRead]) -> int:
    """How many different cards the indices read with some confidence."""
    confident = _confident(indices)
    return len({index.card for index, sure in zip(indices, confident, strict=True) if sure})


def arrange_table(
    indices: Sequence[IndexRead],
    *,
    decks: int = 1,
    width: int = 0,
    height: int = 0,
    calibration: Calibration = UNCALIBRATED,
    players: int | None = None,
) -> PhotoRead:
    """The piles of every side of the table, in seat order, each side's top to bottom and each
    pile left to right as its player sees them, with their sides; as one player's piles
    (`arrange_at_own_angles`) where the indices lie on one side only (or `players` is 1)."""
    kept = drop_repeated_detections(
        [index for index in indices if index.index_probability >= NOT_AN_INDEX_ABOVE]
    )
    sides = table_sides(kept, players)
    if len(set(sides)) <= 1:
        return arrange_at_own_angles(
            indices, decks=decks, width=width, height=height, calibration=calibration
        )
    doubted = [index for index in indices if index.index_probability < NOT_AN_INDEX_ABOVE]
    by_side = {
        up: [index for index, side in zip(kept, sides, strict=True) if side == up]
        for up in set(sides)
    }
    return arrange_sides(
        by_side,
        doubted,
        decks=decks,
        width=width,
        height=height,
        calibration=calibration,
        players=players,
    )


def arrange_sides(
    by_side: dict[int, list[IndexRead]],
    doubted: Sequence[IndexRead] = (),
    *,
    decks: int = 1,
    width: int = 0,
    height: int = 0,
    calibration: Calibration = UNCALIBRATED,
    players: int | None = None,
) -> PhotoRead:
    """The piles of each side's indices (by quarter turn), laid out in that side's frame, in
    seat order; a player's piles at their own angles each at its own (`at_own_angles`).
    `doubted`: detections called no index, which may mark a gap in any pile. `players`: how
    many sides there may be at most (None: four). An index standing a quarter turn from its
    side, unsurely an index, is left out (QUARTER_TURNED_INDEX_SURE)."""
    piles: list[LaidPile] = []
    by_side = {
        up: [index for index in indices if not _turned_from_side_unsurely(index, up)]
        for up, indices in _with_the_side_they_face(by_side, players).items()
    }

    def arranged(group: list[IndexRead], up: int) -> PhotoRead:
        return arrange(
            [*group, *doubted],
            decks=decks,
            width=width,
            height=height,
            calibration=calibration,
            up=up,
            # on a table an index upside down for this side is the opposite player's card
            lone_corners=False,
        )

    for up in sorted(by_side):
        reads = [
            read
            for group in laid_apart(by_side[up], up)
            for read in at_own_angles(
                arranged(group, up), group, up, width, height, partial(arranged, up=up)
            )
        ]
        piles += in_reading_order(reads, up, width, height)
    return with_piles(
        PhotoRead(width=width, height=height, piles=()), settled(piles, decks, width, height)
    )


@dataclass(frozen=True)
class LaidPile:
    """One pile of a table's read: its cards, where a card may be missing (gap positions), the
    side whose player reads it upright, and whether it lies in a grid that reads as rows as
    well as columns."""

    cards: Pile
    gaps: tuple[int, ...]
    side: str
    rows_or_columns: bool = False


def laid_pile(read: PhotoRead, pile: int) -> LaidPile:
    return LaidPile(
        read.piles[pile], read.gaps_of(pile), read.side_of(pile), read.rows_or_columns_of(pile)
    )


def with_piles(read: PhotoRead, piles: Sequence[LaidPile]) -> PhotoRead:
    """The read with these piles instead of its own."""
    grid = tuple(pile.rows_or_columns for pile in piles)
    return replace(
        read,
        piles=tuple(pile.cards for pile in piles),
        gaps=tuple(pile.gaps for pile in piles),
        sides=tuple(pile.side for pile in piles),
        rows_or_columns=grid if any(grid) else (),
    )


def at_own_angles(
    whole: PhotoRead,
    group: Sequence[IndexRead],
    up: int,
    width: int,
    height: int,
    arranged: Callable[[list[IndexRead]], PhotoRead],
) -> list[PhotoRead]:
    """A player's group of indices as read at one angle for all (`whole`), or each part read
    (`arranged`) at its own angle: where its rows run ROW_ANGLES_APART_DEGREES apart
    (`angle_split`) and one angle broke them into more piles, or read as many, each part one
    pile (two rows: one angle may have given the card where they meet to the wrong one, angled
    kitty k00063; scattered cards at many angles, parted so with more piles to a part, read 4
    more cards that are not there); or where they run OWN_ANGLES_APART_DEGREES apart and one
    angle broke them into more piles, or wove two of them into one (`_unwoven`)."""
    split = angle_split(group, up, width, height, OWN_ANGLES_APART_DEGREES)
    if split is None:
        return [whole]
    wide = split.runs_apart(ROW_ANGLES_APART_DEGREES)
    if wide or len(whole.piles) > len(split.parts):  # else each part's pile is no fewer
        apart = [arranged(part) for part in split.parts]
        piles = sum(len(read.piles) for read in apart)
        if piles < len(whole.piles) or (wide and piles == len(whole.piles) == len(split.parts)):
            return apart
    unwoven = _unwoven(whole, split.parts, up, width, height)
    return [whole] if unwoven is None else [arranged(part) for part in unwoven]


OWN_ANGLES_APART_DEGREES = 10.0
"""Rows running at least this many degrees apart, which one angle for both broke into more
piles (a card of each row where they meet made a pile of two: angled kitty k00028) or wove into
one (their cards taken in turn: the lower row, tilted up, meets the upper one's end: k00099,
k00011), are each laid out at its own angle too; not where one angle reads as many piles (so
close in angle, the parts by angle gave the card where the rows meet to the wrong one: angled
k00087, test table t00085)."""

WOVEN_SWITCHES = 3  # a pile weaves two rows where its cards go from one to the other this often

ON_ITS_LINE_WITHIN = 0.25
"""A row's top indices lie within this many index sizes (root mean square) of the line through
them: two lines fit a woven pile's cards this well where it is two rows, running
OWN_ANGLES_APART_DEGREES apart..."""


def _unwoven(
    whole: PhotoRead, parts: list[list[IndexRead]], up: int, width: int, height: int
) -> list[list[IndexRead]] | None:
    """The two parts (`angle_split`'s) with a pile of `whole` that takes its cards from them in
    turn (WOVEN_SWITCHES) parted by the two lines its cards lie along (`two_lines`); None where
    no pile does so, or its cards lie along no two such lines."""
    part_of = {id(index): n for n, part in enumerate(parts) for index in part}
    for pile in whole.piles:
        cards = [card for card in pile if id(card.indices[0]) in part_of]
        labels = [part_of[id(card.indices[0])] for card in cards]
        if sum(a != b for a, b in pairwise(labels)) < WOVEN_SWITCHES:
            continue
        points = np.array([turn_to_up(card.indices[0].centre, up, width, height) for card in cards])
        size = float(np.median([upright_height(card.indices[0], up) for card in cards]))
        lines = two_lines(points, np.array(labels), size)
        if lines is None:
            continue
        line_of = {
            id(index): int(line)
            for card, line in zip(cards, lines, strict=True)
            for index in card.indices
        }
        group = [index for part in parts for index in part]
        return [
            [index for index in group if line_of.get(id(index), part_of[id(index)]) == n]
            for n in (0, 1)
        ]
    return None


def two_lines(points: np.ndarray, labels: np.ndarray, size: float) -> np.ndarray | None:
    """Each point given to the nearer of two lines, refitted until no point moves (from
    `labels`), where each line holds ROW_ANGLE_CARDS points or more, both lie within
    ON_ITS_LINE_WITHIN of their points and run OWN_ANGLES_APART_DEGREES apart; None where
    they don't."""
    for _ in range(10):
        if min(np.count_nonzero(labels == n) for n in (0, 1)) < ROW_ANGLE_CARDS:
            return None
        fits = [np.polyfit(*points[labels == n].T, 1) for n in (0, 1)]
        distances = np.array(
            [
                np.abs(np.polyval(fit, points[:, 0]) - points[:, 1]) / np.hypot(fit[0], 1)
                for fit in fits
            ]
        )
        nearer = np.argmin(distances, axis=0)
        if np.array_equal(nearer, labels):
            break
        labels = nearer
    else:
        return None
    angles = [np.degrees(np.arctan(fit[0])) for fit in fits]
    spreads = [np.sqrt(np.mean(distances[n][labels == n] ** 2)) for n in (0, 1)]
    apart = (
        abs(angles[0] - angles[1]) >= OWN_ANGLES_APART_DEGREES
        or _lines_apart(points, labels, fits) >= LINES_APART * size
    )
    if not apart or max(spreads) > ON_ITS_LINE_WITHIN * size:
        return None
    return labels


LINES_APART = 1.0
"""...or, nearly parallel, lie this many index heights apart or more all along the stretch
both rows run (rows pushed into each other, the upper sloping a little against the lower:
pushed kitty k00043)."""


def _lines_apart(points: np.ndarray, labels: np.ndarray, fits: list[np.ndarray]) -> float:
    """How far apart two lines lie (across) at the nearer end of the stretch both lines' points
    run along; 0 where they share none."""
    start = max(points[labels == n, 0].min() for n in (0, 1))
    end = min(points[labels == n, 0].max() for n in (0, 1))
    if start >= end:
        return 0.0
    return min(abs(np.polyval(fits[0], x) - np.polyval(fits[1], x)) for x in (start, end))


def in_reading_order(
    reads: Sequence[PhotoRead], up: int, width: int, height: int
) -> list[LaidPile]:
    """The reads' piles, top to bottom as the player on side `up` sees them."""
    laid = [
        (_starts_at(pile, up, width, height), laid_pile(read, n))
        for read in reads
        for n, pile in enumerate(read.piles)
    ]
    return [pile for _, pile in sorted(laid, key=lambda item: item[0])]


def arrange_at_own_angles(
    indices: Sequence[IndexRead],
    *,
    decks: int = 1,
    width: int = 0,
    height: int = 0,
    calibration: Calibration = UNCALIBRATED,
) -> PhotoRead:
    """One player's piles (`layout.arrange`), each laid out at its own angle where the rows run
    at angles apart and one angle for all lays them out worse (`at_own_angles`: piles laid
    casually, one turned to the other)."""
    whole = arrange(indices, decks=decks, width=width, height=height, calibration=calibration)
    kept = [index for index in indices if index.index_probability >= NOT_AN_INDEX_ABOVE]
    if not kept:
        return whole
    up = photo_up(kept)
    doubted = [index for index in indices if index.index_probability < NOT_AN_INDEX_ABOVE]

    def arranged(part: list[IndexRead]) -> PhotoRead:
        laid = [*part, *doubted]
        return arrange(
            laid, decks=decks, width=width, height=height, calibration=calibration, up=up
        )

    reads = at_own_angles(whole, kept, up, width, height, arranged)
    if len(reads) == 1:  # read at one angle: `whole` itself
        return whole
    piles = in_reading_order(reads, up, width, height)
    if decks == 1:
        piles = _one_of_each_across(piles)
    return with_piles(whole, piles)


APART_LINK = 7.0
"""A player's cards whose top indices lie within this many glyph sizes of each other (a
neighbour in a row, even spread out) are laid out together; piles lying farther apart are each
laid out on their own, at their own angle (a player's two piles may lie at different angles to
the table's edge)."""


def _with_the_side_they_face(
    by_side: dict[int, list[IndexRead]], players: int | None = None
) -> dict[int, list[IndexRead]]:
    """Each side's indices, where one surely stands a quarter turn from its side's glyphs (read
    again upright on the side's part of the photo) given to the side whose glyphs stand as it
    does: a near column's 9C, first read turned (its box widened by the camera's squeeze), went
    with the right player's piles, and the column came out in two. A card's bottom corner goes
    with its top corner (`_top_corners`): the far column's last card, read with the left
    player's piles, showed its bottom corner upright, which would have made a card of the near
    player's. Indices surely standing the way of a side the first look did not find make that
    side (`_a_side_of_their_own`, while `players` allow another): a far column of which the
    first look saw one index was read again with the left player's piles (test t00000), and
    stayed theirs. Given the right side: 0.976 / 0.979 -> 0.978 / 0.982 on the test /
    calibration tables."""
    everyone = [index for indices in by_side.values() for index in indices]
    home = [up for up, indices in by_side.items() for _ in indices]
    sure = best_probabilities(everyone) >= SURELY_READ
    moved_to: dict[int, int] = {}
    for n, (index, up) in enumerate(zip(everyone, home, strict=True)):
        turn = index.orientation
        if (
            sure[n]
            and turn is not None
            and quarter_turned(turn, up)
            and index.orientations[turn] >= SURELY_READ
        ):
            moved_to[n] = turn
    room_for_more = len(by_side) < (players or len(SIDES))
    new_sides = {
        turn
        for turn in set(moved_to.values()) - set(by_side)
        if room_for_more and _a_side_of_their_own(turn, moved_to, everyone)
    }
    moved_to = {n: turn for n, turn in moved_to.items() if turn in by_side or turn in new_sides}
    tops = _top_corners(everyone)
    out: dict[int, list[IndexRead]] = {up: [] for up in {*by_side, *moved_to.values()}}
    for n, index in enumerate(everyone):
        side = moved_to.get(n, home[n])
        if n in moved_to and n in tops:
            side = moved_to.get(tops[n], home[tops[n]])
        out[side].append(index)
    return out


QUARTER_TURNED_INDEX_SURE = 0.9
"""An index standing a quarter turn from its side's glyphs (and not given to the side it faces,
`_with_the_side_they_face`) is laid out with the side's cards only where the classifier is at
least this sure that it is an index at all. Of such indices the reader handed a side on the
fresh and test tables (3636, 28; every layout of every read counted), 155 were less sure: 119
lay on no index, 33 on another card's (mostly another player's), 3 on their own. One, a JC
at 0.53 on the right player's column in fresh t00034's stretched read, was laid in as a card
and split the column in two."""


def quarter_turned(turn: int, up: int) -> bool:
    """Whether a glyph standing at quarter turn `turn` stands across side `up`'s glyphs (a
    quarter turn either way from them), not with them or upside down."""
    return (turn - up) % 2 == 1


def _turned_from_side_unsurely(index: IndexRead, up: int) -> bool:
    """Whether the index stands a quarter turn from side `up`'s glyphs and is no sure index
    (QUARTER_TURNED_INDEX_SURE)."""
    return (
        index.orientation is not None
        and quarter_turned(index.orientation, up)
        and index.index_probability < QUARTER_TURNED_INDEX_SURE
    )


def _a_side_of_their_own(
    turn: int, moved_to: dict[int, int], everyone: Sequence[IndexRead]
) -> bool:
    """Whether the indices (positions in `everyone`) read again standing `turn`'s way make a
    side the first look did not find: at least MIN_SIDE_CARDS cards, lying towards that side
    from the others'."""
    theirs = [index for n, index in enumerate(everyone) if moved_to.get(n) == turn]
    rest = [index for n, index in enumerate(everyone) if moved_to.get(n) != turn]
    if len({index.card for index in theirs}) < MIN_SIDE_CARDS or not rest:
        return False
    away = np.mean([index.centre for index in theirs], axis=0) - np.mean(
        [index.centre for index in rest], axis=0
    )
    return _lies_towards(turn, away)


def _top_corners(indices: Sequence[IndexRead]) -> dict[int, int]:
    """Each card's bottom corner (a position in `indices`) with its top corner's, as
    `_bottom_corners` pairs them; indices whose glyph turn is unknown pair with none."""
    if not indices:
        return {}
    turns, glyphs_apart = _turns_and_distances(indices)
    return {
        corner: top
        for corner, top in _bottom_corners(indices, turns, glyphs_apart)
        if indices[corner].orientation is not None and indices[top].orientation is not None
    }


def laid_apart(indices: Sequence[IndexRead], up: int) -> list[list[IndexRead]]:
    """A side's indices in groups lying apart (APART_LINK between top indices), each card's
    upside-down bottom corners with the group of the nearest top index, and a lone card with
    the group it reaches (`_lone_cards_joined`)."""
    # a card's bottom corner standing a quarter turn from the side (its pile laid across the
    # side's edge) would be laid out as a card of its own: its top corner reads the card
    corners = _top_corners(indices)
    indices = [
        index
        for n, index in enumerate(indices)
        if n not in corners or _upside_down(index, up) or (index.orientation or 0) % 2 == up % 2
    ]
    tops = [n for n, index in enumerate(indices) if not _upside_down(index, up)]
    if not tops:
        return [list(indices)] if indices else []
    turns, glyphs_apart = _turns_and_distances(indices)
    top_links = _linked(
        [indices[n] for n in tops],
        turns[tops],
        glyphs_apart[np.ix_(tops, tops)],
        APART_LINK,
        same_axis=False,
    )
    groups = [[tops[i] for i in group] for group in top_links]
    owner = {n: g for g, group in enumerate(groups) for n in group}
    centres = np.array([indices[n].centre for n in tops])
    for n, bottom in enumerate(indices):
        if n not in owner:
            nearest = int(np.argmin(np.hypot(*(centres - np.array(bottom.centre)).T)))
            groups[owner[tops[nearest]]].append(n)
    joined = _lone_cards_joined(groups, [index.card for index in indices], glyphs_apart)
    return [[indices[n] for n in group] for group in joined]


def _lone_cards_joined(
    groups: list[list[int]], cards: Sequence[Card], glyphs_apart: np.ndarray
) -> list[list[int]]:
    """The groups (positions, each index's `cards` and how many glyph sizes apart each two
    lie), each of one card joined to the one other group lying within APART_LINK of its
    indices, bottom corners included: a row spread wide whose second card lost its top index
    still reaches its first card through that card's bottom corner (test t00050's right pile).
    Larger groups stay apart: a player's pile laid below the other reaches it through the
    upper one's bottom corners."""
    groups = [list(group) for group in groups]
    for n, group in enumerate(groups):
        if len({cards[i] for i in group}) != 1:
            continue
        near = [
            m
            for m, other in enumerate(groups)
            if m != n and other and (glyphs_apart[np.ix_(group, other)] <= APART_LINK).any()
        ]
        if len(near) == 1:
            groups[near[0]] += group
            groups[n] = []
    return [group for group in groups if group]


def _upside_down(index: IndexRead, up: int) -> bool:
    return index.orientation is not None and (index.orientation - up) % 4 == 2


ROW_ANGLES_APART_DEGREES = 30.0
"""A player's piles whose rows run at least this many degrees apart in the player's frame (two
piles fanning out from one corner, each laid at its own angle to the table's edge) are laid out
each at its own angle where one angle for both breaks them into more piles: the right player's
two piles of t00030, sloping about 30 degrees either way, came out as four."""
ANGLE_GAP_DEGREES = 15.0  # ... and no row between them: the rows' angles leave this gap
ROW_ANGLE_CARDS = 3  # ... each the angle of at least this many top indices


@dataclass(frozen=True)
class AngleSplit:
    """A group's indices in two parts by the angle their rows run at (`angle_split`)."""

    parts: list[list[IndexRead]]
    gap: float  # degrees between the nearest angles of the two parts
    apart: float  # degrees between their median angles

    def runs_apart(self, degrees: float) -> bool:
        """Whether the parts' rows run at least `degrees` apart (`_runs_apart`)."""
        return _runs_apart(self.gap, self.apart, degrees)


def _runs_apart(gap: float, apart: float, degrees: float) -> bool:
    """Whether rows whose angles leave `gap` between them and whose medians lie `apart` run at
    least `degrees` apart, with no row between them (ANGLE_GAP_DEGREES)."""
    return gap >= min(ANGLE_GAP_DEGREES, degrees / 2) and apart >= degrees


def angle_split(
    group: Sequence[IndexRead], up: int, width: int, height: int, least_degrees: float
) -> AngleSplit | None:
    """A side's group of indices in two parts whose rows run at angles at least
    `least_degrees` apart (`_runs_apart`; each top index's row runs towards its
    nearest neighbour along it), parted at the widest gap between the angles that leaves
    ROW_ANGLE_CARDS on either side (a row's end card measured towards the other row stands
    apart from both: angled kitty k00099); None where they run at one angle. Where each part is
    one row (`two_lines`), a card is given to the row whose line it lies on: the lower row's
    card where the two rows meet, measured towards the upper row, went with it (angled kitty
    k00063). Only indices read confidently measure the angles (a mark beside a row's last card,
    read JC at 0.2, gave that card a row of its own angle: test t00068). A card's bottom corner
    goes with its top corner (`_top_corners`), and any other index with no row's angle with its
    nearest top index."""
    confident = _confident(group)
    tops = [n for n, index in enumerate(group) if not _upside_down(index, up) and confident[n]]
    points = [turn_to_up(group[n].centre, up, width, height) for n in tops]
    angles = {k: angle for k, angle in enumerate(row_angles(points)) if angle is not None}
    if len(angles) < 2 * ROW_ANGLE_CARDS:
        return None
    ordered = sorted(angles, key=angles.__getitem__)
    sorted_angles = np.array([angles[k] for k in ordered])
    gaps = np.diff(sorted_angles)[ROW_ANGLE_CARDS - 1 : len(sorted_angles) - ROW_ANGLE_CARDS]
    cut = int(np.argmax(gaps)) + ROW_ANGLE_CARDS
    gap = float(sorted_angles[cut] - sorted_angles[cut - 1])
    apart = float(np.median(sorted_angles[cut:]) - np.median(sorted_angles[:cut]))
    if not _runs_apart(gap, apart, least_degrees):
        return None
    part_of = {tops[k]: int(rank >= cut) for rank, k in enumerate(ordered)}
    placed = sorted(angles)  # positions in `tops` of the indices whose part their angle gave
    centres = np.array([points[k] for k in placed])
    size = float(np.median([upright_height(group[tops[k]], up) for k in placed]))
    along = two_lines(centres, np.array([part_of[tops[k]] for k in placed]), size)
    if along is not None:  # each part one row: each card with the row whose line it lies on
        part_of = {tops[k]: int(line) for k, line in zip(placed, along, strict=True)}
    top_corner = _top_corners(group)
    parts: list[list[IndexRead]] = [[], []]
    for n, index in enumerate(group):
        own = top_corner.get(n, n)
        if own not in part_of:
            here = np.array(turn_to_up(index.centre, up, width, height))
            own = tops[placed[int(np.argmin(np.hypot(*(centres - here).T)))]]
        parts[part_of[own]].append(index)
    return AngleSplit(parts, gap, apart)


def row_angles(points: Sequence[tuple[float, float]]) -> list[float | None]:
    """Each point's angle (degrees) to its nearest neighbour along a row (within
    `layout.MAX_ROW_TILT_DEGREES` of across), None where it has none."""
    return [
        None if offset is None else float(np.degrees(np.arctan2(offset[1], offset[0])))
        for offset in nearest_beside_each(points)
    ]


def _starts_at(pile: Pile, up: int, width: int, height: int) -> tuple[float, float]:
    """Where a pile starts in its player's frame (top, then left), to list a side's piles top to
    bottom as that player sees them."""
    points = [
        turn_to_up(((c.box[0] + c.box[2]) / 2, (c.box[1] + c.box[3]) / 2), up, width, height)
        for c in pile
    ]
    return min(y for _, y in points), points[0][0]


def settled(piles: list[LaidPile], decks: int, width: int, height: int) -> list[LaidPile]:
    """A table's piles (in seat order) as a read gives them: without a lone card that is another
    pile's index read twice (`without_lone_repeats`), a lone card with the side it faces
    (`lone_cards_facing_their_side`), and with one deck each card once across them all
    (`_one_of_each_across`). A photo of `width` by `height` pixels."""
    piles = lone_cards_facing_their_side(without_lone_repeats(piles), width, height)
    return _one_of_each_across(piles) if decks == 1 else piles


def without_lone_repeats(piles: list[LaidPile]) -> list[LaidPile]:
    """The piles less each pile of one card whose every index lies on an index of another
    pile's card (SAME_INDEX_OVERLAP), that pile of at least two cards: one index read twice,
    as two cards (the two reads of a table, or a side's read again, each read it its own way),
    belongs where it continues a pile. A far pile's 10S read as a lone 6S of the near player's
    (fresh table t00036), a left pile's last card as a lone card of the right player's (t00095)."""

    def repeated(card: ReadCard, by: list[ReadCard]) -> bool:
        theirs = [index.box for other in by for index in other.indices]
        return bool(card.indices) and all(
            any(overlap(index.box, box) > SAME_INDEX_OVERLAP for box in theirs)
            for index in card.indices
        )

    return [
        pile
        for n, pile in enumerate(piles)
        if len(pile.cards) != 1
        or not repeated(
            pile.cards[0],
            [
                card
                for m, other in enumerate(piles)
                if m != n and len(other.cards) > 1
                for card in other.cards
            ],
        )
    ]


def lone_cards_facing_their_side(piles: list[LaidPile], width: int, height: int) -> list[LaidPile]:
    """The piles (in seat order, each side's top to bottom as its player sees them), each pile of
    one card whose glyphs all stand one way, a quarter turn from its side's, given to the side
    they stand for, where that side has piles and the card's own side's other piles stand its
    way: a lone card's side is the nearest side's where its group was too small to tell
    (`table_sides`), and fresh table t00038's KC, standing the right player's way, went to the
    near player. A photo of `width` by `height` pixels."""
    moved = [_given_the_side_it_faces(n, piles) for n in range(len(piles))]
    if moved == piles:
        return piles
    return sorted(
        moved,
        key=lambda pile: (
            SIDES.index(pile.side),
            _starts_at(pile.cards, SIDES.index(pile.side), width, height),
        ),
    )


def _given_the_side_it_faces(n: int, piles: list[LaidPile]) -> LaidPile:
    """Pile `n`, given the side its glyphs stand for where `lone_cards_facing_their_side` says."""
    pile = piles[n]
    up = SIDES.index(pile.side)
    turns = {index.orientation for card in pile.cards for index in card.indices}
    if len(pile.cards) != 1 or len(turns) != 1 or None in turns:
        return pile
    (turn,) = turns
    own = [other for m, other in enumerate(piles) if m != n and other.side == pile.side]
    if (
        not quarter_turned(turn, up)
        or not any(other.side == SIDES[turn] for other in piles)
        or not own
        or not _standing_the_way_of(own, up)
    ):
        return pile
    return replace(pile, side=SIDES[turn])


def _standing_the_way_of(piles: list[LaidPile], up: int) -> bool:
    """Whether most of the piles' indices stand side `up`'s way (or upside down: bottom corners)."""
    turns = [
        index.orientation
        for pile in piles
        for card in pile.cards
        for index in card.indices
        if index.orientation is not None
    ]
    return 2 * sum(not quarter_turned(turn, up) for turn in turns) > len(turns)


def _one_of_each_across(piles: list[LaidPile]) -> list[LaidPile]:
    """The piles with each card at most once across all of them (layout.placed_once); a pile
    left with no card goes. A card the step cannot place (its
    every guess a likelier card of another pile) is dropped, a gap where it lay: on the test
    and calibration tables such a card, read surely in another player's pile, was mostly a
    mark or a neighbour's index at a pile's end (pooled piles right 0.904 -> 0.909, precision
    up, recall 3 cards fewer in 9,335)."""
    cards, unplaced = placed_once([card for pile in piles for card in pile.cards])
    out: list[LaidPile] = []
    start = 0
    for pile in piles:
        count = len(pile.cards)
        dropped = [k for k in range(count) if start + k in unplaced]
        own = cards[start : start + count]
        start += count
        if len(dropped) == count:
            continue
        kept = tuple(card for k, card in enumerate(own) if k not in dropped)
        out.append(replace(pile, cards=kept, gaps=without_cards(pile.gaps, dropped)))
    return out


def each_side_from_the_surer(
    read: PhotoRead, again: PhotoRead, decks: int = 1, players: int | None = None
) -> PhotoRead:
    """A whole table read twice (as it is, and `again` stretched down: its boxes in the photo
    as it is) as one read: each side's piles from the read surer of them (`side_sureness`; on a
    tie the stretched one), then, with one deck, each card at most once across all the piles
    (`_one_of_each_across`: a card read on two sides takes its next guess on one, or leaves a
    gap). Where that would make more sides than `players`, the read sure of more cards, as one
    player's photos choose (`squeeze.sure_cards`).

    A seated camera squeezes the far and side piles most, and the stretched read reads them
    best, but not every side of every photo: piles right on the test / calibration tables and
    120 drawn afresh 0.904 / 0.920 / 0.851 with the surer read kept whole, 0.915 / 0.920 /
    0.886 with each side's own (models/HISTORY.md, "Session 28")."""
    found = {one.side_of(n) for one in (read, again) for n in range(len(one.piles))}
    sides_there = [side for side in SIDES if side in found]
    if players is not None and len(sides_there) > players:
        return again if sure_cards(again) >= sure_cards(read) else read
    piles: list[LaidPile] = []
    for side in sides_there:
        surer = again if side_sureness(again, side) >= side_sureness(read, side) else read
        piles += [laid_pile(surer, n) for n in range(len(surer.piles)) if surer.side_of(n) == side]
    return with_piles(read, settled(piles, decks, read.width, read.height))


def side_sureness(read: PhotoRead, side: str) -> float:
    """How surely the read reads a side's piles: its cards' probabilities summed, less one for
    each place where a card may be missing (a gap)."""
    piles = [n for n in range(len(read.piles)) if read.side_of(n) == side]
    cards = sum(card.confidence for n in piles for card in read.piles[n])
    return cards - sum(len(read.gaps_of(n)) for n in piles)


def without_cards(gaps: tuple[int, ...], dropped: list[int]) -> tuple[int, ...]:
    """A pile's gap positions once the cards at `dropped` (positions) are taken out of it, a gap
    where each was."""
    placed = [k - n for n, k in enumerate(sorted(dropped))]
    return tuple(sorted({*closed_up(gaps, dropped), *placed}))


def closed_up(gaps: tuple[int, ...], dropped: list[int]) -> tuple[int, ...]:
    """A pile's gap positions once the cards at `dropped` (positions) are taken out of it and
    the cards after them move up, no gap where they were."""
    return tuple(sorted({gap - sum(k < gap for k in dropped) for gap in gaps}))
