"""Where the cards lie: rows (piles) of overlapping cards, fans, loose cards, on a table plane,
and the phone camera that looks at the table.

Plane units: one card height. A card's own frame is its rendered art in pixels; `to_plane` maps
art pixels to the plane, and the camera homography maps the plane to image pixels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np

from blackcat.games.cards import Card
from blackcat.workshop.synth.weights import parse_weights

Rng = np.random.Generator


class LayoutKind(Enum):
    ROWS = "rows"
    FAN = "fan"
    SINGLES = "singles"
    EMPTY = "empty"


DEFAULT_LAYOUT_WEIGHTS: tuple[tuple[LayoutKind, float], ...] = (
    (LayoutKind.ROWS, 0.8),
    (LayoutKind.FAN, 0.07),
    (LayoutKind.SINGLES, 0.08),
    (LayoutKind.EMPTY, 0.05),
)
"""How one player's cards lie in training scenes: mostly piles, a few fans and loose cards."""


def parse_layout_weights(text: str) -> tuple[tuple[LayoutKind, float], ...]:
    """`rows=4,fan=1,...` (names of LayoutKind) as weights; layouts not named get 0."""
    weights = parse_weights(text, [kind.value for kind in LayoutKind], "layout")
    return tuple((LayoutKind(name), weight) for name, weight in weights)


@dataclass(frozen=True)
class CardArtSize:
    """Size of a deck's rendered art, and how far right its top-left index reaches (a fraction
    of the card width): a later card must leave at least that strip of its neighbour showing."""

    width: int
    height: int
    strip: float

    @property
    def aspect(self) -> float:
        return self.width / self.height


@dataclass(frozen=True, eq=False)
class PlacedCard:
    card: Card
    row: int  # the pile (row) this card belongs to
    position: int  # 0 = leftmost in its row
    to_plane: np.ndarray  # 3x3, art pixels -> plane


@dataclass(frozen=True, eq=False)
class Layout:
    kind: LayoutKind
    cards: tuple[PlacedCard, ...]  # drawing order: later cards lie on top


# ---------------------------------------------------------------------------------------------
# matrices


def translation(x: float, y: float) -> np.ndarray:
    return np.array([[1, 0, x], [0, 1, y], [0, 0, 1]], np.float64)


def scaling(sx: float, sy: float | None = None) -> np.ndarray:
    return np.diag([sx, sx if sy is None else sy, 1.0])


def rotation(angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], np.float64)


