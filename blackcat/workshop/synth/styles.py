"""Card styles players bring, applied to a deck's rendered card art: four-colour suits, jumbo
indices, another index font, suit symbols of other shapes (fat, thin, from other fonts), indices
inset or at the edge, a wide or a tight white margin, indices in all four corners.

A style is drawn once per scene (`draw_style`), then applied to each card of the scene
(`style_card`), a pure function of the card's art, its index boxes and the style: every card of
one deck looks alike, as in a real deck, and the index boxes follow the styled art exactly.
Some styles are held out of training (`HELD_OUT`) to measure how the reader generalises.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from blackcat.games.cards import Card, Suit
from blackcat.workshop.synth.decks import Corner
from blackcat.workshop.synth.indices import Box, IndexBox
from blackcat.workshop.synth.weights import parse_weights

Rng = np.random.Generator

EDGE_MARGIN = 0.02  # no index is moved closer than this share of the card width to its edges
MAX_INDEX_WIDTH = 0.42  # a styled index stays within this share of the card width ...
MAX_INDEX_HEIGHT = 0.4  # ... and of its height
BLUE_HUE = 112  # OpenCV hue (0-180) of a four-colour deck's diamonds
CLUB_GREEN = np.array([20, 125, 0], np.float32)  # BGR of a four-colour deck's clubs
RED_INK = np.array([35, 25, 200], np.float32)  # BGR of a drawn index's red and black ink
BLACK_INK = np.array([25, 25, 25], np.float32)
SUIT_FONT = "DejaVuSans.ttf"  # has the four suit symbols
DARK_INKS = {  # BGR of the light ink on a dark-faced deck
    "gold": np.array([60, 175, 220], np.float32),
    "silver": np.array([200, 200, 195], np.float32),
    "white": np.array([235, 238, 240], np.float32),
}
DARK_PAPER = np.array([22, 20, 20], np.float32)
BRIGHT_RED = np.array([60, 60, 230], np.float32)


@dataclass(frozen=True)
class CardStyle:
    """How a deck's cards are changed; `name` is what the metadata records."""

    name: str = "plain"
    face_scale: float = 1.0  # the face art scaled about the centre (<1: wider white margin)
    index_margin: float = 1.0  # the index's distance to its edges scaled (>1: inset)
    index_scale: float = 1.0  # the corner index scaled about its corner
    font: str | None = None  # the index redrawn with this font file (matplotlib's fonts)
    font_height: float = 1.0  # the redrawn index's height, in heights of the original
    suit_font: str = SUIT_FONT  # a redrawn index's suit symbol from this font ...
    suit_weight: float = 0.0  # ... grown (> 0) or thinned (< 0) by this share of its height
    four_colour: bool = False  # diamonds blue, clubs green
    mark: str = ""  # a maker's mark printed beside the indices (no index: the reader ignores it)
    mark_height: float = 0.5  # its height, in heights of the card's index
    mark_place: str = "bottom_left"  # MARK_PLACES
    mark_on_every_card: bool = False  # else on the court cards alone, as some decks print it
    dark_face: str = ""  # DARK_INKS: a black face, the ink light in this metal (red kept or not)
    dark_face_red: bool = True  # on a dark face, red ink stays red (else it takes the metal too)
    four_index: bool = False  # each index printed in the other corner of its edge too (FOUR_INDEX)

    @property
    def is_plain(self) -> bool:
        return self == CardStyle(self.name)


def _plain(rng: Rng) -> CardStyle:
    return CardStyle("plain")


def _four_colour(rng: Rng) -> CardStyle:
    return CardStyle("four_colour", four_colour=True)


def _jumbo(rng: Rng) -> CardStyle:
    return CardStyle("jumbo", index_scale=float(rng.uniform(1.5, 2.5)))


def _font(name: str, font: str) -> Callable[[Rng], CardStyle]:
    def draw(rng: Rng) -> CardStyle:
        return CardStyle(name, font=font, font_height=float(rng.uniform(0.9, 1.3)))

    return draw


SUIT_SHAPE_FONTS = ("DejaVuSans.ttf", "DejaVuSerif.ttf", "STIXGeneral.ttf")
"""Fonts with the four suit symbols, each drawn in its own shape (matplotlib ships them)."""
RANK_FONTS = ("DejaVuSans-Bold.ttf", "DejaVuSans.ttf", "DejaVuSansMono-Bold.ttf")


