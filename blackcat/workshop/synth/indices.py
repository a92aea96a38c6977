"""Find the corner indices (rank glyph + suit pip) of every rendered card, and draw contact sheets.

For each corner that carries an index, the card is turned so that corner is at the top left, and:
1. ink = pixels far from the paper colour (the median colour of the corner region);
2. ink present on most cards of the deck (borders, frames, ornaments) is dropped;
3. the rank glyph is the sizeable component nearest the corner, joined with its neighbours on the
   same line (the "1" and "0" of a 10), then the suit pip just below it;
4. per deck, boxes far from the deck's usual index are redone inside the usual box (and counted).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from blackcat.games.cards import ALL_CARDS, Card, card_from_code
from blackcat.workshop.synth.cardart import CARD_HEIGHT, RenderedDeck, cache_root, render_deck
from blackcat.workshop.synth.decks import Corner, DeckSpec

INDEX_VERSION = 1
REGION_W, REGION_H = 0.36, 0.5  # corner region, as fractions of the card
INK_DISTANCE = 60  # per-channel difference from the paper colour that counts as ink
CONSTANT_INK = 0.8  # same-coloured ink on this share of a deck's cards is decoration
GLYPH_MAX = 0.2  # a rank glyph is at most this share of the card height (DeckSpec.glyph_max)

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (x1, y1 exclusive), card pixels


@dataclass(frozen=True)
class IndexBox:
    corner: Corner
    box: Box
    redone: bool = False  # True: the first finding was an outlier and was redone in the usual box


@dataclass(frozen=True)
class CardIndices:
    card: Card
    width: int
    height: int
    boxes: tuple[IndexBox, ...]

    def box(self, corner: Corner) -> IndexBox | None:
        return next((b for b in self.boxes if b.corner is corner), None)


class IndexFindingError(RuntimeError):
    pass


# ---------------------------------------------------------------------------------------------
# orientation: every corner is handled as if it were the top-left one


def _to_top_left(image: np.ndarray, corner: Corner) -> np.ndarray:
    if corner is Corner.TOP_LEFT:
        return image
    if corner is Corner.BOTTOM_RIGHT:
        return image[::-1, ::-1]
    if corner is Corner.TOP_RIGHT:
        return image[:, ::-1]
    return image[::-1, :]


def _box_from_top_left(box: Box, corner: Corner, width: int, height: int) -> Box:
    x0, y0, x1, y1 = box
    if corner in (Corner.BOTTOM_RIGHT, Corner.TOP_RIGHT):
        x0, x1 = width - x1, width - x0
    if corner in (Corner.BOTTOM_RIGHT, Corner.BOTTOM_LEFT):
        y0, y1 = height - y1, height - y0
    return (x0, y0, x1, y1)


# ---------------------------------------------------------------------------------------------
# ink


def corner_region(card: np.ndarray, corner: Corner) -> np.ndarray:
    """The BGRA corner region, turned so the corner is at the top left."""
    turned = _to_top_left(card, corner)
    h, w = turned.shape[:2]
    return np.ascontiguousarray(turned[: round(h * REGION_H), : round(w * REGION_W)])


def corner_ink(card: np.ndarray, corner: Corner) -> np.ndarray:
    """Boolean ink mask of the corner region, turned so the corner is at the top left."""
    region = corner_region(card, corner)
    opaque = region[:, :, 3] > 200
    colours = region[:, :, :3].astype(np.int16)
    paper = np.median(colours[opaque], axis=0) if opaque.any() else np.full(3, 255)
    distance = np.abs(colours - paper.astype(np.int16)).max(axis=2)
    ink = (distance > INK_DISTANCE) & opaque
    return ink & ~_long_lines(ink, card.shape[0])


def _long_lines(ink: np.ndarray, card_height: int) -> np.ndarray:
    """Straight lines longer than any glyph (frames of the face pictures, borders)."""
    length = max(9, round(0.14 * card_height))
    mask = ink.astype(np.uint8)
    lines = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((1, length), np.uint8))
    lines |= cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8))
    # only thin lines: solid shapes (big pips) have long runs too, but survive a square opening
    lines &= 1 - cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    return cv2.dilate(lines, np.ones((3, 3), np.uint8)).astype(bool)


def _components(mask: np.ndarray) -> list[Box]:
    closed = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=8)
    boxes = []
    for i in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area >= 6:
            boxes.append((x, y, x + w, y + h))
    return boxes


def _union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _gap(a: Box, b: Box) -> tuple[int, int]:
    """Horizontal and vertical gaps between two boxes (0 where they overlap)."""
    gx = max(0, max(a[0], b[0]) - min(a[2], b[2]))
    gy = max(0, max(a[1], b[1]) - min(a[3], b[3]))
    return gx, gy


def _overlap(a0: int, a1: int, b0: int, b1: int) -> int:
    return max(0, min(a1, b1) - max(a0, b0))


def find_index(ink: np.ndarray, card_height: int, glyph_max: float = GLYPH_MAX) -> Box | None:
    """The index box in a top-left corner ink mask: rank glyph(s), then the suit pip below."""
    comps = _components(ink)
    min_h, max_size = 0.025 * card_height, glyph_max * card_height
    seeds = [c for c in comps if min_h <= c[3] - c[1] <= max_size and c[2] - c[0] <= max_size]
    if not seeds:
        return None
    rank = min(seeds, key=lambda c: np.hypot(c[0], c[1]))
    rank_h = rank[3] - rank[1]
    # Same line: the other glyphs of the rank ("10"), close beside it.
    changed = True
    while changed:
        changed = False
        for c in comps:
            if c == rank or _union(rank, c) == rank:
                continue
            gx, gy = _gap(rank, c)
            same_line = _overlap(rank[1], rank[3], c[1], c[3]) >= 0.5 * min(c[3] - c[1], rank_h)
            alike = 0.6 * rank_h <= (c[3] - c[1]) <= 1.3 * rank_h
            level = abs(c[1] - rank[1]) <= 0.25 * rank_h
            if same_line and alike and level and gy == 0 and gx <= 0.35 * rank_h:
                rank, changed = _union(rank, c), True
    rank_w = max(rank[2] - rank[0], round(0.6 * rank_h))  # a J or 1 is narrow; its pip is not
    # The suit pip: below, overlapping the rank's columns, not much larger than the rank.
    below = []
    for c in comps:
        gx, gy = _gap(rank, c)
        w, h = c[2] - c[0], c[3] - c[1]
        if c[1] < rank[3] - 0.2 * rank_h or gx > 0:
            continue
        if (
            gy <= 0.6 * rank_h
            and w <= 2.2 * rank_w + 4
            and h <= 1.5 * rank_h
            and h >= 0.25 * rank_h
        ):
            below.append(c)
    index = rank
    if below:
        pip = min(below, key=lambda c: c[1])
        # parts of the pip (a club's stem) sit in the same band
        for c in below:
            if c[1] < pip[3] and _overlap(c[0], c[2], pip[0], pip[2]) > 0:
                pip = _union(pip, c)
        index = _union(index, pip)
    # specks inside or touching the box (accents, broken strokes)
    for c in comps:
        gx, gy = _gap(index, c)
        if gx <= 1 and gy <= 1 and (c[2] - c[0]) <= rank_w and (c[3] - c[1]) <= 0.5 * rank_h:
            index = _union(index, c)
    return index


def _inside_box(ink: np.ndarray, usual: Box, pad: float) -> Box | None:
    """Redo an index in the deck's usual box: the components lying mostly inside it."""
    x0, y0, x1, y1 = usual
    px, py = round((x1 - x0) * pad), round((y1 - y0) * pad)
    padded = (max(0, x0 - px), max(0, y0 - py), x1 + px, y1 + py)
    found: Box | None = None
    for c in _components(ink):
        inner = (
            max(c[0], padded[0]),
            max(c[1], padded[1]),
            min(c[2], padded[2]),
            min(c[3], padded[3]),
        )
        if inner[2] <= inner[0] or inner[3] <= inner[1]:
            continue
        inside = (inner[2] - inner[0]) * (inner[3] - inner[1])
        if inside >= 0.6 * (c[2] - c[0]) * (c[3] - c[1]):
            found = inner if found is None else _union(found, inner)
    if found is None or (found[3] - found[1]) < 0.7 * (y1 - y0):
        # the index touches the picture: take the ink inside the usual box itself
        found = _ink_extent(ink, (max(0, x0 - 2), max(0, y0 - 2), x1 + 2, y1 + 2))
    return found


