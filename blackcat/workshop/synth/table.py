"""Whole-table scenes: two to four players round a table, each with their piles laid in front of
them, upright for that player, seen by the near player's phone (pitched, so the far cards are
smaller).

Each player's piles are laid in the player's own frame (rows as `rows_layout` lays them, or
columns: each card lower down on the one before, the top index of each showing), top to bottom
as the player sees them; each pile turned a little (a pile 30 degrees off the table's edge is
still its player's), then the player's block turned to the player's side (vision.types.SIDES:
the quarter turn of its glyphs in the photo) and put on that side of the table, face-down cards
between the blocks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from blackcat.games.cards import ALL_CARDS, Card, parse_card
from blackcat.vision.types import SIDES
from blackcat.workshop.synth.decks import TWO_CORNERS, DeckSpec, Split, deck_by_name
from blackcat.workshop.synth.layout import (
    Camera,
    CardArtSize,
    Layout,
    LayoutKind,
    PlacedCard,
    apply,
    art_corners,
    camera_for,
    card_to_plane,
    columns_layout,
    rotation,
    rows_layout,
    translation,
)
from blackcat.workshop.synth.realism import NEUTRAL, Realism, random_realism, realism_rng
from blackcat.workshop.synth.scene import (
    PHOTO_LOOK,
    PHOTO_SURFACE_NAMES,
    PLAIN_STYLE,
    TRAINING_LOOK,
    ArtLibrary,
    Look,
    SceneResult,
    SynthConfig,
    _choose_deck,
    _render,
    index_depth,
    squeezed,
    style_rng,
)
from blackcat.workshop.synth.styles import CardStyle, draw_style
from blackcat.workshop.synth.textures import PHOTO_SURFACES, table_surface

Rng = np.random.Generator

ROWS, COLUMNS = "rows", "columns"
SIDE_TURNS = {side: 90.0 * turn for turn, side in enumerate(SIDES)}
"""Degrees (clockwise in the photo) a player's block is turned: its card tops then point up for
"near", right for "left", down for "far", left for "right": the glyph orientation of SIDES."""
CARD_HEIGHT_RANGE = (0.04, 0.14)
"""A card's height in the photo, as a share of its short side."""
TRAINING_CARD_HEIGHTS = (0.12, 0.4)
"""...and in a training scene: one or two players' piles nearer, so that the detector learns
turned piles and columns at the index sizes the reader's second pass shows it (12-40 pixels)."""
TRAINING_PLAYERS = (1, 2)
TRAINING_COLUMN_SHARE = 0.5
PITCH_RANGE = (25.0, 50.0)
"""Degrees from straight down of a seated player's camera."""


@dataclass(frozen=True)
class Player:
    """One player's piles as they lie in front of them: top to bottom as the player sees them,
    each pile's cards in the player's left-to-right order (a column: its top card first)."""

    side: str  # vision.types.SIDES
    piles: tuple[tuple[str, ...], ...]  # card codes
    layouts: tuple[str, ...]  # ROWS or COLUMNS, one per pile


def seat_order(players: Sequence[Player]) -> tuple[Player, ...]:
    return tuple(sorted(players, key=lambda player: SIDES.index(player.side)))


def draw_players(
    rng: Rng, column_share: float = 0.25, players: tuple[int, int] = (2, 4)
) -> tuple[Player, ...]:
    """`players` (fewest, most) players (1: any side; 2: near and far mostly, else near and left
    or right; 3: near and two others; 4: every side), 1-3 piles each (mostly 2) of 3-10 cards
    from one deck, laid as columns in `column_share` of piles, rows in the rest; in seat order."""
    count = int(rng.integers(players[0], players[1] + 1))
    if count == 1:
        sides = [str(rng.choice(SIDES))]
    elif count == 2:
        other = "far" if rng.random() < 0.7 else str(rng.choice(["left", "right"]))
        sides = ["near", other]
    elif count == 3:
        sides = ["near", *(str(s) for s in rng.choice(SIDES[1:], size=2, replace=False))]
    else:
        sides = list(SIDES)
    piles_each = [int(rng.choice([1, 2, 3], p=[0.2, 0.6, 0.2])) for _ in sides]
    sizes = [[int(rng.integers(3, 11)) for _ in range(n)] for n in piles_each]
    while sum(map(sum, sizes)) > len(ALL_CARDS):  # one deck: shorten the longest pile
        longest = max(sizes, key=max)
        longest[longest.index(max(longest))] -= 1
    order = rng.permutation(len(ALL_CARDS))
    codes = iter(ALL_CARDS[i].code for i in order)
    players = []
    for side, pile_sizes in zip(sides, sizes, strict=True):
        piles = tuple(tuple(next(codes) for _ in range(n)) for n in pile_sizes)
        layouts = tuple(COLUMNS if rng.random() < column_share else ROWS for _ in pile_sizes)
        players.append(Player(side, piles, layouts))
    return seat_order(players)