def _suit_shapes(rng: Rng) -> CardStyle:
    """Suits of other shapes: real decks draw a club with fat round lobes that nearly merge, or
    a thin spade; the reader must tell a club from a spade by its outline whatever the drawing."""
    return CardStyle(
        "suit_shapes",
        font=RANK_FONTS[int(rng.integers(len(RANK_FONTS)))],
        font_height=float(rng.uniform(0.9, 1.3)),
        suit_font=SUIT_SHAPE_FONTS[int(rng.integers(len(SUIT_SHAPE_FONTS)))],
        suit_weight=float(rng.uniform(-0.03, 0.07)),
    )


MARK_PLACES = ("bottom_left", "bottom", "left")
"""Where a maker's mark is printed: the empty bottom-left corner read upwards, the middle of
the bottom edge, the middle of the left edge read upwards."""
MARK_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
MARK_FONT = "DejaVuSans.ttf"


def _printed_marks(rng: Rng) -> CardStyle:
    """A maker's mark (letters and digits, as "KDE" or "No 9" on real decks) printed on the
    cards near an index: not an index, so the detector must learn to pass it by."""
    length = int(rng.integers(2, 6))
    text = "".join(MARK_LETTERS[int(i)] for i in rng.integers(len(MARK_LETTERS), size=length))
    return CardStyle(
        "printed_marks",
        mark=text,
        mark_height=float(rng.uniform(0.3, 0.7)),
        mark_place=MARK_PLACES[int(rng.integers(len(MARK_PLACES)))],
        mark_on_every_card=bool(rng.random() < 0.5),
    )


def _inset(rng: Rng) -> CardStyle:
    return CardStyle("inset", index_margin=float(rng.uniform(1.6, 2.6)))


def _edge(rng: Rng) -> CardStyle:
    return CardStyle("edge", index_margin=float(rng.uniform(0.2, 0.6)))


def _wide_margin(rng: Rng) -> CardStyle:
    return CardStyle("wide_margin", face_scale=float(rng.uniform(0.82, 0.92)))


def _tight_margin(rng: Rng) -> CardStyle:
    return CardStyle("tight_margin", face_scale=float(rng.uniform(1.06, 1.16)))


def _dark_face(rng: Rng) -> CardStyle:
    return CardStyle(
        "dark_face",
        dark_face=str(rng.choice(list(DARK_INKS))),
        dark_face_red=bool(rng.random() < 0.6),
    )


def _four_index(rng: Rng) -> CardStyle:
    return CardStyle("four_index", four_index=True)


def _jumbo_four_colour(rng: Rng) -> CardStyle:
    return replace(_jumbo(rng), name="jumbo_four_colour", four_colour=True)


STYLES: dict[str, Callable[[Rng], CardStyle]] = {
    "plain": _plain,
    "four_colour": _four_colour,
    "jumbo": _jumbo,
    "font_sans": _font("font_sans", "DejaVuSans-Bold.ttf"),
    "font_serif": _font("font_serif", "DejaVuSerif-Bold.ttf"),
    "inset": _inset,
    "edge": _edge,
    "wide_margin": _wide_margin,
    "tight_margin": _tight_margin,
    "jumbo_four_colour": _jumbo_four_colour,
    "suit_shapes": _suit_shapes,
    "printed_marks": _printed_marks,
    "dark_face": _dark_face,
    "four_index": _four_index,
}
HELD_OUT = frozenset({"font_serif", "jumbo_four_colour"})
"""Never drawn in training scenes: the held-out (val) and kitty scenes measure them."""

KITTY_STYLE_WEIGHTS: tuple[tuple[str, float], ...] = (
    ("plain", 0.4),
    ("four_colour", 0.1),
    ("jumbo", 0.1),
    ("font_sans", 0.07),
    ("font_serif", 0.07),
    ("inset", 0.06),
    ("edge", 0.06),
    ("wide_margin", 0.06),
    ("tight_margin", 0.06),
    ("jumbo_four_colour", 0.06),
)
"""The styles of the kitty measuring sets (fixed, so a set drawn again is the same set)."""
DEFAULT_STYLE_WEIGHTS: tuple[tuple[str, float], ...] = (
    *KITTY_STYLE_WEIGHTS,
    ("suit_shapes", 0.08),
    ("printed_marks", 0.06),
    ("dark_face", 0.08),
    ("four_index", 0.08),
)


