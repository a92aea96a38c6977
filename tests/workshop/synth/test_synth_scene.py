"""Scenes, their labels, crops and ground truth."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from blackcat.games.cards import ALL_CARDS
from blackcat.workshop.synth.decks import Corner, Split
from blackcat.workshop.synth.layout import (
    Layout,
    LayoutKind,
    PlacedCard,
    card_to_plane,
    scaling,
    translation,
)
from blackcat.workshop.synth.scene import (
    SMALL_INDEX_SHARE,
    ArtLibrary,
    SynthConfig,
    layout_labels,
    make_scene,
    native_index_size,
)
from blackcat.workshop.synth.writer import generate


def _files(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != "data.yaml"
    }


def test_same_seed_gives_the_same_files_whatever_the_workers(tmp_path, test_decks) -> None:
    config = SynthConfig(imgsz=320)
    list(generate(tmp_path / "a", 5, 11, config, workers=1, decks=test_decks))
    list(generate(tmp_path / "b", 5, 11, config, workers=2, decks=test_decks))
    list(generate(tmp_path / "c", 5, 12, config, workers=1, decks=test_decks))
    a, b, c = (_files(tmp_path / name) for name in "abc")
    assert a and a == b
    assert a != c


def test_images_have_the_asked_long_side_unless_squeezed(generated) -> None:
    squeezed = 0
    for meta in generated.metas:
        image = cv2.imread(str(generated.out / "detect" / meta["image"]))
        assert image.shape[:2] == (meta["height"], meta["width"])
        sx, sy = meta.get("realism", {}).get("squeeze", (1.0, 1.0))
        if (sx, sy) == (1.0, 1.0):
            assert max(image.shape[:2]) == 512
        else:  # a frame squeezed along one axis, as a wide frame resized to a square
            squeezed += 1
            assert max(image.shape[:2]) <= 512
            assert min(image.shape[:2]) < 512 * max(sx, sy) / min(sx, sy)
    assert squeezed < len(generated.metas)


def test_every_box_lies_inside_its_image(generated) -> None:
    for meta in generated.metas:
        w, h = meta["width"], meta["height"]
        labelled = [i for c in meta["cards"] for i in c["indices"] if i["labelled"]]
        lines = generated.labels_for(meta)
        assert len(lines) == len(labelled)
        for cls, cx, cy, bw, bh in lines:
            assert cls == 0
            assert 0 < bw <= 1 and 0 < bh <= 1
            assert cx - bw / 2 >= -1e-6 and cx + bw / 2 <= 1 + 1e-6
            assert cy - bh / 2 >= -1e-6 and cy + bh / 2 <= 1 + 1e-6
        for index in labelled:
            x0, y0, x1, y1 = index["box"]
            assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h


def _top_map(meta: dict, scale: int = 2) -> np.ndarray:
    """Which card is on top where, from the card outlines alone (drawn in z order)."""
    top = np.full((meta["height"] * scale, meta["width"] * scale), -1, np.int32)
    for card in sorted(meta["cards"], key=lambda c: c["z"]):
        quad = np.round(np.array(card["quad"]) * scale * 16).astype(np.int32)
        cv2.fillPoly(top, [quad], card["z"], cv2.LINE_8, shift=4)
    return top


def _shown(index: dict, z: int, top: np.ndarray, scale: int = 2) -> float:
    """Share of an index quad that is in the image and on top (outlines only)."""
    quad = np.array(index["quad"]) * scale
    mask = np.zeros(top.shape, np.uint8)
    cv2.fillPoly(mask, [np.round(quad * 16).astype(np.int32)], 1, cv2.LINE_8, shift=4)
    area = abs(cv2.contourArea(quad.astype(np.float32)))
    return float((mask.astype(bool) & (top == z)).sum()) / max(area, 1.0)


def test_every_box_is_on_a_visible_index_and_covered_ones_get_none(generated) -> None:
    checked = covered = 0
    for meta in generated.metas:
        top = _top_map(meta)
        for card in meta["cards"]:
            for index in card["indices"]:
                shown = _shown(index, card["z"], top)
                if index["labelled"]:
                    checked += 1
                    # outlines ignore the rounded corners, so they hide a little more
                    assert shown > 0.45, (meta["image"], card["code"], index)
                    x0, y0, x1, y1 = index["box"]
                    centre = ((x0 + x1) / 2, (y0 + y1) / 2)
                    quad = np.array(index["quad"], np.float32)
                    assert cv2.pointPolygonTest(quad, centre, True) > -2
                elif shown < 0.3:
                    covered += 1
                if shown < 0.3:
                    assert not index["labelled"]
    assert checked > 200 and covered > 50


def test_an_index_under_the_next_card_gets_no_box(test_decks) -> None:
    deck = test_decks[0]
    library = ArtLibrary((deck,))
    size = library.size(deck)
    first, second = ALL_CARDS[0], ALL_CARDS[20]
    a = size.aspect
    step = (size.strip + 0.05) * a
    layout = Layout(
        LayoutKind.ROWS,
        (
            PlacedCard(first, 0, 0, card_to_plane(size, a / 2, 0.5, 0.0)),
            PlacedCard(second, 0, 1, card_to_plane(size, a / 2 + step, 0.5, 0.0)),
        ),
    )
    camera = translation(40, 40) @ scaling(300)
    labels = layout_labels(library, deck, layout, camera, 480, 400)
    by_corner = [{i.corner: i for i in label.indices} for label in labels]
    assert by_corner[0][Corner.TOP_LEFT].labelled
    assert by_corner[0][Corner.TOP_LEFT].visibility > 0.97
    assert not by_corner[0][Corner.BOTTOM_RIGHT].labelled
    assert by_corner[0][Corner.BOTTOM_RIGHT].visibility < 0.05
    assert all(i.labelled for i in labels[1].indices)


def test_row_order_in_the_labels_matches_the_layout(generated) -> None:
    rows_seen = 0
    for meta in generated.metas:
        if meta["layout"] != "rows":
            continue
        rows: dict[int, list[dict]] = {}
        for card in meta["cards"]:
            rows.setdefault(card["row"], []).append(card)
        assert sorted(rows) == list(range(len(meta["piles"])))
        for r, cards in rows.items():
            cards.sort(key=lambda c: c["position"])
            assert [c["position"] for c in cards] == list(range(len(cards)))
            assert [c["code"] for c in cards] == meta["piles"][r]
            zs = [c["z"] for c in cards]
            assert zs == sorted(zs), "each later card lies on top of the previous one"
            centres = np.array([np.mean(c["quad"], axis=0) for c in cards])
            if len(cards) >= 2:
                direction = centres[-1] - centres[0]
                along = centres @ direction
                assert np.all(np.diff(along) > 0), (meta["image"], r)
                rows_seen += 1
    assert rows_seen >= 10


def test_held_out_decks_appear_only_in_val(generated, test_decks) -> None:
    split_of = {d.name: d.split for d in test_decks}
    splits = {meta["split"] for meta in generated.metas}
    assert splits == {"train", "val"}
    for meta in generated.metas:
        assert split_of[meta["deck"]].value == meta["split"]
        if meta["split"] == Split.VAL.value:
            assert Path(meta["image"]).parts[1] == "val"


@pytest.mark.parametrize("split", ["train", "val"])
def test_crop_folders_exist_for_every_card_at_every_quarter_turn_and_no_index(
    generated, split
) -> None:
    folders = {p.name for p in (generated.out / "classify" / split).iterdir()}
    assert folders == {f"{card.code}-{turns}" for card in ALL_CARDS for turns in range(4)} | {
        "none"
    }


def test_crops_cover_all_52_cards_and_no_index(generated) -> None:
    classify = generated.out / "classify"
    counts = {card.code: len(list(classify.glob(f"*/{card.code}-?/*.jpg"))) for card in ALL_CARDS}
    assert len(list(classify.glob("*/none/*.jpg"))) > 0
    assert sum(counts.values()) >= 300
    assert min(counts.values()) > 0, [code for code, n in counts.items() if n == 0]
    sample = next((generated.out / "classify").rglob("*.jpg"))
    assert cv2.imread(str(sample)).shape == (80, 80, 3)


def test_some_crops_are_drawn_from_indices_as_small_as_a_whole_tables_far_piles() -> None:
    rng = np.random.default_rng(3)
    sizes = np.array([native_index_size(rng) for _ in range(4000)])
    assert sizes.min() >= 9 and sizes.max() <= 110
    assert abs((sizes < 18).mean() - SMALL_INDEX_SHARE) < 0.03


@pytest.mark.usefixtures("card_art")
def test_a_crop_turned_a_quarter_turn_is_labelled_with_its_new_orientation() -> None:
    from blackcat.workshop.synth.decks import deck_by_name
    from blackcat.workshop.synth.scene import glyph_orientation, render_piles

    for tilt, top_left, bottom_right in ((0, 0, 2), (90, 1, 3), (180, 2, 0), (-90, 3, 1)):
        result = render_piles([["QS", "7H"]], deck="anglo", imgsz=400, seed=1, tilt_degrees=tilt)
        turns = {
            index.corner.value: glyph_orientation(index, deck_by_name("anglo"))
            for label in result.labels
            if label.card.code == "7H"
            for index in label.indices
        }
        assert turns == {"top_left": top_left, "bottom_right": bottom_right}


@pytest.mark.usefixtures("card_art")
def test_a_harder_photo_of_the_same_piles_is_another_picture_with_the_same_cards() -> None:
    from blackcat.workshop.synth.scene import render_piles

    piles = [["QS", "7H", "2C", "9D"], ["KH", "3S"]]
    plain = render_piles(piles, deck="anglo", imgsz=400, seed=3, tilt_degrees=0)
    again = render_piles(piles, deck="anglo", imgsz=400, seed=3, tilt_degrees=0)
    hard = render_piles(piles, deck="anglo", imgsz=400, seed=3, tilt_degrees=0, hard=True)
    assert plain.jpeg == again.jpeg and hard.jpeg != plain.jpeg
    assert hard.meta["piles"] == plain.meta["piles"] == piles
    assert hard.meta["pitch_degrees"] >= 10  # keystoned


@pytest.mark.usefixtures("card_art")
def test_rows_pushed_into_each_other_lie_less_than_a_card_apart_with_the_same_cards() -> None:
    from blackcat.workshop.synth.scene import render_piles

    def first_card_tops(meta: dict) -> list[float]:
        return [min(y for _, y in card["quad"]) for card in meta["cards"] if card["position"] == 0]

    def card_height(meta: dict) -> float:
        quad = meta["cards"][0]["quad"]
        return max(y for _, y in quad) - min(y for _, y in quad)

    piles = [["QS", "7H", "2C", "9D"], ["KH", "3S", "5D"]]
    apart = render_piles(piles, deck="anglo", imgsz=600, seed=3, tilt_degrees=0)
    pushed = render_piles(piles, deck="anglo", imgsz=600, seed=3, tilt_degrees=0, rows_apart=0.5)
    assert pushed.meta["piles"] == apart.meta["piles"] == piles
    upper, lower = first_card_tops(pushed.meta)
    assert 0.3 < (lower - upper) / card_height(pushed.meta) < 0.7
    upper, lower = first_card_tops(apart.meta)
    assert (lower - upper) / card_height(apart.meta) > 1.0


@pytest.mark.usefixtures("card_art")
def test_rows_turned_each_their_own_way_keep_their_cards() -> None:
    from blackcat.workshop.synth.scene import render_piles

    piles = [["QS", "7H", "2C", "9D"], ["KH", "3S", "5D"]]
    level = render_piles(piles, deck="anglo", imgsz=600, seed=3, tilt_degrees=0)
    turned = render_piles(piles, deck="anglo", imgsz=600, seed=3, tilt_degrees=0, row_turns=(0, 25))

    def slope(meta: dict, row: int) -> float:
        cards = [card for card in meta["cards"] if card["row"] == row]
        (x1, y1), (x2, y2) = cards[0]["quad"][0], cards[-1]["quad"][0]
        return (y2 - y1) / (x2 - x1)

    assert turned.meta["piles"] == level.meta["piles"] == piles
    assert abs(slope(turned.meta, 1) - slope(level.meta, 1)) > 0.2
    assert abs(slope(turned.meta, 0) - slope(level.meta, 0)) < 0.05


def _cards_width(meta: dict) -> float:
    xs = [x for card in meta["cards"] for x, _ in card["quad"]]
    return (max(xs) - min(xs)) / meta["width"]


@pytest.mark.usefixtures("card_art")
def test_piles_drawn_to_fill_less_of_the_photo_stand_smaller_in_it() -> None:
    from blackcat.workshop.synth.scene import render_piles

    piles = [["QS", "7H", "2C", "9D"], ["KH", "3S"]]
    plain = render_piles(piles, deck="anglo", imgsz=400, seed=3, tilt_degrees=0)
    small = render_piles(piles, deck="anglo", imgsz=400, seed=3, tilt_degrees=0, fill=(0.3, 0.3))
    assert small.meta["piles"] == piles
    assert _cards_width(small.meta) < 0.5 * _cards_width(plain.meta)
    with pytest.raises(ValueError, match="fill"):
        render_piles(piles, deck="anglo", imgsz=400, seed=3, fill=(0.5, 1.5))


def test_piles_laid_as_columns_keep_the_cards_and_show_each_top_index(test_decks) -> None:
    library = ArtLibrary(test_decks)
    rows = SynthConfig(imgsz=480, crops=False, realism=False)
    columns = replace(rows, column_share=1.0)
    laid, top_indices, labelled = 0, 0, 0
    for index in range(10):
        as_rows = make_scene(3, index, rows, library)
        as_columns = make_scene(3, index, columns, library)
        assert as_columns.meta["piles"] == as_rows.meta["piles"]
        if as_rows.meta["layout"] != "rows":
            assert as_columns.jpeg == as_rows.jpeg  # only rows are laid as columns
            continue
        for label in as_columns.labels:
            top_left = next(i for i in label.indices if i.corner is Corner.TOP_LEFT)
            top_indices += 1
            labelled += top_left.labelled  # unlabelled: beyond the frame's edge, now and then
        for pile in range(len(as_columns.meta["piles"])):
            cards = sorted(
                (c for c in as_columns.meta["cards"] if c["row"] == pile),
                key=lambda c: c["position"],
            )
            tops = np.array([np.min(np.array(c["quad"])[:, 1]) for c in cards])
            heights = np.ptp(np.array(cards[0]["quad"])[:, 1])
            if len(cards) >= 2:
                assert np.all(np.diff(tops) > 0.1 * heights), "each card lies lower down"
                laid += 1
    assert laid >= 3
    assert labelled >= 0.9 * top_indices


@pytest.mark.usefixtures("card_art")
def test_a_tilted_crop_is_labelled_with_the_quarter_turn_its_glyph_stands_nearest() -> None:
    from blackcat.workshop.synth.decks import deck_by_name
    from blackcat.workshop.synth.scene import glyph_orientation, render_piles

    result = render_piles([["QS", "7H"]], deck="anglo", imgsz=400, seed=1, tilt_degrees=0)
    (top_left,) = (
        index
        for label in result.labels
        if label.card.code == "7H"
        for index in label.indices
        if index.corner is Corner.TOP_LEFT
    )
    deck = deck_by_name("anglo")
    # turned clockwise as seen: its top points right (a quarter turn) from 45 degrees on
    expected = {-60: 3, -30: 0, 0: 0, 30: 0, 60: 1}
    assert {t: glyph_orientation(top_left, deck, np.radians(t)) for t in expected} == expected


def test_crops_are_tilted_only_as_often_as_asked_and_by_at_most_crop_tilt() -> None:
    from blackcat.workshop.synth.scene import CROP_TILT, crop_tilt

    rng, untouched = np.random.default_rng(5), np.random.default_rng(5)
    assert crop_tilt(rng, 0.0) == 0.0
    assert rng.random() == untouched.random()  # sets drawn without tilts stay as they were
    tilts = np.degrees([crop_tilt(rng, 0.5) for _ in range(2000)])
    assert abs((tilts != 0).mean() - 0.5) < 0.05
    assert np.abs(tilts).max() <= CROP_TILT and np.abs(tilts).max() > 0.9 * CROP_TILT


def test_a_set_drawn_with_tilted_crops_has_the_same_scenes_and_other_crops(
    tmp_path, test_decks
) -> None:
    plain, tilted = SynthConfig(imgsz=320), SynthConfig(imgsz=320, tilted_crops=1.0)
    list(generate(tmp_path / "plain", 2, 11, plain, workers=1, decks=test_decks))
    list(generate(tmp_path / "tilted", 2, 11, tilted, workers=1, decks=test_decks))
    a, b = _files(tmp_path / "plain"), _files(tmp_path / "tilted")
    scenes = [name for name in a if name.startswith("detect")]
    assert scenes and all(a[name] == b[name] for name in scenes)
    crops_a = sorted(a[name] for name in a if name.startswith("classify"))
    crops_b = sorted(b[name] for name in b if name.startswith("classify"))
    assert len(crops_a) == len(crops_b) and crops_a != crops_b
