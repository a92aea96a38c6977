"""One synthetic scene, from its own random generator: the deck, the layout, the camera, the
table, the light; the picture, its index boxes, its close-up crops and its ground truth.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from blackcat.games.cards import ALL_CARDS, Card, parse_card
from blackcat.vision.classes import NOT_AN_INDEX, QUARTER_TURNS, class_name, orientation_of
from blackcat.workshop.synth.cardart import RenderedDeck, render_deck
from blackcat.workshop.synth.decks import TWO_CORNERS, Corner, DeckSpec, Split, deck_by_name
from blackcat.workshop.synth.indices import CardIndices, IndexBox, deck_indices
from blackcat.workshop.synth.layout import (
    DEFAULT_LAYOUT_WEIGHTS,
    Camera,
    CardArtSize,
    Layout,
    LayoutKind,
    PlacedCard,
    apply,
    camera_for,
    card_to_plane,
    columns_layout,
    fan_layout,
    rotation,
    rows_layout,
    scaling,
    singles_layout,
    translation,
)
from blackcat.workshop.synth.realism import (
    NEUTRAL,
    Realism,
    apply_light_faults,
    apply_sensor_faults,
    draw_fingers,
    random_realism,
    realism_rng,
    seen_closer,
    squeeze_matrix,
)
from blackcat.workshop.synth.render import (
    CardSprite,
    Light,
    Scene,
    Sensor,
    Shadow,
    draw,
    encode_jpeg,
    expose,
    make_pyramid,
    mild_light,
    mild_sensor,
    mild_shadow,
    random_light,
    random_sensor,
    random_shadow,
)
from blackcat.workshop.synth.styles import (
    DEFAULT_STYLE_WEIGHTS,
    CardStyle,
    draw_style,
    style_card,
    styled_boxes,
)
from blackcat.workshop.synth.textures import PHOTO_SURFACES, table_surface

Rng = np.random.Generator
META_VERSION = 1
PLAIN_STYLE = CardStyle()
PHOTO_SURFACE_NAMES = ("wood", "felt", "cloth", "cork")
"""The tables of photo-like scenes (textures.PHOTO_SURFACES)."""


@dataclass(frozen=True)
class SynthConfig:
    imgsz: int = 640  # long side of the scene image
    val_fraction: float = 0.15  # share of scenes drawn with held-out decks only
    min_visibility: float = 0.6  # an index at least this visible gets a box
    crop_size: int = 80  # side of the square classification crops
    background_crops: int = 2  # "not an index" crops a scene: pips, face art, backs, table
    four_corner_share: float = 0.3  # two-index decks drawn with indices in all four corners
    crops: bool = True
    realism: bool = True  # camera faults of real pictures (realism.py) in training scenes
    style_weights: tuple[tuple[str, float], ...] = DEFAULT_STYLE_WEIGHTS  # styles.STYLES
    table_share: float = 0.0  # scenes drawn as a whole table (table.py) instead
    column_share: float = 0.0  # one player's rows laid as columns instead (each card lower down)
    layout_weights: tuple[tuple[LayoutKind, float], ...] = DEFAULT_LAYOUT_WEIGHTS
    tilted_crops: float = 0.0  # share of index crops turned by up to CROP_TILT either way


def scene_rng(seed: int, index: int) -> Rng:
    """The generator of one scene: depends on (seed, index) only, not on the worker."""
    return np.random.default_rng([seed, index])


def style_rng(seed: int, index: int) -> Rng:
    """The generator of one scene's card style."""
    return np.random.default_rng([seed, index, 1])


# ---------------------------------------------------------------------------------------------
# card art, per process