def draw_style(rng: Rng, weights: tuple[tuple[str, float], ...], training: bool) -> CardStyle:
    """One scene's style: a name by weight (never a held-out one in training), then its
    parameters."""
    names = [n for n, w in weights if w > 0 and not (training and n in HELD_OUT)]
    if not names:
        return CardStyle("plain")
    p = np.array([dict(weights)[n] for n in names], np.float64)
    name = names[int(rng.choice(len(names), p=p / p.sum()))]
    return STYLES[name](rng)


def parse_style_weights(text: str) -> tuple[tuple[str, float], ...]:
    """`plain=4,jumbo=1,...` (names from STYLES) as weights; styles not named get 0."""
    return parse_weights(text, STYLES, "style")


# ---------------------------------------------------------------------------------------------
# applying a style


@dataclass(frozen=True)
class StyledCard:
    art: np.ndarray  # BGRA
    boxes: tuple[IndexBox, ...]


def style_card(
    style: CardStyle,
    art: np.ndarray,
    card: Card,
    boxes: tuple[IndexBox, ...],
    upright_bottom: bool = False,
) -> StyledCard:
    """The card's art and index boxes in `style` (the input art is not changed).
    `upright_bottom`: the deck prints its bottom indices upright (a redrawn index follows)."""
    if style.is_plain:
        return StyledCard(art, boxes)
    out = art.copy()
    h, w = art.shape[:2]
    if style.face_scale != 1.0:
        out, boxes = _scale_face(out, boxes, style.face_scale)
    if _moves_index(style):
        new_boxes = []
        for index in boxes:
            paper = _paper_near(out, index.box)
            target, glyph = _index_target(style, card, index, w, h, upright_bottom)
            if glyph is not None:
                _erase(out, index.box, paper)
                _erase(out, target, paper)
                _paint(out, glyph, target, _ink_colour(card))
            else:
                _move_index(out, index.box, target, paper)
            new_boxes.append(IndexBox(index.corner, target, index.redone))
        boxes = tuple(new_boxes)
    if style.four_index:
        copies = _four_index_boxes(boxes, w, h)
        for source, copy in copies:
            _copy_index(out, source.box, copy.box)
        boxes += tuple(copy for _, copy in copies)
    if style.four_colour and card.suit in (Suit.DIAMONDS, Suit.CLUBS):
        out = _four_colour(out, card, boxes)
    if style.mark and (style.mark_on_every_card or card.rank.is_face):
        _print_mark(out, style, boxes)
    if style.dark_face:
        out = dark_faced(out, DARK_INKS[style.dark_face], style.dark_face_red)
    return StyledCard(out, boxes)


def dark_faced(art: np.ndarray, ink: np.ndarray, keep_red: bool) -> np.ndarray:
    """The card printed in negative: its paper black, its ink in light metal (BGRA in and out).
    How much ink a pixel holds is how far its darkest channel is from white, so red ink counts
    as ink too; red stays red (brightened) when `keep_red`."""
    bgr = art[..., :3].astype(np.float32)
    amount = (1 - bgr.min(axis=2) / 255)[..., None]
    colour = np.broadcast_to(ink, bgr.shape)
    if keep_red:
        redness = np.clip((bgr[..., 2] - bgr[..., :2].max(axis=2)) / 100, 0, 1)[..., None]
        colour = colour * (1 - redness) + BRIGHT_RED * redness
    out = art.copy()
    out[..., :3] = np.clip(DARK_PAPER * (1 - amount) + colour * amount, 0, 255).astype(np.uint8)
    return out


def styled_boxes(
    style: CardStyle,
    card: Card,
    boxes: tuple[IndexBox, ...],
    width: int,
    height: int,
    upright_bottom: bool = False,
) -> tuple[IndexBox, ...]:
    """The index boxes `style_card` gives, without drawing the art (cheap)."""
    if style.face_scale != 1.0:
        scale = _face_scale_limit(boxes, style.face_scale, width, height)
        boxes = tuple(
            IndexBox(b.corner, _scaled_box(b.box, scale, width, height), b.redone) for b in boxes
        )
    if _moves_index(style):
        boxes = tuple(
            IndexBox(
                b.corner, _index_target(style, card, b, width, height, upright_bottom)[0], b.redone
            )
            for b in boxes
        )
    if style.four_index:
        boxes += tuple(copy for _, copy in _four_index_boxes(boxes, width, height))
    return boxes