def pile_jitter(rng: Rng) -> float:
    """Radians a pile lies off its player's table edge: mostly within 15 degrees, now and then
    up to 30."""
    limit = 15.0 if rng.random() < 0.85 else 30.0
    return float(np.radians(rng.uniform(-limit, limit)))


def _corners(size: CardArtSize, cards: Sequence[PlacedCard]) -> np.ndarray:
    return np.vstack([apply(p.to_plane, art_corners(size)) for p in cards])


def _moved(cards: Sequence[PlacedCard], matrix: np.ndarray) -> list[PlacedCard]:
    return [replace(p, to_plane=matrix @ p.to_plane) for p in cards]


def player_block(
    rng: Rng,
    player: Player,
    cards: Sequence[Sequence[Card]],
    size: CardArtSize,
    depth: float,
    first_row: int,
) -> list[PlacedCard]:
    """One player's piles in the player's own frame (piles top to bottom, each turned by its
    jitter), then turned to the player's side; pile k is row `first_row + k`."""
    block: list[PlacedCard] = []
    top = 0.0
    for k, (pile, kind) in enumerate(zip(cards, player.layouts, strict=True)):
        if kind == COLUMNS:
            laid = columns_layout(rng, [list(pile)], size, depth).cards
        else:
            laid = rows_layout(rng, [list(pile)], size).cards
        points = _corners(size, laid)
        centre = (points.min(axis=0) + points.max(axis=0)) / 2
        turned = _moved(laid, rotation(pile_jitter(rng)) @ translation(*-centre))
        points = _corners(size, turned)
        shift = translation(rng.uniform(-0.3, 0.3), top - points[:, 1].min())
        block.extend(replace(p, row=first_row + k) for p in _moved(turned, shift))
        top += points[:, 1].max() - points[:, 1].min() + rng.uniform(0.15, 0.6)
    points = _corners(size, block)
    centre = (points.min(axis=0) + points.max(axis=0)) / 2
    turn = rotation(np.radians(SIDE_TURNS[player.side]))
    return _moved(block, turn @ translation(*-centre))


OUTWARD = {"near": (0.0, 1.0), "left": (-1.0, 0.0), "far": (0.0, -1.0), "right": (1.0, 0.0)}
"""The direction from the table's middle to each side (plane: y down, the near side below)."""


def place_blocks(
    rng: Rng, blocks: dict[str, list[PlacedCard]], size: CardArtSize
) -> dict[str, list[PlacedCard]]:
    """Each side's block on its side of the table, room in the middle, no two blocks
    overlapping (each pushed outward until clear)."""
    middle = rng.uniform(0.8, 2.0)
    offsets: dict[str, np.ndarray] = {}
    for side, block in blocks.items():
        points = _corners(size, block)
        lo, hi = points.min(axis=0), points.max(axis=0)
        out = np.array(OUTWARD[side])
        reach = float(np.abs(out) @ ((hi - lo) / 2))  # half the block's depth towards the middle
        along = np.array([out[1], -out[0]]) * rng.uniform(-0.4, 0.4)
        offsets[side] = out * (middle + reach) + along
    for _ in range(200):
        boxes = {side: _box(size, blocks[side], offsets[side]) for side in blocks}
        clashes = [
            (a, b) for a in boxes for b in boxes if a < b and _overlap(boxes[a], boxes[b], 0.3)
        ]
        if not clashes:
            break
        for a, b in clashes:
            offsets[a] = offsets[a] + 0.1 * np.array(OUTWARD[a])
            offsets[b] = offsets[b] + 0.1 * np.array(OUTWARD[b])
    return {side: _moved(block, translation(*offsets[side])) for side, block in blocks.items()}


def _box(size: CardArtSize, block: Sequence[PlacedCard], offset: np.ndarray) -> np.ndarray:
    points = _corners(size, block) + offset
    return np.concatenate([points.min(axis=0), points.max(axis=0)])