def _ink_extent(ink: np.ndarray, box: Box) -> Box | None:
    x0, y0, x1, y1 = box
    ys, xs = np.nonzero(ink[y0:y1, x0:x1])
    if len(xs) == 0:
        return None
    return (x0 + int(xs.min()), y0 + int(ys.min()), x0 + int(xs.max()) + 1, y0 + int(ys.max()) + 1)


def _is_outlier(box: Box, usual: Box) -> bool:
    uw, uh = usual[2] - usual[0], usual[3] - usual[1]
    return (
        abs(box[0] - usual[0]) > 0.5 * uw
        or abs(box[1] - usual[1]) > 0.3 * uh
        or abs(box[3] - usual[3]) > 0.3 * uh
        or box[2] > usual[2] + 0.6 * uw
        or box[2] < usual[0] + 0.4 * uw
    )


# ---------------------------------------------------------------------------------------------
# per deck


def find_deck_indices(
    cards: dict[Card, np.ndarray], corners: tuple[Corner, ...], glyph_max: float = GLYPH_MAX
) -> list[CardIndices]:
    """Index boxes of all cards of one deck (BGRA images of equal height)."""
    found: dict[Card, list[IndexBox]] = {card: [] for card in cards}
    for corner in corners:
        inks = {card: corner_ink(image, corner) for card, image in cards.items()}
        inks = _drop_decoration(inks, {c: corner_region(i, corner) for c, i in cards.items()})
        boxes = {card: find_index(ink, CARD_HEIGHT, glyph_max) for card, ink in inks.items()}
        usual = _usual_box([b for b in boxes.values() if b is not None])
        for card, box in boxes.items():
            redone = box is None or (usual is not None and _is_outlier(box, usual))
            if redone and usual is not None:
                box = _inside_box(inks[card], usual, pad=0.2)
            if box is None:
                raise IndexFindingError(f"no index found in the {corner.value} corner of {card}")
            h, w = cards[card].shape[:2]
            found[card].append(IndexBox(corner, _box_from_top_left(box, corner, w, h), redone))
    return [
        CardIndices(card, image.shape[1], image.shape[0], tuple(found[card]))
        for card, image in cards.items()
    ]