FOUR_INDEX: dict[Corner, Corner] = {
    Corner.TOP_LEFT: Corner.TOP_RIGHT,
    Corner.TOP_RIGHT: Corner.TOP_LEFT,
    Corner.BOTTOM_RIGHT: Corner.BOTTOM_LEFT,
    Corner.BOTTOM_LEFT: Corner.BOTTOM_RIGHT,
}
"""A four-index deck (many poker and casino decks) prints each index again in the other corner of
the same edge, as it stands: the top-left one top right, the bottom-right one bottom left."""


def _four_index_boxes(
    boxes: tuple[IndexBox, ...], w: int, h: int
) -> tuple[tuple[IndexBox, IndexBox], ...]:
    """Each index and its copy in the other corner of its edge (FOUR_INDEX), where that corner
    has none and the copy, with its margin, touches no index (a jumbo index may span the
    card)."""
    taken = {b.corner for b in boxes}
    copies = []
    for index in boxes:
        corner = FOUR_INDEX[index.corner]
        x0, y0, x1, y1 = index.box
        box = (w - x1, y0, w - x0, y1)
        grown = _grow(box, _margin(box), w, h)
        if corner in taken or any(_touch(grown, b.box) for b in boxes):
            continue
        copies.append((index, IndexBox(corner, box, index.redone)))
    return tuple(copies)


def _copy_index(art: np.ndarray, box: Box, target: Box) -> None:
    """The index's ink, with the paper of its margin, drawn again at `target` (the same size)."""
    h, w = art.shape[:2]
    m = _margin(box)
    (x0, y0, x1, y1), (tx, ty) = box, target[:2]
    left, top = max(-m, -x0, -tx), max(-m, -y0, -ty)
    right, bottom = min(x1 - x0 + m, w - x0, w - tx), min(y1 - y0 + m, h - y0, h - ty)
    if right <= left or bottom <= top:
        return
    patch = art[y0 + top : y0 + bottom, x0 + left : x0 + right, :3].copy()
    art[ty + top : ty + bottom, tx + left : tx + right, :3] = patch


def _moves_index(style: CardStyle) -> bool:
    return style.index_scale != 1.0 or style.index_margin != 1.0 or style.font is not None


def _index_target(
    style: CardStyle, card: Card, index: IndexBox, w: int, h: int, upright_bottom: bool
) -> tuple[Box, np.ndarray | None]:
    """Where the styled index lies, and the redrawn index's coverage mask (None: the index's
    own ink is moved and scaled)."""
    if style.font is not None:
        glyph = index_glyph(
            card,
            style.font,
            round(_height(index.box) * style.font_height),
            style.suit_font,
            style.suit_weight,
        )
        if _turned(index.corner, upright_bottom):
            glyph = glyph[::-1, ::-1]
        glyph = _fit_glyph(glyph, w, h)
        return _anchored(index, glyph.shape[1], glyph.shape[0], style.index_margin, w, h), glyph
    scale = _fit_scale(index.box, style.index_scale, w, h)
    size_w = round((index.box[2] - index.box[0]) * scale)
    size_h = round((index.box[3] - index.box[1]) * scale)
    return _anchored(index, size_w, size_h, style.index_margin, w, h), None


def _height(box: Box) -> int:
    return box[3] - box[1]


def _margin(box: Box) -> int:
    return max(2, round(0.06 * (box[2] - box[0])))


def _grow(box: Box, m: int, w: int, h: int) -> Box:
    return (max(0, box[0] - m), max(0, box[1] - m), min(w, box[2] + m), min(h, box[3] + m))