def _overlap(a: np.ndarray, b: np.ndarray, margin: float) -> bool:
    apart = a[:2] > b[2:] + margin, b[:2] > a[2:] + margin
    return not (apart[0].any() or apart[1].any())


def table_layout(
    rng: Rng,
    players: Sequence[Player],
    size: CardArtSize,
    depth: float,
) -> Layout:
    """Every player's piles round the table; rows numbered in seat order (the players as
    given), so that the ground truth's piles come in that order."""
    blocks, first_row = {}, 0
    for player in players:
        cards = [[parse_card(code) for code in pile] for pile in player.piles]
        blocks[player.side] = player_block(rng, player, cards, size, depth, first_row)
        first_row += len(player.piles)
    placed = place_blocks(rng, blocks, size)
    return Layout(LayoutKind.ROWS, tuple(p for player in players for p in placed[player.side]))


def table_clutter(rng: Rng, layout: Layout, size: CardArtSize) -> list[np.ndarray]:
    """Face-down cards in the middle of the table (a stock, a discard, a stray card): 0-5."""
    points = _corners(size, layout.cards)
    centre = (points.min(axis=0) + points.max(axis=0)) / 2
    out = []
    stock = rng.random() < 0.6
    for k in range(int(rng.integers(0, 6))):
        if stock and k < 3:  # a squared-up stock: cards almost on top of each other
            x, y, angle = centre[0] + 0.01 * k, centre[1] - 0.01 * k, 0.05 * k
        else:
            x, y = centre + rng.uniform(-0.5, 0.5, 2)
            angle = rng.uniform(-np.pi, np.pi)
        out.append(card_to_plane(size, float(x), float(y), float(angle)))
    return out


def seated_camera(
    rng: Rng,
    layout: Layout,
    backs: Sequence[np.ndarray],
    size: CardArtSize,
    long_side: int,
    pitch: float,
    card_heights_range: tuple[float, float] = CARD_HEIGHT_RANGE,
) -> Camera:
    """The near player's phone: pitched `pitch` degrees from straight down about the table's
    left-right axis (the far side further away), held about level, a 4:3 picture framing the
    table with the cards `card_heights_range` of its short side tall as far as the table
    allows."""
    mats = [p.to_plane for p in layout.cards] + list(backs)
    points = np.vstack([apply(m, art_corners(size)) for m in mats])
    camera_seed = int(rng.integers(1 << 31))
    tilt = float(np.clip(rng.normal(0, 3), -8, 8))
    extent = float(np.max(points.max(axis=0) - points.min(axis=0)))
    distance = extent / rng.uniform(0.8, 1.2)  # a seated player's eye, over the near edge
    fill = float(rng.uniform(0.75, 0.95))

    def framed(share: float) -> Camera:
        return camera_for(
            np.random.default_rng(camera_seed),
            points,
            long_side,
            tilt=tilt,
            pitch=pitch,
            ratio=4 / 3,
            fill=share,
            slack=0.2,
            heading=np.pi,
            distance=distance,
        )

    camera = framed(fill)
    heights = card_heights(camera, layout, size) / min(camera.width, camera.height)
    low, high = card_heights_range
    zoom = min(high / heights.max(), max(1.0, low / heights.min()), 1.0 / fill)
    return framed(fill * zoom) if zoom != 1.0 else camera


def card_heights(camera: Camera, layout: Layout, size: CardArtSize) -> np.ndarray:
    """Each card's height in the picture: from the middle of its top edge to that of its bottom."""
    edges = np.array([[size.width / 2, 0.0], [size.width / 2, size.height]])
    ends = [apply(camera.plane_to_image @ p.to_plane, edges) for p in layout.cards]
    return np.array([float(np.hypot(*(b - a))) for a, b in ends])


