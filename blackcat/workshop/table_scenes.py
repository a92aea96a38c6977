"""Table scenes: photo-like pictures of a whole table, 2-4 players each with their piles laid in
front of them (synth/table.py), drawn with held-out decks only, at phone-photo sizes, some with
a camera's faults. The measuring set of the reader on whole-table photos
(`blackcat evaluate --table DIR`); never trained on.

DIR/tNNNNN.jpg    the picture
DIR/tNNNNN.json   its ground truth (the format `blackcat synth` writes, "image" the file name,
                  plus "sides" and "layouts" per pile and "players")
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from blackcat.workshop.kitty import (
    CONDITIONS,
    PHOTO_SIZES,
    draw_scenes,
    draw_style_name,
    drawn_under,
    held_out_decks,
)
from blackcat.workshop.synth.table import PITCH_RANGE, Player, draw_players

if TYPE_CHECKING:
    from blackcat.workshop.synth.scene import ArtLibrary, SceneResult

FAULT_SHARE = 0.2
"""The share of table scenes taken with one of kitty.CONDITIONS' camera faults."""


@dataclass(frozen=True)
class TableScene:
    players: tuple[Player, ...]  # in seat order
    deck: str
    imgsz: int
    pitch_degrees: float
    seed: int
    style: str = "plain"  # a name of styles.STYLES
    condition: str = ""  # a camera's fault (kitty.CONDITIONS), or "" for a careful photo


def plan_table_scene(seed: int, index: int, decks: tuple[str, ...]) -> TableScene:
    """What one table scene shows: 2-4 players' piles (table.draw_players: 1-3 piles each of
    3-10 cards, a quarter of them columns), a held-out deck, 2 or 12 MP, the camera pitched
    25-50 degrees; the card style and the camera's faults (one in five) from their own
    generators."""
    from blackcat.workshop.synth.styles import KITTY_STYLE_WEIGHTS

    rng = np.random.default_rng([seed, index])
    players = draw_players(rng)
    faults = np.random.default_rng([seed, index, 2])
    return TableScene(
        players=players,
        deck=str(rng.choice(decks)),
        imgsz=PHOTO_SIZES["12MP"] if rng.random() < 0.5 else PHOTO_SIZES["2MP"],
        pitch_degrees=float(rng.uniform(*PITCH_RANGE)),
        seed=int(rng.integers(1 << 31)),
        style=draw_style_name(np.random.default_rng([seed, index, 1]), KITTY_STYLE_WEIGHTS),
        condition=str(faults.choice(CONDITIONS)) if faults.random() < FAULT_SHARE else "",
    )


def make_table_scenes(
    out: Path, count: int, seed: int, card_style: str | None = None
) -> Iterator[Path]:
    """Draw table scenes 0..count-1 of `seed` into `out` (those already there are kept);
    `card_style`: every scene's cards in this style (a name of styles.STYLES) instead of its own."""
    from blackcat.workshop.synth.table import render_table

    def draw(index: int, library: ArtLibrary) -> tuple[SceneResult, dict]:
        plan = plan_table_scene(seed, index, held_out_decks())
        plan = replace(plan, style=card_style) if card_style else plan
        realism, imgsz, style = drawn_under(plan.condition, plan.imgsz, plan.style, plan.seed)
        result = render_table(
            plan.players,
            deck=plan.deck,
            imgsz=imgsz,
            seed=plan.seed,
            library=library,
            style=style,
            realism=realism,
            pitch=plan.pitch_degrees,
            name=(seed, index),
        )
        return result, {"condition": plan.condition} if plan.condition else {}

    drawn_with = {"scenes": "table", "seed": seed, "style": card_style}
    return draw_scenes(out, "t", count, draw, drawn_with)