def _paper_near(art: np.ndarray, box: Box) -> np.ndarray:
    """The paper colour round an index: the median of the brighter pixels of a ring about it,
    on the card."""
    h, w = art.shape[:2]
    m = _margin(box)
    outer = _grow(box, 3 * m, w, h)
    inner = _grow(box, m, w, h)
    region = art[outer[1] : outer[3], outer[0] : outer[2]]
    ring = np.ones(region.shape[:2], bool)
    ring[inner[1] - outer[1] : inner[3] - outer[1], inner[0] - outer[0] : inner[2] - outer[0]] = 0
    ring &= region[:, :, 3] > 200
    if not ring.any():
        return np.array([250, 250, 250], np.float32)
    pixels = region[ring][:, :3].astype(np.float32)
    # the ring may cross ink and printed edges: paper is the brighter part of it
    light = pixels.mean(axis=1)
    return np.median(pixels[light >= np.percentile(light, 60)], axis=0)


def _card_corner(corner: Corner, w: int, h: int) -> tuple[int, int]:
    return {
        Corner.TOP_LEFT: (0, 0),
        Corner.TOP_RIGHT: (w, 0),
        Corner.BOTTOM_RIGHT: (w, h),
        Corner.BOTTOM_LEFT: (0, h),
    }[corner]


def _anchored(index: IndexBox, size_w: int, size_h: int, margin: float, w: int, h: int) -> Box:
    """A box of the given size whose corner nearest the card's corner lies where the index's
    did, its distances to the card's edges scaled by `margin` (kept within the card)."""
    x0, y0, x1, y1 = index.box
    cx, cy = _card_corner(index.corner, w, h)
    least = round(EDGE_MARGIN * w)
    gap_x = max(least, round((x0 if cx == 0 else w - x1) * margin))
    gap_y = max(least, round((y0 if cy == 0 else h - y1) * margin))
    gap_x = min(gap_x, w - size_w - least)
    gap_y = min(gap_y, h - size_h - least)
    nx0 = gap_x if cx == 0 else w - gap_x - size_w
    ny0 = gap_y if cy == 0 else h - gap_y - size_h
    return (nx0, ny0, nx0 + size_w, ny0 + size_h)


def _fit_scale(box: Box, scale: float, w: int, h: int) -> float:
    bw, bh = box[2] - box[0], box[3] - box[1]
    return float(min(scale, MAX_INDEX_WIDTH * w / bw, MAX_INDEX_HEIGHT * h / bh))


def _erase(art: np.ndarray, box: Box, paper: np.ndarray) -> None:
    h, w = art.shape[:2]
    x0, y0, x1, y1 = _grow(box, _margin(box), w, h)
    art[y0:y1, x0:x1, :3] = np.round(paper).astype(np.uint8)


def _move_index(art: np.ndarray, box: Box, target: Box, paper: np.ndarray) -> None:
    """Cover the index with paper, then draw it again scaled into `target` (with its margin)."""
    h, w = art.shape[:2]
    m = _margin(box)
    src = _grow(box, m, w, h)
    patch = art[src[1] : src[3], src[0] : src[2], :3].copy()
    _erase(art, box, paper)
    sx = (target[2] - target[0]) / (box[2] - box[0])
    sy = (target[3] - target[1]) / (box[3] - box[1])
    # where the patch lands: the box's own pixels map onto `target` exactly
    dx0 = target[0] - (box[0] - src[0]) * sx
    dy0 = target[1] - (box[1] - src[1]) * sy
    dw = max(1, round(patch.shape[1] * sx))
    dh = max(1, round(patch.shape[0] * sy))
    interp = cv2.INTER_CUBIC if sx > 1 else cv2.INTER_AREA
    scaled = cv2.resize(patch, (dw, dh), interpolation=interp)
    px0, py0 = round(dx0), round(dy0)
    tm = max(2, round(m * sx))
    lo_x, lo_y = max(0, px0, target[0] - tm), max(0, py0, target[1] - tm)
    hi_x, hi_y = min(w, px0 + dw, target[2] + tm), min(h, py0 + dh, target[3] + tm)
    if hi_x <= lo_x or hi_y <= lo_y:
        return
    art[lo_y:hi_y, lo_x:hi_x, :3] = scaled[lo_y - py0 : hi_y - py0, lo_x - px0 : hi_x - px0]