class ArtLibrary:
    """Decks, their index boxes, and a small cache of card pyramids (per process)."""

    def __init__(self, decks: tuple[DeckSpec, ...], cache: Path | None = None, keep: int = 160):
        self.decks = decks
        self.cache = cache
        self.rendered: dict[str, RenderedDeck] = {d.name: render_deck(d, cache) for d in decks}
        self.indices: dict[str, dict[Card, CardIndices]] = {
            d.name: deck_indices(d, cache) for d in decks
        }
        self._pyramids: OrderedDict[tuple, tuple[np.ndarray, ...]] = OrderedDict()
        self._boxes: dict[tuple, tuple[IndexBox, ...]] = {}
        self._sizes: dict[tuple, CardArtSize] = {}
        self._keep = keep

    def decks_in(self, split: Split) -> tuple[DeckSpec, ...]:
        return tuple(d for d in self.decks if d.split is split)

    def size(self, deck: DeckSpec, style: CardStyle = PLAIN_STYLE) -> CardArtSize:
        key = (deck.name, style)
        if key in self._sizes:
            return self._sizes[key]
        cards = self.indices[deck.name]
        first = cards[ALL_CARDS[0]]
        strip = max(
            b.box[2] / c.width
            for c in cards.values()
            for b in styled_boxes(
                style, c.card, c.boxes, c.width, c.height, deck.upright_bottom_index
            )
            if b.corner is Corner.TOP_LEFT
        )
        size = CardArtSize(first.width, first.height, float(strip))
        if len(self._sizes) > self._keep:
            self._sizes.clear()
        self._sizes[key] = size
        return size

    def pyramid(
        self,
        deck: DeckSpec,
        card: Card | None,
        four: bool = False,
        style: CardStyle = PLAIN_STYLE,
    ) -> tuple[np.ndarray, ...]:
        """The card's art pyramid; `four`: with the indices copied into the empty corners;
        `style`: drawn in that style (styles.py)."""
        key = (deck.name, card.code if card else "back", four, style)
        if key in self._pyramids:
            self._pyramids.move_to_end(key)
            return self._pyramids[key]
        rendered = self.rendered[deck.name]
        path = rendered.card_path(card) if card else rendered.back_path
        art = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
        if art is None:
            raise FileNotFoundError(f"card art missing: {path}")
        if card is not None:
            art = self._styled(deck, card, four, style, art)[0]
        pyramid = make_pyramid(art)
        self._pyramids[key] = pyramid
        if len(self._pyramids) > self._keep:
            self._pyramids.popitem(last=False)
        return pyramid

    def boxes(
        self, deck: DeckSpec, card: Card, four: bool = False, style: CardStyle = PLAIN_STYLE
    ) -> tuple[IndexBox, ...]:
        key = (deck.name, card.code, four, style)
        if key not in self._boxes:
            path = self.rendered[deck.name].card_path(card)
            art = (
                cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
                if four or style != PLAIN_STYLE
                else None
            )
            self._styled(deck, card, four, style, art)
        return self._boxes[key]

    def _styled(
        self,
        deck: DeckSpec,
        card: Card,
        four: bool,
        style: CardStyle,
        art: np.ndarray | None,
    ) -> tuple[np.ndarray | None, tuple[IndexBox, ...]]:
        """The card's art (when given) and index boxes: in four corners, then styled; the
        boxes are remembered."""
        found = self.indices[deck.name][card]
        if four and art is not None:
            art, boxes = four_corner_art(art, found)
        else:
            boxes = tuple(b for b in found.boxes if b.corner in deck.corners)
        if art is not None:
            styled = style_card(style, art, card, boxes, deck.upright_bottom_index)
            art, boxes = styled.art, styled.boxes
        if len(self._boxes) > 50 * self._keep:
            self._boxes.clear()
        self._boxes[(deck.name, card.code, four, style)] = boxes
        return art, boxes