def _drop_decoration(
    inks: dict[Card, np.ndarray], regions: dict[Card, np.ndarray]
) -> dict[Card, np.ndarray]:
    """Drop ink that nearly every card has in the same colour, red and black suits alike.

    (The index pip is ink on every card too, but red on some and black on others.)
    """
    h = min(m.shape[0] for m in inks.values())
    w = min(m.shape[1] for m in inks.values())
    share, colour = {}, {}
    for red in (False, True):
        group = [card for card in inks if card.is_red == red]
        share[red] = np.mean([inks[card][:h, :w] for card in group], axis=0)
        colour[red] = np.median([regions[card][:h, :w, :3] for card in group], axis=0)
    same_colour = np.abs(colour[True] - colour[False]).max(axis=2) < 40
    decoration = np.zeros(
        (max(m.shape[0] for m in inks.values()), max(m.shape[1] for m in inks.values())), np.uint8
    )
    decoration[:h, :w] = (share[False] > CONSTANT_INK) & (share[True] > CONSTANT_INK) & same_colour
    # renders differ by a pixel or so in width and anti-aliasing: widen the decoration a little
    wide = cv2.dilate(decoration, np.ones((5, 5), np.uint8)).astype(bool)
    return {card: m & ~wide[: m.shape[0], : m.shape[1]] for card, m in inks.items()}


def _usual_box(boxes: list[Box]) -> Box | None:
    if not boxes:
        return None
    arr = np.array(boxes)
    return tuple(int(v) for v in np.median(arr, axis=0))  # type: ignore[return-value]


# ---------------------------------------------------------------------------------------------
# cache