def apply(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Map N x 2 points through a 3x3 homography."""
    pts = np.asarray(points, np.float64).reshape(-1, 2)
    homo = np.hstack([pts, np.ones((len(pts), 1))]) @ h.T
    return homo[:, :2] / homo[:, 2:3]


def card_to_plane(size: CardArtSize, cx: float, cy: float, angle: float) -> np.ndarray:
    """Art pixels -> plane: a card of height 1 centred on (cx, cy), turned by `angle`."""
    centre = translation(-size.width / 2, -size.height / 2)
    return translation(cx, cy) @ rotation(angle) @ scaling(1 / size.height) @ centre


def art_corners(size: CardArtSize) -> np.ndarray:
    return np.array([[0, 0], [size.width, 0], [size.width, size.height], [0, size.height]], float)


# ---------------------------------------------------------------------------------------------
# layouts


def rows_layout(
    rng: Rng,
    cards: list[list[Card]],
    size: CardArtSize,
    uneven: float = 0.1,
    rows_apart: float | None = None,
    row_turns: Sequence[float] = (),
) -> Layout:
    """Rows laid left to right, each card on top of the one before, showing at least the strip
    of the previous card that holds its top-left index; each offset within `uneven` (a share)
    of the row's own. Each row lies a little more than a card below the one before, or
    `rows_apart` card heights (below 1: rows pushed into each other, each over the lower part
    of the one above). `row_turns`: each row turned this many degrees more (rows laid casually,
    each at its own angle)."""
    a = size.aspect
    min_step = (size.strip + rng.uniform(0.02, 0.07)) * a
    placed: list[PlacedCard] = []
    y = 0.0
    for r, row in enumerate(cards):
        style = rng.random()
        if style < 0.6:  # tight: only the index strip shows
            step = rng.uniform(min_step, min_step + 0.12 * a)
        elif style < 0.9 or len(row) > 12:
            step = rng.uniform(min_step, 0.8 * a)
        else:  # spread out, up to small gaps
            step = rng.uniform(0.8 * a, 1.15 * a)
        row_angle = rng.normal(0, np.radians(2))
        if r < len(row_turns):
            row_angle += np.radians(row_turns[r])
        x = rng.uniform(-0.3, 0.3) * a
        for position, card in enumerate(row):
            angle = row_angle + np.clip(rng.normal(0, np.radians(1.5)), -0.08, 0.08)
            dy = rng.normal(0, 0.012)
            cx = x + a / 2
            cy = y + 0.5 + dy + np.tan(row_angle) * x
            placed.append(PlacedCard(card, r, position, card_to_plane(size, cx, cy, angle)))
            x += max(0.93 * min_step, step * rng.uniform(1 - uneven, 1 + uneven))
        apart = 1 + rng.uniform(0.06, 0.6)  # drawn either way: the rest of the scene stays
        y += apart if rows_apart is None else rows_apart
    return Layout(LayoutKind.ROWS, tuple(placed))


def columns_layout(rng: Rng, cards: list[list[Card]], size: CardArtSize, depth: float) -> Layout:
    """Columns laid top to bottom, side by side, each card on top of the one before and lower
    down, leaving at least the top `depth` (a share of the card height: its top index) of the
    previous card showing; the last card whole."""
    a = size.aspect
    placed: list[PlacedCard] = []
    x = 0.0
    for k, column in enumerate(cards):
        min_step = depth + rng.uniform(0.02, 0.06)
        step = (
            rng.uniform(min_step, min_step + 0.15)
            if rng.random() < 0.7
            else rng.uniform(min_step, 0.6)
        )
        column_angle = rng.normal(0, np.radians(2))
        y = rng.uniform(-0.1, 0.1)
        for position, card in enumerate(column):
            angle = column_angle + np.clip(rng.normal(0, np.radians(1.5)), -0.08, 0.08)
            cx = x + a / 2 + rng.normal(0, 0.012) - np.tan(column_angle) * y
            cy = y + 0.5
            placed.append(PlacedCard(card, k, position, card_to_plane(size, cx, cy, angle)))
            y += max(0.95 * min_step, step * rng.uniform(0.9, 1.1))
        x += a + rng.uniform(0.1, 0.5)
    return Layout(LayoutKind.ROWS, tuple(placed))


def fan_layout(rng: Rng, cards: list[Card], size: CardArtSize) -> Layout:
    """A loose fan, as held in a hand and put down: cards turned about a point below them."""
    pivot_distance = rng.uniform(0.55, 1.2)
    step = np.radians(rng.uniform(5, 14))
    start = -step * (len(cards) - 1) / 2
    placed = []
    for position, card in enumerate(cards):
        angle = start + step * position + rng.normal(0, 0.01)
        # the card centre sits pivot_distance above the pivot, turned by angle
        cx = pivot_distance * np.sin(angle)
        cy = -pivot_distance * np.cos(angle)
        placed.append(PlacedCard(card, 0, position, card_to_plane(size, cx, cy, angle)))
    return Layout(LayoutKind.FAN, tuple(placed))


def singles_layout(rng: Rng, cards: list[Card], size: CardArtSize) -> Layout:
    """A few loose cards at any angle; each is a pile of one."""
    placed = []
    spread = 1.2 * np.sqrt(len(cards))
    for i, card in enumerate(cards):
        cx, cy = rng.uniform(0, spread), rng.uniform(0, spread)
        angle = rng.uniform(-np.pi, np.pi) if rng.random() < 0.5 else rng.normal(0, 0.3)
        placed.append(PlacedCard(card, i, 0, card_to_plane(size, cx, cy, angle)))
    return Layout(LayoutKind.SINGLES, tuple(placed))


# ---------------------------------------------------------------------------------------------
# camera


@dataclass(frozen=True)
class Camera:
    plane_to_image: np.ndarray  # 3x3
    width: int
    height: int
    tilt_degrees: float
    pitch_degrees: float


def camera_for(
    rng: Rng,
    plane_points: np.ndarray,
    long_side: int,
    *,
    tilt: float | None = None,
    pitch: float | None = None,
    ratio: float | None = None,
    fill: float | None = None,
    slack: float | None = None,
    heading: float | None = None,
    distance: float | None = None,
) -> Camera:
    """A phone over the table: tilted in the image, pitched (perspective), framing the cards.

    Each of `tilt` and `pitch` (degrees), `ratio` (long side / short side; the picture is then
    landscape when the cards are wider than tall) and `fill` (share of the picture the cards
    span) is drawn at random when not given. The cards lie anywhere in the picture, or within
    `slack` (0-1) of the free room either side of its middle. `heading` (radians): the axis
    the table is pitched about (pi: the plane's bottom, larger y, nearest the camera), drawn at
    random when not given; `distance`: the camera's from the cards' middle (plane units), drawn
    at random (0.6-1.6 times closer than the cards' extent) when not given."""
    centre = (plane_points.min(axis=0) + plane_points.max(axis=0)) / 2
    extent = float(np.max(plane_points.max(axis=0) - plane_points.min(axis=0))) or 1.0
    if tilt is None:
        tilt = _tilt(rng)
    if pitch is None:
        pitch = rng.uniform(0, 38) if rng.random() < 0.85 else rng.uniform(0, 10)
    pitch = np.radians(pitch)
    if heading is None:
        heading = rng.uniform(0, 2 * np.pi)
    if distance is None:
        distance = extent / rng.uniform(0.6, 1.6)
    projection = _projection(pitch, heading, distance) @ translation(-centre[0], -centre[1])
    projection = rotation(np.radians(tilt)) @ projection
    projected = apply(projection, plane_points)
    lo, hi = projected.min(axis=0), projected.max(axis=0)
    span = np.maximum(hi - lo, 1e-6)
    width, height = _frame(rng, span, long_side, ratio)
    if fill is None:
        fill = rng.uniform(0.55, 0.95)
        if rng.random() < 0.12:  # zoomed in: some cards run out of the picture
            fill = rng.uniform(1.05, 1.8)
    scale = fill * min(width / span[0], height / span[1])
    free = np.array([width, height]) - span * scale
    if slack is None:
        offset = np.array([rng.uniform(min(0, f), max(0, f)) for f in free])
    else:
        offset = free / 2 + rng.uniform(-1, 1, 2) * slack * np.abs(free) / 2
    fit = translation(*(offset - lo * scale)) @ scaling(scale)
    return Camera(fit @ projection, width, height, float(tilt), float(np.degrees(pitch)))


def _tilt(rng: Rng) -> float:
    """Mostly a phone held about level; a fifth of pictures turned sideways or upside down."""
    u = rng.random()
    if u < 0.6:
        return float(np.clip(rng.normal(0, 9), -20, 20))
    if u < 0.75:
        return float(rng.choice([-1, 1]) * rng.uniform(20, 45))
    if u < 0.93:
        return float(rng.choice([90, 180, -90]) + np.clip(rng.normal(0, 9), -20, 20))
    return float(rng.uniform(-180, 180))


def _projection(pitch: float, heading: float, distance: float) -> np.ndarray:
    """Plane (z = 0) seen by a pinhole camera `distance` away, the plane tilted by `pitch` about
    an axis at angle `heading`; image units are arbitrary (the frame fit rescales)."""
    axis = np.array([np.cos(heading), np.sin(heading), 0.0])
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    r = np.eye(3) + np.sin(pitch) * k + (1 - np.cos(pitch)) * (k @ k)
    extrinsic = np.column_stack([r[:, 0], r[:, 1], [0, 0, distance]])
    return extrinsic / distance


def _frame(
    rng: Rng, span: np.ndarray, long_side: int, ratio: float | None = None
) -> tuple[int, int]:
    landscape = span[0] >= span[1]
    if ratio is None:
        ratio = float(rng.choice([4 / 3, 4 / 3, 4 / 3, 16 / 9, 1.0]))
        if rng.random() < 0.2:
            landscape = not landscape
    short = round(long_side / ratio)
    return (long_side, short) if landscape else (short, long_side)