def four_corner_art(art: np.ndarray, found: CardIndices) -> tuple[np.ndarray, tuple[IndexBox, ...]]:
    """Many real decks print the index in all four corners: copy the top-left index to the
    top-right and the bottom-right one to the bottom-left, where that corner is plain paper."""
    out = art.copy()
    boxes = list(found.boxes)
    h, w = art.shape[:2]
    paper = np.median(art[h // 3 : 2 * h // 3 : 4, w // 3 : 2 * w // 3 : 4, :3].reshape(-1, 3), 0)
    for source, target in ((Corner.TOP_LEFT, Corner.TOP_RIGHT),
                           (Corner.BOTTOM_RIGHT, Corner.BOTTOM_LEFT)):  # fmt: skip
        box = found.box(source)
        if box is None or found.box(target) is not None:
            continue
        x0, y0, x1, y1 = box.box
        m = max(2, round(0.08 * (x1 - x0)))
        sx0, sy0, sx1, sy1 = max(0, x0 - m), max(0, y0 - m), min(w, x1 + m), min(h, y1 + m)
        tx0, tx1 = w - sx1, w - sx0
        area = art[sy0:sy1, tx0:tx1, :3].astype(np.int16)
        if area.size == 0 or np.abs(area - paper).max(axis=2).mean() > 6:
            continue  # something is printed there already
        out[sy0:sy1, tx0:tx1] = art[sy0:sy1, sx0:sx1]
        boxes.append(IndexBox(target, (w - x1, y0, w - x0, y1)))
    return out, tuple(boxes)


# ---------------------------------------------------------------------------------------------
# results


@dataclass(frozen=True)
class IndexLabel:
    corner: Corner
    quad: np.ndarray  # 4 x 2 scene pixels
    box: tuple[float, float, float, float]  # axis-aligned, clipped to the image
    visibility: float
    labelled: bool


@dataclass(frozen=True)
class CardLabel:
    card: Card
    row: int
    position: int
    z: int
    quad: np.ndarray
    indices: tuple[IndexLabel, ...]


@dataclass(frozen=True)
class Crop:
    card: Card | None  # None: not an index (a pip, face art, a back, the table)
    corner: Corner | None
    orientation: int | None  # quarter turns of the glyph in the crop (classes.orientation_of)
    jpeg: bytes

    @property
    def class_name(self) -> str:
        if self.card is None or self.orientation is None:
            return NOT_AN_INDEX
        return class_name(self.card, self.orientation)


@dataclass(frozen=True)
class SceneResult:
    index: int
    split: Split
    jpeg: bytes
    width: int
    height: int
    labels: tuple[CardLabel, ...]
    crops: tuple[Crop, ...]
    meta: dict = field(default_factory=dict)

    def boxes(self) -> list[tuple[float, float, float, float]]:
        return [i.box for c in self.labels for i in c.indices if i.labelled]


# ---------------------------------------------------------------------------------------------
# making a scene


@dataclass(frozen=True)
class Look:
    """How a scene's light, drop shadows and camera sensor are drawn from its generator."""

    light: Callable[[Rng, int, int], Light] = random_light
    shadow: Callable[[Rng], Shadow] = random_shadow
    sensor: Callable[[Rng], Sensor] = random_sensor
    jpeg_quality: tuple[int, int] = (40, 96)  # drawn from lo <= q < hi


TRAINING_LOOK = Look()
PHOTO_LOOK = Look(mild_light, mild_shadow, mild_sensor, (85, 86))
"""Moderate effects for example photos: even light, soft shadows, a little blur and noise."""
HARD_PHOTO_LOOK = Look(random_light, random_shadow, mild_sensor, (85, 86))
"""A harder photo: uneven light, and in some a shadow edge or a glare spot."""


def make_scene(seed: int, index: int, config: SynthConfig, library: ArtLibrary) -> SceneResult:
    rng = scene_rng(seed, index)
    split = Split.VAL if rng.random() < config.val_fraction else Split.TRAIN
    deck = _choose_deck(rng, library.decks_in(split))
    # its own generator, so a scene's other draws do not depend on the styles
    style = draw_style(style_rng(seed, index), config.style_weights, split is Split.TRAIN)
    size = library.size(deck, style)
    layout = _make_layout(rng, config, size)
    if layout.kind is LayoutKind.ROWS and config.column_share > 0:
        layout = _maybe_columns(column_rng(seed, index), layout, config, library, deck, style)
    backs = _backs(rng, layout, size)
    camera = camera_for(rng, _plane_points(layout, backs, size), config.imgsz)
    realism = random_realism(realism_rng(seed, index)) if config.realism else NEUTRAL
    camera = squeezed(camera, realism)
    surface = table_surface(rng, camera.height, camera.width)
    four = deck.corners == TWO_CORNERS and rng.random() < config.four_corner_share
    return _render(
        rng,
        (seed, index, split),
        deck,
        layout,
        backs,
        camera,
        surface,
        four,
        config,
        library,
        style=style,
        realism=realism,
    )


def squeezed(camera: Camera, realism: Realism) -> Camera:
    """The camera's frame squeezed as `realism` says (a wide frame resized to a square)."""
    if realism.squeeze == (1.0, 1.0):
        return camera
    sx, sy = realism.squeeze
    return replace(
        camera,
        plane_to_image=squeeze_matrix(realism) @ camera.plane_to_image,
        width=max(round(camera.width * sx), 32),
        height=max(round(camera.height * sy), 32),
    )


def render_piles(
    piles: Sequence[Sequence[Card | str]],
    *,
    deck: str | DeckSpec,
    imgsz: int,
    seed: int,
    tilt_degrees: float | None = None,
    surface: str | None = None,
    jpeg_quality: int = 85,
    library: ArtLibrary | None = None,
    style: CardStyle = PLAIN_STYLE,
    hard: bool = False,
    fill: tuple[float, float] | None = None,
    realism: Realism = NEUTRAL,
    rows_apart: float | None = None,
    row_turns: Sequence[float] = (),
) -> SceneResult:
    """One photo-like scene of the given piles (rows, left to right, each card on top of the one
    before, laid as `blackcat synth` lays rows), with the given deck, on a table.

    The rest is drawn from `seed` (the same arguments give the same bytes), gently: the camera
    pitched 3-18 degrees and tilted by `tilt_degrees` (random within +-8 when None); a 4:3
    picture, the cards filling 75-88% of it near its middle (none out of the frame); no
    face-down cards, no clutter; PHOTO_LOOK's light, shadows and sensor. `surface` is one of
    textures.PHOTO_SURFACES (wood, felt, cloth or cork when None; wood as planks). The result
    has no crops; its `meta` is the ground truth as `blackcat synth` writes it (index 0, the
    deck's split). `style`: the cards drawn in that style (styles.py). `hard`: a photo taken
    less carefully: offsets uneven by up to 35%, the camera pitched 10-35 degrees (keystone),
    the piles filling 45-85% of the picture, uneven light with shadow edges and glare spots.
    `fill`: the range of the share of the picture the piles fill, instead of those. `realism`:
    the camera's faults (realism.py; a squeezed frame is narrower than `imgsz`). `rows_apart`:
    each row this many card heights below the one before, and `row_turns`: each row turned
    this many degrees more (`layout.rows_layout`)."""
    rows = [[c if isinstance(c, Card) else parse_card(c) for c in pile] for pile in piles]
    if not rows or any(not row for row in rows):
        raise ValueError("give at least one pile, and at least one card in every pile")
    codes = [card.code for row in rows for card in row]
    doubles = sorted({code for code in codes if codes.count(code) > 1})
    if doubles:
        raise ValueError(f"a deck has one of each card; given more than once: {' '.join(doubles)}")
    if imgsz < 64:
        raise ValueError("imgsz must be at least 64")
    spec = deck_by_name(deck) if isinstance(deck, str) else deck
    if library is None or spec.name not in library.rendered:
        library = ArtLibrary((spec,), library.cache if library else None)
    if fill is None:
        fill = (0.45, 0.85) if hard else (0.75, 0.88)
    if not 0 < fill[0] <= fill[1] <= 1:
        raise ValueError("fill must be a range within (0, 1]")
    rng = scene_rng(seed, 0)
    size = library.size(spec, style)
    layout = rows_layout(
        rng, rows, size, uneven=0.35 if hard else 0.1, rows_apart=rows_apart, row_turns=row_turns
    )
    if tilt_degrees is None:
        tilt_degrees = float(rng.uniform(-8, 8))
    camera = camera_for(
        rng,
        _plane_points(layout, [], size),
        imgsz,
        tilt=tilt_degrees,
        pitch=float(rng.uniform(10, 35) if hard else rng.uniform(3, 18)),
        ratio=4 / 3,
        fill=float(rng.uniform(*fill)),
        slack=0.3,
    )
    camera = squeezed(camera, realism)
    if surface is None:
        surface = str(rng.choice(PHOTO_SURFACE_NAMES))
    table = table_surface(rng, camera.height, camera.width, surface, False, PHOTO_SURFACES)
    config = SynthConfig(imgsz=imgsz, crops=False)
    look = replace(
        HARD_PHOTO_LOOK if hard else PHOTO_LOOK, jpeg_quality=(jpeg_quality, jpeg_quality + 1)
    )
    return _render(
        rng,
        (seed, 0, spec.split),
        spec,
        layout,
        [],
        camera,
        table,
        False,
        config,
        library,
        look,
        style,
        realism,
    )


def _render(
    rng: Rng,
    name: tuple[int, int, Split],
    deck: DeckSpec,
    layout: Layout,
    backs: list[np.ndarray],
    camera: Camera,
    surface: tuple[str, np.ndarray],
    four: bool,
    config: SynthConfig,
    library: ArtLibrary,
    look: Look = TRAINING_LOOK,
    style: CardStyle = PLAIN_STYLE,
    realism: Realism = NEUTRAL,
) -> SceneResult:
    """Draw a laid-out scene through its camera over its table (`surface`: name and picture),
    then its labels, crops and ground truth; `name` is (seed, index, split). `realism`: the
    camera's faults, drawn from their own generator."""
    seed, index, split = name
    w, h = camera.width, camera.height
    sprites = [
        CardSprite(library.pyramid(deck, None), camera.plane_to_image @ m) for m in backs
    ] + [
        CardSprite(library.pyramid(deck, p.card, four, style), camera.plane_to_image @ p.to_plane)
        for p in layout.cards
    ]
    scene = Scene(w, h, surface[1], tuple(sprites), look.light(rng, w, h), look.shadow(rng))
    drawn = draw(scene, np.eye(3), w, h)
    photo = expose(apply_light_faults(drawn.image, realism), look.sensor(rng), rng)
    boxes = {p.card: library.boxes(deck, p.card, four, style) for p in layout.cards}
    labels = _labels(layout, len(backs), sprites, drawn.top, boxes, config.min_visibility)
    faults_rng = np.random.default_rng([seed, index, 3])
    if not realism.is_neutral:
        photo = apply_sensor_faults(photo, realism, faults_rng)
        indices = [i.quad for label in labels for i in label.indices if i.labelled]
        cards = [label.quad for label in labels]
        photo = draw_fingers(photo, realism.fingers, indices, cards, faults_rng)
    jpeg = encode_jpeg(photo, int(rng.integers(*look.jpeg_quality)))
    crops = _crops(rng, scene, labels, deck, config, realism, faults_rng) if config.crops else ()
    meta = _meta(seed, index, split, deck, layout, surface[0], camera, labels, len(backs))
    meta["four_corner_variant"] = bool(four)
    meta["style"] = style.name
    meta["style_parameters"] = style_parameters(style)
    if not realism.is_neutral:
        meta["realism"] = realism_parameters(realism)
    return SceneResult(index, split, jpeg, w, h, labels, crops, meta)


def realism_parameters(realism: Realism) -> dict[str, object]:
    """The camera faults a scene has (the fields that differ from none), for the metadata."""
    return {
        name: list(value) if isinstance(value, tuple) else value
        for name, value in vars(realism).items()
        if value != getattr(NEUTRAL, name)
    }


def style_parameters(style: CardStyle) -> dict[str, float | str | bool]:
    """What a style changes (its fields that differ from plain), for the metadata."""
    plain = CardStyle(style.name)
    return {
        name: value
        for name, value in vars(style).items()
        if name != "name" and value != getattr(plain, name)
    }


def layout_labels(
    library: ArtLibrary,
    deck: DeckSpec,
    layout: Layout,
    plane_to_image: np.ndarray,
    width: int,
    height: int,
    min_visibility: float = 0.6,
) -> tuple[CardLabel, ...]:
    """Labels of a given layout seen through a given camera, on a plain table, in plain light
    (for checking the labelling on hand-made layouts)."""
    sprites = [
        CardSprite(library.pyramid(deck, p.card), plane_to_image @ p.to_plane) for p in layout.cards
    ]
    light = Light(1.0, (0.0, 0.0), (0.0, 0.0), 1.0, 0.0, None, None, (1.0, 1.0, 1.0))
    background = np.full((height, width, 3), 0.3, np.float32)
    scene = Scene(width, height, background, tuple(sprites), light, Shadow((0, 0), 0.01, 0.0))
    drawn = draw(scene, np.eye(3), width, height)
    boxes = {p.card: library.boxes(deck, p.card) for p in layout.cards}
    return _labels(layout, 0, sprites, drawn.top, boxes, min_visibility)


def _choose_deck(rng: Rng, decks: tuple[DeckSpec, ...]) -> DeckSpec:
    families = sorted({d.family for d in decks})
    family = families[int(rng.integers(len(families)))]
    members = [d for d in decks if d.family == family]
    return members[int(rng.integers(len(members)))]


def _draw_cards(rng: Rng, count: int) -> list[Card]:
    pool: list[Card] = []
    while len(pool) < count:
        pool.extend(ALL_CARDS[i] for i in rng.permutation(len(ALL_CARDS)))
    return pool[:count]


def column_rng(seed: int, index: int) -> Rng:
    """The generator of one scene's columns, apart from its other draws (a set drawn without
    columns stays as it was)."""
    return np.random.default_rng([seed, index, 5])


def _maybe_columns(
    rng: Rng,
    layout: Layout,
    config: SynthConfig,
    library: ArtLibrary,
    deck: DeckSpec,
    style: CardStyle,
) -> Layout:
    """The rows' cards laid as columns side by side (top card first) in `column_share` of
    scenes, each card leaving the top index of the one before showing."""
    if rng.random() >= config.column_share:
        return layout
    rows: dict[int, list[PlacedCard]] = {}
    for placed in layout.cards:
        rows.setdefault(placed.row, []).append(placed)
    columns = [[p.card for p in sorted(row, key=lambda p: p.position)] for row in rows.values()]
    cards = [card for column in columns for card in column]
    size = library.size(deck, style)
    return columns_layout(rng, columns, size, index_depth(library, deck, cards, style))


def index_depth(
    library: ArtLibrary, deck: DeckSpec, cards: Sequence[Card], style: CardStyle, four: bool = False
) -> float:
    """How far down its card (a share of the card height) the lowest top-left index of `cards`
    reaches: a column must leave that much of each card showing."""
    depths = [
        box.box[3] / library.indices[deck.name][card].height
        for card in cards
        for box in library.boxes(deck, card, four, style)
        if box.corner is Corner.TOP_LEFT
    ]
    return max(depths, default=0.3)


def _make_layout(rng: Rng, config: SynthConfig, size: CardArtSize) -> Layout:
    kinds = [k for k, _ in config.layout_weights]
    weights = np.array([w for _, w in config.layout_weights])
    kind = kinds[int(rng.choice(len(kinds), p=weights / weights.sum()))]
    if kind is LayoutKind.ROWS:
        n_rows = int(rng.choice([1, 2, 3], p=[0.45, 0.35, 0.2]))
        lengths = [_row_length(rng) for _ in range(n_rows)]
        cards = _draw_cards(rng, sum(lengths))
        rows, start = [], 0
        for n in lengths:
            rows.append(cards[start : start + n])
            start += n
        return rows_layout(rng, rows, size)
    if kind is LayoutKind.FAN:
        return fan_layout(rng, _draw_cards(rng, int(rng.integers(3, 14))), size)
    if kind is LayoutKind.SINGLES:
        return singles_layout(rng, _draw_cards(rng, int(rng.integers(1, 6))), size)
    return Layout(LayoutKind.EMPTY, ())


def _row_length(rng: Rng) -> int:
    if rng.random() < 0.6:
        return int(rng.integers(2, 14))
    return int(rng.integers(2, 27))


def _backs(rng: Rng, layout: Layout, size: CardArtSize) -> list[np.ndarray]:
    """Face-down cards (a stock, a discard) beside the piles now and then: to be ignored."""
    if layout.kind is not LayoutKind.EMPTY and rng.random() > 0.15:
        return []
    pts = _plane_points(layout, [], size) if layout.cards else np.zeros((1, 2))
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    out = []
    for _ in range(int(rng.integers(1, 4))):
        side = rng.integers(4)
        x = rng.uniform(lo[0], hi[0]) if side < 2 else (lo[0] - 0.7 if side == 2 else hi[0] + 0.7)
        y = rng.uniform(lo[1], hi[1]) if side >= 2 else (lo[1] - 0.7 if side == 0 else hi[1] + 0.7)
        out.append(card_to_plane(size, x, y, rng.uniform(-np.pi, np.pi)))
    return out


def _plane_points(layout: Layout, backs: list[np.ndarray], size: CardArtSize) -> np.ndarray:
    corners = np.array([[0, 0], [size.width, 0], [size.width, size.height], [0, size.height]])
    mats = [p.to_plane for p in layout.cards] + list(backs)
    if not mats:
        return corners / size.height
    return np.vstack([apply(m, corners) for m in mats])


# ---------------------------------------------------------------------------------------------
# labels


def _labels(
    layout: Layout,
    first: int,
    sprites: list[CardSprite],
    top: np.ndarray,
    boxes: dict[Card, tuple[IndexBox, ...]],
    min_visibility: float,
) -> tuple[CardLabel, ...]:
    h, w = top.shape
    out = []
    for k, placed in enumerate(layout.cards):
        z = first + k
        sprite = sprites[z]
        index_labels = []
        for ib in boxes[placed.card]:
            x0, y0, x1, y1 = ib.box
            quad = apply(sprite.to_scene, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
            visibility = _visibility(quad, top, z)
            box = (
                float(max(0.0, quad[:, 0].min())),
                float(max(0.0, quad[:, 1].min())),
                float(min(w, quad[:, 0].max())),
                float(min(h, quad[:, 1].max())),
            )
            big_enough = box[2] - box[0] >= 2 and box[3] - box[1] >= 2
            labelled = visibility >= min_visibility and big_enough
            index_labels.append(IndexLabel(ib.corner, quad, box, visibility, labelled))
        out.append(
            CardLabel(
                placed.card,
                placed.row,
                placed.position,
                z,
                sprite.scene_corners(),
                tuple(index_labels),
            )
        )
    return tuple(out)


def _visibility(quad: np.ndarray, top: np.ndarray, z: int) -> float:
    """Share of the index's area that is inside the image and not under a later card."""
    area = abs(float(cv2.contourArea(quad.astype(np.float32))))
    if area < 1e-6:
        return 0.0
    h, w = top.shape
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if cx1 <= cx0 or cy1 <= cy0:
        return 0.0
    mask = np.zeros((cy1 - cy0, cx1 - cx0), np.uint8)
    shifted = np.round((quad - [cx0, cy0]) * 16).astype(np.int32)
    cv2.fillPoly(mask, [shifted], 1, cv2.LINE_8, shift=4)
    inside = float(mask.sum())
    visible = float((mask.astype(bool) & (top[cy0:cy1, cx0:cx1] == z)).sum())
    # pixel counts under-/over-shoot for small quads: scale by the rasterised area
    raster_area = max(inside, 1.0)
    in_image = _clipped_area(quad, w, h) / area
    return float(min(1.0, in_image * visible / raster_area))


def _clipped_area(quad: np.ndarray, w: int, h: int) -> float:
    clipped, _ = cv2.intersectConvexConvex(
        quad.astype(np.float32), np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    )
    return float(clipped)


# ---------------------------------------------------------------------------------------------
# crops


def _crops(
    rng: Rng,
    scene: Scene,
    labels: tuple[CardLabel, ...],
    deck: DeckSpec,
    config: SynthConfig,
    realism: Realism = NEUTRAL,
    faults_rng: Rng | None = None,
) -> tuple[Crop, ...]:
    """A crop of every labelled index, each turned by a random number of quarter turns (so all
    four glyph orientations are learnt alike) and, `config.tilted_crops` of them, by a random
    tilt (`crop_tilt`), then `config.background_crops` of no index; each with the scene's
    camera faults (`realism`, drawn with `faults_rng`)."""
    faults = (realism, faults_rng)
    out = []
    for label in labels:
        for index in label.indices:
            if not index.labelled:
                continue
            turns = int(rng.integers(QUARTER_TURNS))
            tilt = crop_tilt(rng, config.tilted_crops)
            orientation = (glyph_orientation(index, deck, tilt) - turns) % QUARTER_TURNS
            jpeg = _crop(rng, scene, index.quad, config, turns, faults, tilt)
            out.append(Crop(label.card, index.corner, orientation, jpeg))
    for quad in _background_quads(rng, scene, labels, config.background_crops):
        jpeg = _crop(rng, scene, quad, config, int(rng.integers(QUARTER_TURNS)), faults)
        out.append(Crop(None, None, None, jpeg))
    return tuple(out)


CROP_TILT = 40.0
"""A tilted crop turns its index by up to this many degrees either way, as a card lying at its
own angle shows it in a crop cut square round its box: the classifier reads it at the nearest
quarter turn, which at 45 degrees would be either."""


def crop_tilt(rng: Rng, share: float) -> float:
    """The tilt of an index's crop, in radians (turning it clockwise as seen): for `share` of
    the crops a random one within CROP_TILT either way, else none. Nothing is drawn from `rng`
    where `share` is 0, so that sets drawn without tilts stay as they were."""
    if share <= 0.0 or rng.random() >= share:
        return 0.0
    return float(np.radians(rng.uniform(-CROP_TILT, CROP_TILT)))


def glyph_orientation(index: IndexLabel, deck: DeckSpec, tilt: float = 0.0) -> int:
    """Which way an index's glyph stands in the scene: the top of its art box, turned round
    for a bottom corner (printed upside down on almost every deck); in a crop turned by `tilt`
    (`crop_tilt`), as it stands there."""
    up = index.quad[0] - index.quad[3]  # the art box's top-left minus its bottom-left corner
    if index.corner in (Corner.BOTTOM_RIGHT, Corner.BOTTOM_LEFT) and not deck.upright_bottom_index:
        up = -up
    up = rotation(tilt)[:2, :2] @ up
    return orientation_of(float(up[0]), float(up[1]))


def _background_quads(
    rng: Rng, scene: Scene, labels: tuple[CardLabel, ...], count: int
) -> list[np.ndarray]:
    """Index-sized squares away from every index: mostly on the cards (pips, face art, backs,
    edges), some anywhere (the table and what lies on it)."""
    quads = [index.quad for label in labels for index in label.indices]
    centres = np.array([q.mean(axis=0) for q in quads]) if quads else np.zeros((0, 2))
    sides = [float(max(q.max(axis=0) - q.min(axis=0))) for q in quads]
    out: list[np.ndarray] = []
    for _ in range(count * 10):
        if len(out) == count:
            break
        side = float(rng.choice(sides)) if sides else rng.uniform(0.02, 0.08) * scene.height
        if labels and rng.random() < 0.75:
            corners = labels[int(rng.integers(len(labels)))].quad
            u, v = rng.random(2)
            top = corners[0] + u * (corners[1] - corners[0])
            bottom = corners[3] + u * (corners[2] - corners[3])
            point = top + v * (bottom - top)
        else:
            point = rng.random(2) * [scene.width, scene.height]
        if len(centres) and np.min(np.hypot(*(centres - point).T)) < 1.3 * side:
            continue
        half = side / 2
        out.append(point + np.array([[-half, -half], [half, -half], [half, half], [-half, half]]))
    return out


SMALL_INDEX_SHARE = 0.25
"""The share of crops drawn from an index 9-18 px tall in the photo: a whole table's far and side
piles in a 2 MP photo are that small, and read at the photo's own resolution."""


def native_index_size(rng: Rng) -> float:
    """How many pixels tall a crop's index stands in the full-resolution photo it is cut from."""
    if rng.random() < SMALL_INDEX_SHARE:
        return rng.uniform(9, 18)
    return rng.uniform(18, 110)


def _crop(
    rng: Rng,
    scene: Scene,
    quad: np.ndarray,
    config: SynthConfig,
    turns: int,
    faults: tuple[Realism, Rng | None] = (NEUTRAL, None),
    tilt: float = 0.0,
) -> bytes:
    """A square close-up of one index (its quad, seen turned by `tilt` radians round its
    centre), drawn afresh at its own resolution (as a crop from a full-resolution photo would
    be), then the camera, then resized to crop_size and turned by `turns` quarter turns
    anticlockwise."""
    turn = np.eye(3)
    if tilt:
        middle = quad.mean(axis=0)
        turn = translation(*middle) @ rotation(tilt) @ translation(*-middle)
        quad = apply(turn, quad)
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    long_side = float(max(hi - lo))
    side = long_side * rng.uniform(1.15, 1.5)
    centre = (lo + hi) / 2 + rng.uniform(-0.08, 0.08, 2) * side
    native_index = native_index_size(rng)
    native = int(np.clip(round(native_index * side / long_side), 10, 200))
    view = scaling(native / side) @ translation(*(side / 2 - centre)) @ turn
    drawn = draw(scene, view, native, native)
    realism, faults_rng = faults
    # a crop is too small to show the corners' fall; it is as blurred as the photo round it
    realism = replace(seen_closer(realism, max(scene.width, scene.height) / side), vignette=0.0)
    photo = expose(apply_light_faults(drawn.image, realism), random_sensor(rng, max_blur=0.9), rng)
    if not realism.is_neutral and faults_rng is not None:
        photo = apply_sensor_faults(photo, realism, faults_rng)
    size = config.crop_size
    interp = cv2.INTER_AREA if native > size else cv2.INTER_CUBIC
    photo = np.ascontiguousarray(
        np.rot90(cv2.resize(photo, (size, size), interpolation=interp), turns)
    )
    return encode_jpeg(photo, int(rng.integers(50, 96)))


# ---------------------------------------------------------------------------------------------
# ground truth


def _meta(
    seed: int,
    index: int,
    split: Split,
    deck: DeckSpec,
    layout: Layout,
    surface: str,
    camera: Camera,
    labels: tuple[CardLabel, ...],
    backs: int,
) -> dict:
    piles: dict[int, list[tuple[int, str]]] = {}
    for label in labels:
        piles.setdefault(label.row, []).append((label.position, label.card.code))
    return {
        "version": META_VERSION,
        "seed": seed,
        "index": index,
        "split": split.value,
        "width": camera.width,
        "height": camera.height,
        "deck": deck.name,
        "layout": layout.kind.value,
        "surface": surface,
        "tilt_degrees": round(camera.tilt_degrees, 2),
        "pitch_degrees": round(camera.pitch_degrees, 2),
        "face_down_cards": backs,
        "piles": [[code for _, code in sorted(piles[r])] for r in sorted(piles)],
        "cards": [_card_meta(label) for label in labels],
    }


def _card_meta(label: CardLabel) -> dict:
    return {
        "code": label.card.code,
        "row": label.row,
        "position": label.position,
        "z": label.z,
        "quad": _round(label.quad),
        "indices": [
            {
                "corner": i.corner.value,
                "quad": _round(i.quad),
                "box": [round(v, 2) for v in i.box],
                "visibility": round(i.visibility, 3),
                "labelled": i.labelled,
            }
            for i in label.indices
        ],
    }


def _round(points: np.ndarray) -> list[list[float]]:
    return [[round(float(x), 2), round(float(y), 2)] for x, y in points]