def deck_indices(deck: DeckSpec, cache: Path | None = None) -> dict[Card, CardIndices]:
    """Render the deck if needed and find its index boxes, cached as JSON beside the cards."""
    rendered = render_deck(deck, cache)
    path = rendered.folder / "indices.json"
    if path.exists():
        data = json.loads(path.read_text())
        if data.get("version") == INDEX_VERSION:
            return _from_json(data)
    cards = {card: load_card(rendered, card) for card in ALL_CARDS}
    found = find_deck_indices(cards, deck.corners, deck.glyph_max)
    # whole or not at all: another process may be reading it
    written = path.with_name(f"{path.name}.{os.getpid()}")
    written.write_text(json.dumps(_to_json(found), indent=1))
    written.replace(path)
    return {ci.card: ci for ci in found}


def load_card(rendered: RenderedDeck, card: Card) -> np.ndarray:
    image = cv2.imread(str(rendered.card_path(card)), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise IndexFindingError(f"cannot read {rendered.card_path(card)}")
    return image


def _to_json(found: list[CardIndices]) -> dict:
    return {
        "version": INDEX_VERSION,
        "cards": {
            ci.card.code: {
                "size": [ci.width, ci.height],
                "indices": [
                    {"corner": b.corner.value, "box": list(b.box), "redone": b.redone}
                    for b in ci.boxes
                ],
            }
            for ci in found
        },
    }


def _from_json(data: dict) -> dict[Card, CardIndices]:
    result = {}
    for code, entry in data["cards"].items():
        card = card_from_code(code)
        boxes = tuple(
            IndexBox(Corner(b["corner"]), tuple(b["box"]), b["redone"])  # type: ignore[arg-type]
            for b in entry["indices"]
        )
        result[card] = CardIndices(card, entry["size"][0], entry["size"][1], boxes)
    return result


# ---------------------------------------------------------------------------------------------
# contact sheets


def contact_sheet(deck: DeckSpec, cache: Path | None = None, out: Path | None = None) -> Path:
    """A PNG of all 52 faces with their index boxes (green; orange where redone), and below it
    every corner region enlarged, so that each box can be checked by eye."""
    cache = cache or cache_root()
    rendered = render_deck(deck, cache)
    indices = deck_indices(deck, cache)
    cards, corners = [], []
    for card in ALL_CARDS:
        bgr = _over_white(load_card(rendered, card))
        for ib in indices[card].boxes:
            colour = (0, 140, 255) if ib.redone else (0, 200, 0)
            x0, y0, x1, y1 = ib.box
            cv2.rectangle(bgr, (x0 - 1, y0 - 1), (x1, y1), colour, 2)
        cards.append(_tile(cv2.resize(bgr, None, fx=0.2, fy=0.2, interpolation=cv2.INTER_AREA)))
        for corner in deck.corners:
            region = corner_region(np.dstack([bgr, np.full(bgr.shape[:2], 255, np.uint8)]), corner)
            corners.append(
                _tile(
                    cv2.resize(region[:, :, :3], None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
                )
            )
    per_row = 13 * len(deck.corners) // 2
    top = _grid(cards, 13)
    bottom = _grid(corners, per_row)
    width = max(top.shape[1], bottom.shape[1])
    sheet = np.vstack([_pad_width(top, width), _pad_width(bottom, width)])
    out = out or cache / "contact"
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{deck.name}.png"
    cv2.imwrite(str(path), sheet)
    return path


def _tile(image: np.ndarray) -> np.ndarray:
    return cv2.copyMakeBorder(image, 2, 2, 2, 2, cv2.BORDER_CONSTANT, value=(90, 90, 90))


def _grid(tiles: list[np.ndarray], per_row: int) -> np.ndarray:
    th = max(t.shape[0] for t in tiles)
    tw = max(t.shape[1] for t in tiles)
    tiles = [cv2.resize(t, (tw, th)) for t in tiles]
    blank = np.full_like(tiles[0], 60)
    while len(tiles) % per_row:
        tiles.append(blank)
    return np.vstack([np.hstack(tiles[i : i + per_row]) for i in range(0, len(tiles), per_row)])


def _pad_width(image: np.ndarray, width: int) -> np.ndarray:
    return cv2.copyMakeBorder(
        image, 0, 0, 0, width - image.shape[1], cv2.BORDER_CONSTANT, value=(60, 60, 60)
    )


def _over_white(image: np.ndarray) -> np.ndarray:
    alpha = image[:, :, 3:4].astype(np.float32) / 255
    return (image[:, :, :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
