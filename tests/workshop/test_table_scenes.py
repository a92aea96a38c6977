"""The whole-table measuring set: its plan and its files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from blackcat.vision.types import SIDES
from blackcat.workshop.kitty import CONDITIONS, PHOTO_SIZES
from blackcat.workshop.synth.table import PITCH_RANGE
from blackcat.workshop.table_scenes import make_table_scenes, plan_table_scene

DECKS = ("plastic", "tigullio")


def test_table_scenes_are_planned_alike_for_a_seed_with_one_deck_each() -> None:
    plans = [plan_table_scene(28, index, DECKS) for index in range(80)]
    assert plans == [plan_table_scene(28, index, DECKS) for index in range(80)]
    assert plans != [plan_table_scene(29, index, DECKS) for index in range(80)]
    for plan in plans:
        codes = [code for player in plan.players for pile in player.piles for code in pile]
        assert len(codes) == len(set(codes))
        sides = [player.side for player in plan.players]
        assert 2 <= len(sides) <= 4 and sides[0] == "near"
        assert sides == sorted(set(sides), key=SIDES.index)
        assert plan.deck in DECKS and plan.imgsz in PHOTO_SIZES.values()
        assert PITCH_RANGE[0] <= plan.pitch_degrees <= PITCH_RANGE[1]
        assert plan.condition in ("", *CONDITIONS)
    faulty = sum(bool(plan.condition) for plan in plans)
    assert 0 < faulty < len(plans) / 2
    two = [tuple(p.side for p in plan.players) for plan in plans if len(plan.players) == 2]
    assert two.count(("near", "far")) > len(two) / 2


@pytest.mark.usefixtures("card_art")
def test_table_scenes_are_drawn_once_with_their_sides(tmp_path: Path) -> None:
    from blackcat.workshop.kitty import held_out_decks

    paths = list(make_table_scenes(tmp_path, 1, 28))
    assert [p.name for p in paths] == ["t00000.json"]
    meta = json.loads(paths[0].read_text())
    assert (tmp_path / meta["image"]).is_file()
    assert len(meta["sides"]) == len(meta["piles"]) == len(meta["layouts"])
    assert meta["deck"] in held_out_decks() and meta["split"] == "val"
    written = paths[0].stat().st_mtime_ns
    assert list(make_table_scenes(tmp_path, 1, 28)) == paths
    assert paths[0].stat().st_mtime_ns == written


@pytest.mark.usefixtures("card_art")
def test_table_scenes_may_all_be_drawn_in_one_card_style(tmp_path: Path) -> None:
    paths = list(make_table_scenes(tmp_path, 1, 28, card_style="dark_face"))
    meta = json.loads(paths[0].read_text())
    assert meta["style"] == "dark_face"
    assert plan_table_scene(28, 0, DECKS).style != "dark_face"  # not its own style