def _scale_face(
    art: np.ndarray, boxes: tuple[IndexBox, ...], scale: float
) -> tuple[np.ndarray, tuple[IndexBox, ...]]:
    """The face art scaled about the card's centre inside the card's own outline, on paper:
    below 1 a wider white margin, above 1 almost none (limited so every index stays whole)."""
    h, w = art.shape[:2]
    scale = _face_scale_limit(boxes, scale, w, h)
    paper = _paper_near(art, boxes[0].box) if boxes else np.full(3, 250.0, np.float32)
    matrix = np.float32([[scale, 0, (1 - scale) * w / 2], [0, scale, (1 - scale) * h / 2]])
    alpha = art[:, :, 3:4].astype(np.float32) / 255
    premultiplied = art[:, :, :3].astype(np.float32) * alpha
    size = (w, h)
    colour = cv2.warpAffine(premultiplied, matrix, size, flags=cv2.INTER_AREA)
    cover = cv2.warpAffine(alpha[:, :, 0], matrix, size, flags=cv2.INTER_LINEAR)[:, :, None]
    rgb = colour + paper * (1 - cover)
    out = art.copy()
    out[:, :, :3] = np.clip(np.round(rgb), 0, 255).astype(np.uint8)
    return out, tuple(IndexBox(b.corner, _scaled_box(b.box, scale, w, h), b.redone) for b in boxes)


def _face_scale_limit(boxes: tuple[IndexBox, ...], scale: float, w: int, h: int) -> float:
    """`scale`, made small enough that every index stays whole on the card."""
    least = EDGE_MARGIN * w * 0.5
    for index in boxes:
        x0, y0, x1, y1 = index.box
        reach_x = max(w / 2 - x0, x1 - w / 2)
        reach_y = max(h / 2 - y0, y1 - h / 2)
        scale = min(scale, (w / 2 - least) / reach_x, (h / 2 - least) / reach_y)
    return float(scale)


def _scaled_box(box: Box, scale: float, w: int, h: int) -> Box:
    x0, y0, x1, y1 = box
    cx, cy = (1 - scale) * w / 2, (1 - scale) * h / 2
    return (
        int(np.floor(x0 * scale + cx)),
        int(np.floor(y0 * scale + cy)),
        int(np.ceil(x1 * scale + cx)),
        int(np.ceil(y1 * scale + cy)),
    )


# ---------------------------------------------------------------------------------------------
# another index font


@cache
def _font_file(name: str) -> Path:
    import matplotlib

    return Path(matplotlib.get_data_path()) / "fonts" / "ttf" / name


@cache
def _font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(_font_file(name)), size)


@lru_cache(maxsize=2048)
def index_glyph(
    card: Card, font: str, height: int, suit_font: str = SUIT_FONT, suit_weight: float = 0.0
) -> np.ndarray:
    """A corner index as a coverage mask (float 0-1) trimmed to its ink, about `height` px
    tall: the rank above the suit symbol (from `suit_font`, grown or thinned by `suit_weight`
    of its height), centred."""
    rank_px = max(6, round(0.55 * height))
    suit_px = max(5, round(0.38 * height))
    rank = _text_mask(card.rank.value, font, rank_px)
    suit = _weighted(_text_mask(card.suit.symbol, suit_font, suit_px), suit_weight)
    gap = max(1, round(0.07 * height))
    width = max(rank.shape[1], suit.shape[1])
    canvas = np.zeros((rank.shape[0] + gap + suit.shape[0], width), np.float32)
    x = (width - rank.shape[1]) // 2
    canvas[: rank.shape[0], x : x + rank.shape[1]] = rank
    x = (width - suit.shape[1]) // 2
    canvas[rank.shape[0] + gap :, x : x + suit.shape[1]] = suit
    canvas.setflags(write=False)  # shared by the cache
    return canvas


def _weighted(mask: np.ndarray, weight: float) -> np.ndarray:
    """`mask` with its ink grown (weight > 0: lobes swell and merge) or thinned (< 0) by
    `weight` of its height, trimmed to its ink again."""
    radius = round(abs(weight) * mask.shape[0])
    if radius == 0:
        return mask
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    padded = np.pad(mask, radius)
    changed = cv2.dilate(padded, kernel) if weight > 0 else cv2.erode(padded, kernel)
    rows, cols = np.nonzero(changed > 0.02)
    if rows.size == 0:
        return mask
    return changed[rows.min() : rows.max() + 1, cols.min() : cols.max() + 1]