def render_table(
    players: Sequence[Player],
    *,
    deck: str | DeckSpec,
    imgsz: int,
    seed: int,
    library: ArtLibrary | None = None,
    style: CardStyle = PLAIN_STYLE,
    realism: Realism = NEUTRAL,
    pitch: float | None = None,
    look: Look = PHOTO_LOOK,
    name: tuple[int, int] = (0, 0),
    config: SynthConfig | None = None,
    four: bool = False,
    card_heights_range: tuple[float, float] = CARD_HEIGHT_RANGE,
) -> SceneResult:
    """A photo of the whole table: `players` (at most one a side, one deck between them) round
    it, drawn from `seed` (the same arguments give the same bytes). `pitch`: the camera's
    degrees from straight down (PITCH_RANGE when None); `name`: (seed, index) for the ground
    truth; `config`: crops and labelling as `blackcat synth` makes them (none by default).
    Its `meta` is the synth's ground truth, "piles" in seat order, plus "sides" and "layouts"
    (one per pile) and "players"."""
    players = seat_order(players)
    _check_players(players)
    spec = deck_by_name(deck) if isinstance(deck, str) else deck
    if library is None or spec.name not in library.rendered:
        library = ArtLibrary((spec,), library.cache if library else None)
    rng = np.random.default_rng([seed, 0])
    size = library.size(spec, style)
    all_cards = [parse_card(code) for player in players for pile in player.piles for code in pile]
    layout = table_layout(rng, players, size, index_depth(library, spec, all_cards, style, four))
    backs = table_clutter(rng, layout, size)
    if pitch is None:
        pitch = float(rng.uniform(*PITCH_RANGE))
    camera = seated_camera(rng, layout, backs, size, imgsz, pitch, card_heights_range)
    camera = squeezed(camera, realism)
    if look is TRAINING_LOOK:
        table = table_surface(rng, camera.height, camera.width)
    else:
        surface = str(rng.choice(PHOTO_SURFACE_NAMES))
        table = table_surface(rng, camera.height, camera.width, surface, True, PHOTO_SURFACES)
    config = config or SynthConfig(imgsz=imgsz, crops=False)
    result = _render(
        rng,
        (name[0], name[1], spec.split),
        spec,
        layout,
        backs,
        camera,
        table,
        four,
        config,
        library,
        look,
        style,
        realism,
    )
    sides = [player.side for player in players for _ in player.piles]
    layouts = [kind for player in players for kind in player.layouts]
    result.meta.update(
        {
            "layout": "table",
            "sides": sides,
            "layouts": layouts,
            "players": len(players),
        }
    )
    return result


def _check_players(players: Sequence[Player]) -> None:
    sides = [player.side for player in players]
    if not players or len(set(sides)) != len(sides) or not set(sides) <= set(SIDES):
        raise ValueError(f"give one player a side, sides among {', '.join(SIDES)}: got {sides}")
    codes = [code for player in players for pile in player.piles for code in pile]
    if len(set(codes)) != len(codes):
        raise ValueError("one deck: a card may lie on the table only once")
    for player in players:
        if not player.piles or any(not pile for pile in player.piles):
            raise ValueError(f"{player.side}: give at least one pile, none empty")
        if len(player.layouts) != len(player.piles) or set(player.layouts) - {ROWS, COLUMNS}:
            raise ValueError(f"{player.side}: give one layout ({ROWS} or {COLUMNS}) a pile")


def is_table_scene(seed: int, index: int, config: SynthConfig) -> bool:
    """Whether `blackcat synth` draws scene `index` as a whole table (its own generator, so the
    other scenes are as they were before there were tables)."""
    return config.table_share > 0 and np.random.default_rng([seed, index, 4]).random() < (
        config.table_share
    )


def make_table_scene(
    seed: int, index: int, config: SynthConfig, library: ArtLibrary
) -> SceneResult:
    """A training scene of (part of) a table, as `make_scene` draws an ordinary one: its split
    (held-out decks and styles in val), deck, style, camera faults and crops; one or two
    players' piles, half of them columns, the cards TRAINING_CARD_HEIGHTS tall."""
    rng = np.random.default_rng([seed, index, 5])
    split = Split.VAL if rng.random() < config.val_fraction else Split.TRAIN
    deck = _choose_deck(rng, library.decks_in(split))
    style = draw_style(style_rng(seed, index), config.style_weights, split is Split.TRAIN)
    realism = random_realism(realism_rng(seed, index)) if config.realism else NEUTRAL
    four = deck.corners == TWO_CORNERS and rng.random() < config.four_corner_share
    return render_table(
        draw_players(rng, TRAINING_COLUMN_SHARE, TRAINING_PLAYERS),
        deck=deck,
        imgsz=config.imgsz,
        seed=int(rng.integers(1 << 31)),
        library=library,
        style=style,
        realism=realism,
        look=TRAINING_LOOK,
        name=(seed, index),
        config=config,
        four=four,
        card_heights_range=TRAINING_CARD_HEIGHTS,
    )
