"""Whole-table scenes: each player's piles turned to the player, round the table, one deck."""

from __future__ import annotations

import json
from itertools import pairwise

import numpy as np
import pytest

from blackcat.vision.types import SIDES
from blackcat.workshop.synth.decks import Corner, Split
from blackcat.workshop.synth.scene import ArtLibrary, SynthConfig, glyph_orientation
from blackcat.workshop.synth.table import (
    CARD_HEIGHT_RANGE,
    COLUMNS,
    ROWS,
    Player,
    draw_players,
    is_table_scene,
    render_table,
)

PLAYERS = (
    Player("far", (("2S", "3S", "4S"), ("5S", "6S", "7S", "8S")), (ROWS, COLUMNS)),
    Player("near", (("2H", "3H", "4H", "5H"), ("6H", "7H", "8H")), (COLUMNS, ROWS)),
    Player("left", (("2D", "3D", "4D"),), (ROWS,)),
    Player("right", (("2C", "3C", "4C"), ("5C", "6C", "7C"), ("8C", "9C")), (ROWS, ROWS, COLUMNS)),
)


@pytest.fixture(scope="module")
def library(test_decks) -> ArtLibrary:
    return ArtLibrary(test_decks)


@pytest.fixture(scope="module")
def table(library, test_decks):
    held_out = next(d for d in test_decks if d.split is Split.VAL)
    return render_table(PLAYERS, deck=held_out, imgsz=1200, seed=3, library=library), held_out


def test_the_truth_lists_piles_in_seat_order_with_their_sides_and_layouts(table) -> None:
    result, _ = table
    seated = sorted(PLAYERS, key=lambda player: SIDES.index(player.side))
    assert result.meta["piles"] == [list(pile) for player in seated for pile in player.piles]
    assert result.meta["sides"] == [player.side for player in seated for _ in player.piles]
    assert result.meta["layouts"] == [kind for player in seated for kind in player.layouts]
    assert result.meta["players"] == 4


def test_every_card_s_top_index_stands_as_its_player_sees_it(table) -> None:
    result, deck = table
    side_of = {code: player.side for player in PLAYERS for pile in player.piles for code in pile}
    for label in result.labels:
        top_left = next(i for i in label.indices if i.corner is Corner.TOP_LEFT)
        assert glyph_orientation(top_left, deck) == SIDES.index(side_of[label.card.code])
        assert top_left.labelled, label.card.code  # rows and columns both leave it showing


def test_the_table_is_in_the_picture_with_the_far_cards_smaller(table) -> None:
    result, _ = table
    short = min(result.width, result.height)
    heights = {}
    for label in result.labels:
        quad = label.quad
        assert (quad >= -1).all() and (quad[:, 0] <= result.width + 1).all()
        assert (quad[:, 1] <= result.height + 1).all()
        heights[label.card.code] = float(np.hypot(*(quad[3] - quad[0]))) / short
    assert max(heights.values()) <= CARD_HEIGHT_RANGE[1] + 0.005
    near = np.mean([heights[code] for code in ("2H", "3H", "6H", "7H")])
    far = np.mean([heights[code] for code in ("2S", "3S", "5S", "6S")])
    assert far < near


def test_the_same_table_and_seed_give_the_same_picture(library, table) -> None:
    result, deck = table
    again = render_table(PLAYERS, deck=deck, imgsz=1200, seed=3, library=library)
    other = render_table(PLAYERS, deck=deck, imgsz=1200, seed=4, library=library)
    assert again.jpeg == result.jpeg and other.jpeg != result.jpeg


def test_a_card_may_lie_on_the_table_only_once(library, table) -> None:
    _, deck = table
    twice = (Player("near", (("2H", "3H"),), (ROWS,)), Player("far", (("3H",),), (ROWS,)))
    with pytest.raises(ValueError, match="only once"):
        render_table(twice, deck=deck, imgsz=640, seed=1, library=library)
    two_near = (Player("near", (("2H",),), (ROWS,)), Player("near", (("3H",),), (ROWS,)))
    with pytest.raises(ValueError, match="one player a side"):
        render_table(two_near, deck=deck, imgsz=640, seed=1, library=library)


def test_drawn_players_sit_on_distinct_sides_near_always_with_one_deck() -> None:
    counts, columns, piles = set(), 0, 0
    for index in range(60):
        players = draw_players(np.random.default_rng([1, index]))
        sides = [player.side for player in players]
        codes = [code for player in players for pile in player.piles for code in pile]
        assert "near" in sides and len(set(sides)) == len(sides)
        assert sides == sorted(sides, key=SIDES.index)
        assert len(set(codes)) == len(codes)
        for player in players:
            assert 1 <= len(player.piles) <= 3
            assert all(3 <= len(pile) <= 10 for pile in player.piles)
        counts.add(len(players))
        columns += sum(kind == COLUMNS for player in players for kind in player.layouts)
        piles += sum(len(player.piles) for player in players)
    assert counts == {2, 3, 4}
    assert 0.1 < columns / piles < 0.4


def test_synth_draws_its_table_share_of_scenes_as_tables(tmp_path, test_decks) -> None:
    from blackcat.workshop.synth.writer import generate

    none = SynthConfig(imgsz=320)
    assert not any(is_table_scene(5, index, none) for index in range(50))
    config = SynthConfig(imgsz=480, table_share=1.0)
    stats = list(generate(tmp_path, 2, 5, config, workers=1, decks=test_decks))
    metas = [
        json.loads(p.read_text()) for p in sorted((tmp_path / "detect" / "meta").rglob("*.json"))
    ]
    assert [meta["layout"] for meta in metas] == ["table", "table"]
    assert all(s.boxes > 0 and sum(s.crops.values()) > 0 for s in stats)
    for meta in metas:
        assert len(meta["sides"]) == len(meta["piles"]) == len(meta["layouts"])
    half = SynthConfig(table_share=0.5)
    share = np.mean([is_table_scene(5, index, half) for index in range(400)])
    assert 0.4 < share < 0.6


def test_pile_order_is_the_player_s_left_to_right_and_a_column_s_top_first(table) -> None:
    result, _ = table
    centres = {label.card.code: label.quad.mean(axis=0) for label in result.labels}
    # the player's right and the player's "down the column" (towards the player), in the photo
    right_of = {"near": (1, 0), "left": (0, 1), "far": (-1, 0), "right": (0, -1)}
    towards = {"near": (0, 1), "left": (-1, 0), "far": (0, -1), "right": (1, 0)}
    for player in PLAYERS:
        for pile, kind in zip(player.piles, player.layouts, strict=True):
            along = np.array((towards if kind == COLUMNS else right_of)[player.side])
            steps = [float((centres[b] - centres[a]) @ along) for a, b in pairwise(pile)]
            assert min(steps) > 0, (player.side, pile)