def _text_mask(text: str, font: str, ink_height: int) -> np.ndarray:
    """`text` drawn so its ink is `ink_height` px tall, trimmed to its ink (coverage 0-1)."""
    probe = _trimmed(text, _font(font, 100))
    size = max(4, round(100 * ink_height / probe.shape[0]))
    if text == "10":  # real decks draw a 10 narrower: squeeze it
        mask = _trimmed(text, _font(font, size))
        return cv2.resize(mask, (max(2, round(mask.shape[1] * 0.75)), mask.shape[0]))
    return _trimmed(text, _font(font, size))


def _trimmed(text: str, font: ImageFont.FreeTypeFont) -> np.ndarray:
    _, _, right, bottom = font.getbbox(text)
    image = Image.new("L", (right + 4, bottom + 4), 0)
    ImageDraw.Draw(image).text((2, 2), text, fill=255, font=font)
    mask = np.asarray(image, np.float32) / 255
    rows, cols = np.nonzero(mask > 0.02)
    return mask[rows.min() : rows.max() + 1, cols.min() : cols.max() + 1]


def _fit_glyph(glyph: np.ndarray, w: int, h: int) -> np.ndarray:
    gh, gw = glyph.shape
    scale = min(1.0, MAX_INDEX_WIDTH * w / gw, MAX_INDEX_HEIGHT * h / gh)
    if scale >= 1.0:
        return glyph
    size = (max(2, round(gw * scale)), max(2, round(gh * scale)))
    return cv2.resize(glyph, size, interpolation=cv2.INTER_AREA)


def _ink_colour(card: Card) -> np.ndarray:
    return BLACK_INK if card.suit.is_black else RED_INK


def _turned(corner: Corner, upright_bottom: bool) -> bool:
    return corner in (Corner.BOTTOM_LEFT, Corner.BOTTOM_RIGHT) and not upright_bottom


def _paint(art: np.ndarray, glyph: np.ndarray, target: Box, ink: np.ndarray) -> None:
    x0, y0, x1, y1 = target
    region = art[y0:y1, x0:x1, :3].astype(np.float32)
    cover = glyph[: y1 - y0, : x1 - x0, None]
    art[y0:y1, x0:x1, :3] = np.round(region * (1 - cover) + ink * cover).astype(np.uint8)


# ---------------------------------------------------------------------------------------------
# a maker's mark


def mark_glyph(style: CardStyle, boxes: tuple[IndexBox, ...]) -> np.ndarray | None:
    """The card's mark as a coverage mask, turned to run along its edge; None without one."""
    if not style.mark or not boxes:
        return None
    index_height = float(np.median([_height(b.box) for b in boxes]))
    height = max(4, round(style.mark_height * index_height))
    glyph = _text_mask(style.mark, MARK_FONT, height)
    if style.mark_place != "bottom":
        glyph = np.ascontiguousarray(np.rot90(glyph))  # read upwards, along the edge
    return glyph


def mark_box(
    style: CardStyle, boxes: tuple[IndexBox, ...], glyph: np.ndarray, w: int, h: int
) -> Box | None:
    """Where the card's mark is printed; None where it would leave the card or touch an index
    (a four-index deck's bottom-left corner, a jumbo index)."""
    gh, gw = glyph.shape
    gap = max(round(EDGE_MARGIN * w), min(b.box[0] for b in boxes))  # as far in as the indices
    if style.mark_place == "bottom":
        x0, y0 = (w - gw) // 2, h - gap - gh
    elif style.mark_place == "left":
        x0, y0 = gap, (h - gh) // 2
    else:
        x0, y0 = gap, h - gap - gh
    box = (x0, y0, x0 + gw, y0 + gh)
    if x0 < 0 or y0 < 0 or box[2] > w or box[3] > h:
        return None
    if any(_touch(_grow(b.box, _margin(b.box), w, h), box) for b in boxes):
        return None
    return box


def _touch(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _print_mark(art: np.ndarray, style: CardStyle, boxes: tuple[IndexBox, ...]) -> None:
    glyph = mark_glyph(style, boxes)
    if glyph is None:
        return
    box = mark_box(style, boxes, glyph, art.shape[1], art.shape[0])
    if box is not None:
        _paint(art, glyph, box, BLACK_INK)


# ---------------------------------------------------------------------------------------------
# four colours


def _four_colour(art: np.ndarray, card: Card, boxes: tuple[IndexBox, ...]) -> np.ndarray:
    """Diamonds' red ink turned blue, clubs' black ink green, keeping each pixel's share of
    ink (the anti-aliasing). On court cards only the indices change (their art keeps its
    colours, as on real four-colour decks); on the others the whole face, inside its edge."""
    h, w = art.shape[:2]
    region = np.zeros((h, w), bool)
    if card.rank.is_face:
        for index in boxes:
            x0, y0, x1, y1 = _grow(index.box, _margin(index.box), w, h)
            region[y0:y1, x0:x1] = True
    else:
        edge = max(2, round(0.035 * w))
        region[edge:-edge, edge:-edge] = True
    out = art.copy()
    bgr = art[:, :, :3]
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    hue, sat, val = hsv[:, :, 0], hsv[:, :, 1].astype(np.int16), hsv[:, :, 2].astype(np.int16)
    if card.suit is Suit.DIAMONDS:
        red = ((hue <= 12) | (hue >= 168)) & (sat >= 40) & region
        hsv[:, :, 0] = np.where(red, BLUE_HUE, hue)
        out[:, :, :3] = np.where(red[:, :, None], cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR), bgr)
        return out
    paper = _paper_near(art, boxes[0].box) if boxes else np.full(3, 250.0, np.float32)
    paper_v = float(max(paper.max(), 1.0))
    grey = (sat < 70) & region
    share = np.clip(1 - val.astype(np.float32) / paper_v, 0, 1)
    # ink and its anti-aliased rim; not the paper's own soft shading, far from any ink
    core = (grey & (share > 0.35)).astype(np.uint8)
    rim = cv2.dilate(core, np.ones((5, 5), np.uint8)).astype(bool)
    black = grey & rim & (val < paper_v - 12)
    share = share[:, :, None]
    green = paper * (1 - share) + CLUB_GREEN * share
    out[:, :, :3] = np.where(black[:, :, None], np.round(green).astype(np.uint8), bgr)
    return out


# ---------------------------------------------------------------------------------------------
# a contact sheet of the styles


def style_sheet(
    arts: list[tuple[Card, np.ndarray, tuple[IndexBox, ...]]],
    seed: int = 0,
    upright_bottom: bool = False,
    card_height: int = 256,
) -> np.ndarray:
    """One row per style (plain first), one column per given card, index boxes drawn in green:
    to look at the styles (`python -m blackcat.workshop.synth.styles OUT.png [DECK]`)."""
    rows = []
    for name, draw in STYLES.items():
        style = draw(np.random.default_rng([seed, len(rows)]))
        tiles = []
        for card, art, boxes in arts:
            styled = style_card(style, art, card, boxes, upright_bottom)
            image = styled.art[:, :, :3].copy()
            image[styled.art[:, :, 3] < 128] = (90, 90, 90)
            for index in styled.boxes:
                x0, y0, x1, y1 = index.box
                cv2.rectangle(image, (x0 - 1, y0 - 1), (x1, y1), (40, 200, 40), 2)
            f = card_height / image.shape[0]
            tiles.append(cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA))
        row = np.hstack([cv2.copyMakeBorder(t, 4, 4, 4, 4, cv2.BORDER_CONSTANT) for t in tiles])
        label = np.zeros((24, row.shape[1], 3), np.uint8)
        cv2.putText(label, name, (6, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 1)
        rows.append(np.vstack([label, row]))
    return np.vstack(rows)


def main(argv: list[str] | None = None) -> int:
    import sys

    from blackcat.games.cards import card_from_code
    from blackcat.workshop.synth.cardart import render_deck
    from blackcat.workshop.synth.decks import deck_by_name
    from blackcat.workshop.synth.indices import deck_indices

    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0] if args else "styles.png")
    deck = deck_by_name(args[1] if len(args) > 1 else "anglo")
    rendered, found = render_deck(deck), deck_indices(deck)
    arts = []
    for code in ("10D", "5C", "QD", "KC", "7H", "AS"):
        card = card_from_code(code)
        art = cv2.imread(str(rendered.card_path(card)), cv2.IMREAD_UNCHANGED)
        boxes = tuple(b for b in found[card].boxes if b.corner in deck.corners)
        arts.append((card, art, boxes))
    cv2.imwrite(str(out), style_sheet(arts, upright_bottom=deck.upright_bottom_index))
    print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
