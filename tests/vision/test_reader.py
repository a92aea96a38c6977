"""The whole photo reader, with the committed models, on small scenes of held-out decks."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from PIL import Image
from test_table_layout import read_of
from whole_table import a_whole_table

from blackcat.games.cards import Card
from blackcat.vision.classes import NOT_AN_INDEX
from blackcat.vision.colour import NO_FIX
from blackcat.vision.image_io import Photo, load_image, open_photo
from blackcat.vision.reader import (
    MODELS_DIR,
    CardReader,
    ModelsMissingError,
    as_it_is_or_stretched,
    crop_picture,
    downscale,
    negative_looked_at,
    negative_taken,
    square_crop,
)
from blackcat.vision.squeeze import SEARCHED_STRETCHES, STRETCHED_LONGEST, stretched_size
from blackcat.vision.tilt import turned_square
from blackcat.vision.types import Guess, IndexRead, PhotoRead, ReadCard

DATA = Path(__file__).parent / "data"
SCENES = sorted(DATA.glob("scene_*.json"))


@pytest.fixture(scope="module")
def reader() -> CardReader:
    return CardReader.load()


def truth(meta_path: Path) -> list[list[str]]:
    return json.loads(meta_path.read_text())["piles"]


def test_there_are_scenes_to_read() -> None:
    assert len(SCENES) >= 4


def read_codes(reader: CardReader, meta_path: Path) -> list[list[str]]:
    photo = reader.read(load_image(meta_path.with_suffix(".jpg")))
    return [[card.card.code for card in pile] for pile in photo.piles]


def test_a_tilted_row_of_ten_is_read_exactly_in_order(reader: CardReader) -> None:
    meta_path = DATA / "scene_2.json"  # tigullio, a deck never trained on, tilted -12°
    assert read_codes(reader, meta_path) == truth(meta_path)


@pytest.mark.parametrize("meta_path", SCENES, ids=lambda path: path.stem)
def test_every_test_scene_is_read_exactly(reader: CardReader, meta_path: Path) -> None:
    assert read_codes(reader, meta_path) == truth(meta_path)


def test_the_example_photo_reads_as_its_truth_and_scores_36(reader: CardReader) -> None:
    from blackcat.games.black_cat import score_player

    example = Path(__file__).parents[2] / "app" / "example.json"
    photo = reader.read(load_image(example.with_suffix(".jpg")))
    assert [[card.card.code for card in pile] for pile in photo.piles] == truth(example)
    assert score_player([[card.card for card in pile] for pile in photo.piles]).total == 36


def test_a_card_too_small_to_read_far_from_the_piles_is_an_unread_place(
    reader: CardReader,
) -> None:
    photo = load_image(EXAMPLE.with_suffix(".jpg"))
    six = next(c for c in json.loads(EXAMPLE.read_text())["cards"] if c["code"] == "6S")
    x1, y1 = np.min(six["quad"], axis=0).astype(int) + 50
    x2, y2 = np.max(six["quad"], axis=0).astype(int) - 50
    # the face between its corners, smaller: a card whose indices no look can read
    far = cv2.resize(photo[y1:y2, x1:x2], None, fx=0.6, fy=0.6, interpolation=cv2.INTER_AREA)
    left, top = 1490, 30  # bare table beyond the upper row's end
    photo[top : top + far.shape[0], left : left + far.shape[1]] = far
    read = reader.read(photo)
    assert [[card.card.code for card in pile] for pile in read.piles] == truth(EXAMPLE)
    centre = (left + far.shape[1] / 2, top + far.shape[0] / 2)
    assert any(a <= centre[0] <= c and b <= centre[1] <= d for a, b, c, d in read.unread_places)


def test_a_black_and_white_photo_reads_its_suits_by_their_shapes(reader: CardReader) -> None:
    example = Path(__file__).parents[2] / "app" / "example.json"
    coloured = load_image(example.with_suffix(".jpg"))
    grey = np.repeat(coloured.mean(axis=2, keepdims=True).astype(np.uint8), 3, axis=2)
    photo = reader.read(grey)
    assert [[card.card.code for card in pile] for pile in photo.piles] == truth(example)


@pytest.mark.parametrize("scene", ["scene_1", "scene_3"])
def test_an_enlarged_copy_of_the_photo_reads_the_same(reader: CardReader, scene: str) -> None:
    meta_path = DATA / f"{scene}.json"
    image = load_image(meta_path.with_suffix(".jpg"))
    height, width = image.shape[:2]
    enlarged = cv2.resize(image, (width * 4, height * 4), interpolation=cv2.INTER_CUBIC)
    read = [[card.card.code for card in pile] for pile in reader.read(enlarged).piles]
    assert read == truth(meta_path)


EXAMPLE = Path(__file__).parents[2] / "app" / "example.json"


@pytest.mark.parametrize("quarter_turns", [1, 2, 3], ids=["90", "180", "270"])
@pytest.mark.parametrize("meta_path", [*SCENES, EXAMPLE], ids=lambda path: path.stem)
def test_a_photo_turned_any_way_reads_exactly_as_upright(
    reader: CardReader, meta_path: Path, quarter_turns: int
) -> None:
    upright = load_image(meta_path.with_suffix(".jpg"))
    turned = np.ascontiguousarray(np.rot90(upright, quarter_turns))
    read = reader.read(turned)
    assert [[card.card.code for card in pile] for pile in read.piles] == truth(meta_path)
    assert (read.width, read.height) == turned.shape[1::-1]
    # turned anticlockwise, the cards' tops point left: their player sits on the photo's right
    want_side = {0: "near", 1: "right", 2: "far", 3: "left"}[quarter_turns % 4]
    assert [read.side_of(n) for n in range(len(read.piles))] == [want_side] * len(read.piles)
    first = read.piles[0][0]
    x1, y1, x2, y2 = (round(v) for v in first.indices[0].box)
    assert turned[y1:y2, x1:x2].std() > 20  # the box lies on the index in the turned photo


def tilted(picture: np.ndarray, degrees: float) -> np.ndarray:
    """The picture turned `degrees` anticlockwise on a canvas grown to hold it, filled with its
    median colour: a phone held at an angle to the table."""
    return turned_square(picture, -degrees)[0]


@pytest.mark.parametrize(
    ("meta_path", "degrees"),
    [(DATA / "scene_1.json", 35.0), (DATA / "scene_3.json", -30.0), (EXAMPLE, 25.0)],
    ids=["scene_1 35", "scene_3 -30", "example 25"],
)
def test_a_photo_of_cards_lying_tilted_reads_exactly_as_square(
    reader: CardReader, meta_path: Path, degrees: float
) -> None:
    photo = tilted(load_image(meta_path.with_suffix(".jpg")), degrees)
    read = reader.read(photo)
    assert [[card.card.code for card in pile] for pile in read.piles] == truth(meta_path)
    assert (read.width, read.height) == photo.shape[1::-1]
    for card in (read.piles[0][0], read.piles[-1][-1]):
        x1, y1, x2, y2 = (round(v) for v in card.indices[0].box)
        assert photo[y1:y2, x1:x2].std() > 20  # the box lies on the index in the photo


def test_a_photo_of_cards_lying_tilted_is_read_again_turned_square(
    reader: CardReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    photo = tilted(load_image(DATA / "scene_1.jpg"), 35.0)
    reader.read(photo)
    reads = reader.timings.reads
    monkeypatch.setattr("blackcat.vision.reader.TURNED_FROM", 90.0)  # never turned
    reader.read(photo)
    assert reads > reader.timings.reads  # read again, turned square


def test_a_box_turned_back_lands_where_it_was() -> None:
    from blackcat.vision.reader import turn_box

    picture = np.zeros((30, 50))
    picture[5:9, 10:20] = 1
    for quarter_turns in range(4):
        rows, columns = np.nonzero(np.rot90(picture, quarter_turns))
        seen = (columns.min(), rows.min(), columns.max() + 1, rows.max() + 1)
        assert turn_box(seen, (50, 30), quarter_turns) == (10, 5, 20, 9)


def test_what_the_detector_finds_in_a_part_of_the_photo_lands_where_it_lies() -> None:
    from blackcat.vision.image_io import as_photo
    from blackcat.vision.reader import detector_view

    picture = np.zeros((300, 400, 3), np.uint8)
    picture[110:150, 220:240] = 255  # a mark in the region (200, 100)-(300, 180)
    for quarter_turns in range(4):
        for size in (64, 320):  # shrunk, enlarged
            view = detector_view(as_photo(picture), (200, 100, 300, 180), size, quarter_turns)
            seen, mapping = view.seen()
            assert max(seen.shape[:2]) == size
            rows, columns = np.nonzero(seen[..., 0] > 127)
            box = np.array([columns.min(), rows.min(), columns.max() + 1, rows.max() + 1])
            assert mapping.in_photo(box.astype(float)).tolist() == [
                pytest.approx([220, 110, 240, 150], abs=2)
            ]


@pytest.mark.parametrize("meta_path", SCENES[:1], ids=lambda path: path.stem)
def test_each_card_keeps_its_box_confidence_and_alternatives(
    reader: CardReader, meta_path: Path
) -> None:
    image = load_image(meta_path.with_suffix(".jpg"))
    photo = reader.read(image)
    height, width = image.shape[:2]
    assert (photo.width, photo.height) == (width, height)
    for pile in photo.piles:
        for card in pile:
            x1, y1, x2, y2 = card.box
            assert 0 <= x1 < x2 <= width and 0 <= y1 < y2 <= height
            assert 0 < card.confidence <= 1
            probabilities = [guess.probability for guess in card.alternatives]
            assert card.alternatives[0].card == card.card
            assert card.alternatives[0].probability == card.confidence  # one number for both
            assert len(probabilities) == 3 and probabilities == sorted(probabilities, reverse=True)


def test_a_photo_of_an_empty_table_has_no_piles(reader: CardReader) -> None:
    rng = np.random.default_rng(0)
    table = np.clip(rng.normal(110, 12, (480, 640, 3)), 0, 255).astype(np.uint8)
    table[..., 0] = table[..., 0] // 2  # a greenish felt
    assert reader.read(table).piles == ()


def test_a_smaller_copy_of_the_photo_reads_the_same(reader: CardReader) -> None:
    meta_path = DATA / "scene_2.json"
    image = load_image(meta_path.with_suffix(".jpg"))
    smaller, _ = downscale(image, 800)
    read = [[card.card.code for card in pile] for pile in reader.read(smaller).piles]
    assert read == read_codes(reader, meta_path)


def test_missing_weights_say_how_to_get_them(tmp_path: Path) -> None:
    with pytest.raises(ModelsMissingError, match="blackcat train"):
        CardReader.load(tmp_path)


def test_a_crop_at_the_edge_of_the_photo_is_square_and_padded() -> None:
    image = np.zeros((100, 200, 3), dtype=np.uint8)
    crop = square_crop(image, (0, 0, 10, 20), padding=0.15)
    assert crop.shape == (26, 26, 3)


def test_crops_are_cut_from_a_copy_where_the_indices_stand_about_32_px_tall(
    tmp_path: Path,
) -> None:
    Image.new("RGB", (4000, 3000), "white").save(tmp_path / "big.jpg")
    photo = open_photo(tmp_path / "big.jpg")
    boxes = [(400.0, 800.0, 440.0, 928.0), (1000.0, 200.0, 1040.0, 328.0)]  # 128 px tall
    picture, in_picture = crop_picture(photo, boxes)
    assert max(picture.shape[:2]) == 1000
    assert np.allclose(in_picture, [(100.0, 200.0, 110.0, 232.0), (250.0, 50.0, 260.0, 82.0)])
    small = [(0.0, 0.0, 5.0, 10.0)]  # never finer than the photo itself
    assert np.allclose(crop_picture(photo, small)[1], small)


def test_downscale_keeps_the_aspect_and_reports_the_factor() -> None:
    small, factor = downscale(np.zeros((3000, 4000, 3), dtype=np.uint8), 640)
    assert small.shape == (480, 640, 3)
    assert factor == pytest.approx(0.16)


def test_the_classifier_answer_is_summed_into_cards_index_and_orientation() -> None:
    from blackcat.vision.classes import all_class_names, parse_class_name
    from blackcat.vision.reader import class_tables, summarise

    names = all_class_names()
    probabilities = np.zeros(len(names))
    probabilities[names.index("QS-0")] = 0.5
    probabilities[names.index("QS-2")] = 0.1
    probabilities[names.index("QC-0")] = 0.2
    probabilities[names.index("none")] = 0.2
    guesses, index_probability, turns = summarise(
        probabilities, class_tables([parse_class_name(name) for name in names]), top=2
    )
    assert index_probability == pytest.approx(0.8)
    assert [(g.card.code, round(g.probability, 3)) for g in guesses] == [("QS", 0.75), ("QC", 0.25)]
    assert turns == pytest.approx((0.875, 0.0, 0.125, 0.0))


def test_a_classifier_without_orientations_gives_none() -> None:
    from blackcat.games.cards import ALL_CARDS
    from blackcat.vision.classes import parse_class_name
    from blackcat.vision.reader import class_tables, summarise

    classes = [parse_class_name(card.code) for card in ALL_CARDS]
    probabilities = np.full(len(classes), 1 / len(classes))
    _, index_probability, turns = summarise(probabilities, class_tables(classes), top=3)
    assert index_probability == pytest.approx(1.0) and turns == ()


def small_in_a_large_frame(image: np.ndarray, share: float) -> np.ndarray:
    """The photo shrunk to `share` of the width of a 4000×3000 table, off its centre."""
    canvas = np.full((3000, 4000, 3), (90, 110, 80), dtype=np.uint8)
    width = round(4000 * share)
    height = round(image.shape[0] * width / image.shape[1])
    canvas[800 : 800 + height, 1200 : 1200 + width] = cv2.resize(
        image, (width, height), interpolation=cv2.INTER_AREA
    )
    return canvas


@pytest.mark.parametrize("share", [0.35, 0.25, 0.2])  # indices 2.3%, 1.6%, 1.3% of the short side
def test_piles_small_in_the_frame_are_found_by_a_second_pass(
    reader: CardReader, share: float
) -> None:
    example = Path(__file__).parents[2] / "app" / "example.json"
    table = small_in_a_large_frame(load_image(example.with_suffix(".jpg")), share)
    read = reader.read(table)
    assert reader.timings.stages["second pass"] > 0
    assert [[card.card.code for card in pile] for pile in read.piles] == truth(example)


def test_indices_the_detector_sees_large_need_no_second_pass(reader: CardReader) -> None:
    *_, second_pass = reader.detect(load_image(DATA / "scene_2.jpg"))  # indices about 32 px
    assert second_pass == 0
    *_, second_pass = reader.detect(load_image(DATA / "scene_1.jpg"))  # about 19 px: again
    assert second_pass > 0


def test_the_timings_of_a_photo_add_up_every_read_it_took(reader: CardReader) -> None:
    from blackcat.vision.reader import Timings, summed_timings

    first = Timings({"detect": 0.02, "classify": 0.01}, 0.04, turned=1)
    stretched = Timings({"detect": 0.03, "layout": 0.005}, 0.05)
    both = summed_timings([first, stretched])
    assert both.stages == pytest.approx({"detect": 0.05, "classify": 0.01, "layout": 0.005})
    assert (both.total, both.turned, both.reads) == (pytest.approx(0.09), 1, 2)
    # a small photo: read at each searched stretch, then smoothed as it is (and at the stretch
    # kept, where one was)
    reader.read(load_image(DATA / "scene_1.jpg"))  # its cards stand square: not read turned
    assert reader.timings.reads - (1 + len(SEARCHED_STRETCHES)) in (1, 2)
    assert reader.timings.total > 0
    reader.warm_up()  # a tiny photo read once: the models' set-up is all it is for
    assert reader.timings.reads == 1


def test_a_small_photos_reads_side_by_side_read_as_one_after_another(
    reader: CardReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    from blackcat.vision import reader as reader_module

    photo = load_image(DATA / "scene_2.jpg")  # read at each searched stretch, then smoothed
    side_by_side = reader.read(photo)
    monkeypatch.setattr(
        reader_module, "parallel_map", lambda work, items: [work(item) for item in items]
    )
    one_after_another = reader.read(photo)
    assert reader.timings.reads > 1 + len(SEARCHED_STRETCHES)
    assert side_by_side == one_after_another


def test_the_second_pass_looks_round_what_the_first_found() -> None:
    from blackcat.vision.reader import second_pass_plan

    boxes = np.array([[1000, 1000, 1010, 1020], [1100, 1000, 1110, 1020]], dtype=float)
    region, size = second_pass_plan(boxes, np.array([2.5, 2.5]), (4000, 3000), 512)
    # few found: round them as wide a region as 1536 px show with 24 px indices (1280 px long)
    assert region == (415, 415, 1696, 1606)
    assert size == 1280  # the region at full resolution (to the stride): 24 px indices need more
    one = np.array([[100, 100, 110, 120]], dtype=float)
    assert second_pass_plan(one, np.array([2.5]), (800, 600), 512)[0] == (0, 0, 741, 600)  # clipped
    row = np.array([[1000 + 30 * n, 1000, 1010 + 30 * n, 1020] for n in range(8)], dtype=float)
    region, _ = second_pass_plan(row, np.full(8, 2.5), (4000, 3000), 512)
    assert region == (920, 920, 1301, 1101)  # a whole row found: four index heights
    assert second_pass_plan(boxes, np.array([30.0, 30.0]), (4000, 3000), 512) is None


def test_no_second_pass_where_it_would_see_the_indices_barely_larger() -> None:
    from blackcat.vision.reader import second_pass_plan

    def row(height: float) -> np.ndarray:
        # eight indices across a 4000 px photo, `height` photo pixels tall
        return np.array([[200 + 450 * n, 1000, 260 + 450 * n, 1000 + height] for n in range(8)])

    # 164 px indices stand 21 px tall at 512 px: a second pass at 576 px would see them 1.125x
    assert second_pass_plan(row(164), np.full(8, 21.0), (4000, 3000), 512) is None
    # 117 px ones stand 15 px tall: a second pass sees them 24 px tall, 1.56x
    region, size = second_pass_plan(row(117), np.full(8, 15.0), (4000, 3000), 512)
    assert region == (0, 532, 3879, 1586) and size == 768
    # fewer than eight found: the rest may lie beyond them, so the pass still looks round them
    assert second_pass_plan(row(164)[:3], np.full(3, 21.0), (4000, 3000), 512) is not None
    # a frame the first pass barely shrank: the second sees its own pixels, finer
    small_frame = row(164) / 5.0  # the same row in an 800 x 600 frame, 21 px tall at 512 px
    assert second_pass_plan(small_frame, np.full(8, 21.0), (800, 600), 512) is not None


def test_a_photo_where_nothing_was_found_is_searched_whole_at_a_higher_resolution() -> None:
    from blackcat.vision.reader import SECOND_PASS_MAX_SIZE, second_pass_plan

    none = np.zeros((0, 4))
    assert second_pass_plan(none, np.zeros(0), (4000, 3000), 512) == (
        (0, 0, 4000, 3000),
        SECOND_PASS_MAX_SIZE,
    )
    assert second_pass_plan(none, np.zeros(0), (500, 400), 512) is None  # all seen already


def test_the_second_pass_wins_where_both_passes_saw_an_index() -> None:
    from blackcat.vision.reader import not_overlapped

    second = np.array([[10, 10, 20, 30]], dtype=float)
    first = np.array([[11, 9, 21, 31], [100, 100, 110, 120]], dtype=float)
    assert not_overlapped(first, second) == [1]  # only the box the second pass did not see
    assert not_overlapped(first, np.zeros((0, 4))) == [0, 1]


@pytest.mark.parametrize(
    "sides", [("near", "far"), ("near", "left", "right"), ("near", "left", "far", "right")]
)
def test_a_photo_of_the_whole_table_reads_each_players_piles_from_their_side(
    reader: CardReader, sides: tuple[str, ...]
) -> None:
    photos = dict(zip(sides, [EXAMPLE, *SCENES], strict=False))
    read = reader.read(a_whole_table(photos), decks=2)
    want = [(side, pile) for side in sides for pile in truth(photos[side])]
    assert [read.side_of(n) for n in range(len(read.piles))] == [side for side, _ in want]
    for pile, (_, wanted) in zip(read.piles, want, strict=True):
        codes = [card.card.code for card in pile]
        assert [code for code in codes if code in wanted] == wanted
        # anything else is flagged for the player to check, never silently counted
        assert all(card.doubtful for card in pile if card.card.code not in wanted)
    flagged = sum(card.doubtful for pile in read.piles for card in pile)
    assert flagged <= 0.1 * read.card_count  # flags keep their meaning (issue 27: <= 10%)
    assert [side for side, _ in read.seats()] == list(sides)


def test_a_glyph_read_in_a_turned_crop_stands_as_it_does_in_the_photo() -> None:
    from blackcat.vision.reader import turned_glyphs

    upright_in_crop = ((), 1.0, (0.7, 0.1, 0.1, 0.1))
    # a crop turned a quarter anticlockwise made upright a glyph whose top points right
    assert turned_glyphs(upright_in_crop, 1)[2] == (0.1, 0.7, 0.1, 0.1)
    assert turned_glyphs(upright_in_crop, 2)[2] == (0.1, 0.1, 0.7, 0.1)
    assert turned_glyphs(upright_in_crop, 0) == upright_in_crop


def test_hints_far_apart_make_separate_places_and_a_lone_hint_none() -> None:
    from blackcat.vision.reader import hint_groups

    row = np.array([[100 + 20 * n, 100, 110 + 20 * n, 120] for n in range(4)], dtype=float)
    far_row = np.add(row, [0, 2000, 0, 2000])
    lone = np.array([[3000.0, 100, 3010, 120]])
    places = hint_groups(np.concatenate([row, far_row, lone]), np.zeros((0, 4)))
    assert sorted(len(place) for place in places) == [4, 4]
    # a lone hint that the first pass was sure of is a place too
    assert len(hint_groups(np.concatenate([row, lone]), lone)) == 2


def test_a_far_piles_small_hints_are_a_place_apart_from_the_near_piles_large_indices() -> None:
    from blackcat.vision.reader import hint_groups

    near = np.array([[100 + 40 * n, 1000, 130 + 40 * n, 1060] for n in range(4)], dtype=float)
    far = np.array([[150 + 12 * n, 720, 158 + 12 * n, 732] for n in range(5)], dtype=float)
    places = hint_groups(np.concatenate([near, far]), near)
    assert sorted(len(place) for place in places) == [4, 5]


def test_a_place_of_small_indices_is_searched_enlarged_to_see_them_tall_enough() -> None:
    from blackcat.vision.reader import SIDE_INDEX_PIXELS, enlarge, region_plan

    boxes = np.array([[100.0, 100, 106, 112], [120, 100, 126, 112]])  # 12 px glyphs
    region, size = region_plan(boxes, (1600, 1200), 512, SIDE_INDEX_PIXELS, None, 2.0)
    x1, y1, x2, y2 = region
    assert size == 2 * max(x2 - x1, y2 - y1) // 32 * 32  # enlarged twice, no more
    grown, factor = enlarge(np.zeros((10, 20, 3), np.uint8), 40)
    assert grown.shape == (20, 40, 3) and factor == 2.0


@pytest.mark.parametrize("stretch", [False, True])
def test_a_part_enlarged_or_a_photo_stretched_keeps_a_thin_stroke_sharp(stretch: bool) -> None:
    from PIL import Image

    from blackcat.vision.reader import enlarge, stretched_copy

    part = np.full((16, 16, 3), 255, np.uint8)
    part[:, 7:9] = 0
    grown = stretched_copy(part, (64, 16)) if stretch else enlarge(part, 64)[0]
    size = (grown.shape[1], grown.shape[0])
    blurred = np.asarray(Image.fromarray(part).resize(size, Image.Resampling.BILINEAR))
    steepest = [
        int(np.abs(np.diff(image[8, :, 0].astype(int))).max()) for image in (grown, blurred)
    ]
    assert steepest[0] > steepest[1]


@pytest.mark.parametrize("across", [True, False])
def test_a_photo_squeezed_along_one_axis_reads_as_it_was_taken(
    reader: CardReader, across: bool
) -> None:
    # a frame resized to half its width (as a wide webcam frame squeezed into a square) reads
    # wrong as it is; stretched back it reads right, its boxes in the squeezed photo
    example = Path(__file__).parents[2] / "app" / "example.json"
    image = load_image(example.with_suffix(".jpg"))
    height, width = image.shape[:2]
    size = (width // 2, height) if across else (width, height // 2)
    squeezed = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    read = reader.read(squeezed)
    assert [[card.card.code for card in pile] for pile in read.piles] == truth(example)
    assert (read.width, read.height) == size
    boxes = np.array([index.box for pile in read.piles for card in pile for index in card.indices])
    assert boxes[:, [0, 2]].max() <= size[0] and boxes[:, [1, 3]].max() <= size[1]
    assert boxes.min() >= -1


def sure_read(size: tuple[int, int], sure: int, unsure: int = 0) -> PhotoRead:
    """A read of a photo of `size` with `sure` cards read surely and `unsure` flagged."""
    cards = tuple(
        ReadCard(Card.parse("7H"), (10.0 * n, 10.0, 10.0 * n + 8, 20.0), probability, (), ())
        for n, probability in enumerate([0.99] * sure + [0.2] * unsure)
    )
    return PhotoRead(size[0], size[1], (cards,))


def stretched_square(long_side: int, across: float) -> tuple[int, int]:
    """The size a square photo is read at stretched `across` (`CardReader._read_stretched`)."""
    square = (long_side, long_side)
    return stretched_size(square, (across, 1.0), max(long_side, STRETCHED_LONGEST))


@pytest.mark.parametrize(("long_side", "searched"), [(640, True), (1600, True), (2400, False)])
def test_a_small_photo_is_read_again_with_the_usual_squeezes_undone_keeping_the_surest(
    reader: CardReader, monkeypatch: pytest.MonkeyPatch, long_side: int, searched: bool
) -> None:
    # the photo read as it is is sure of one card; stretched 16:9 across (a wide frame resized
    # to a square), of three; at the other stretches of one or two
    seen: list[tuple[int, int]] = []
    surest = stretched_square(long_side, 16 / 9)

    def read_as(photo: Any, smoothed: bool = False, **_: Any) -> PhotoRead:
        if not smoothed:
            seen.append(photo.size)
        sure = {surest: 3, stretched_square(long_side, 4 / 3): 2}.get(photo.size, 1)
        return sure_read(photo.size, sure, unsure=2)

    monkeypatch.setattr(reader, "_read", read_as)
    read = reader.read(np.zeros((long_side, long_side, 3), np.uint8))
    assert (read.width, read.height) == (long_side, long_side)
    if not searched:
        assert seen == [(long_side, long_side)]
        assert sum(not card.doubtful for card in read.piles[0]) == 1
        return
    assert len(seen) == 5 and surest in seen
    assert sum(not card.doubtful for card in read.piles[0]) == 3
    # its boxes back in the photo as it is: squeezed across again
    assert read.piles[0][1].box[0] == pytest.approx(10.0 * long_side / surest[0])


@pytest.mark.parametrize(
    ("long_side", "smoothed_sure", "smoothed_unsure", "sure_kept"),
    [
        (640, 5, 2, 5),  # likelier right, as many cards or more: kept
        (640, 4, 0, 3),  # likelier right, but fewer cards: smoothing lost some, not kept
        (1600, 5, 2, 3),  # a larger photo is searched but never read smoothed
    ],
)
def test_a_small_photo_is_read_again_smoothed_where_that_reads_it_likelier_right(
    reader: CardReader,
    monkeypatch: pytest.MonkeyPatch,
    long_side: int,
    smoothed_sure: int,
    smoothed_unsure: int,
    sure_kept: int,
) -> None:
    from blackcat.vision.reader import SMOOTHED_UP_TO

    # the read kept before smoothing: stretched 16:9 across, three cards sure and two flagged;
    # smoothed at that stretch it reads `smoothed_sure` and `smoothed_unsure`, as it is none
    surest = stretched_square(long_side, 16 / 9)
    smoothed_seen: list[tuple[int, int]] = []

    def read_as(photo: Any, smoothed: bool = False, **_: Any) -> PhotoRead:
        if not smoothed:
            return sure_read(photo.size, 3 if photo.size == surest else 1, unsure=2)
        smoothed_seen.append(photo.size)
        if photo.size != surest:
            return sure_read(photo.size, 0, unsure=2)
        return sure_read(photo.size, smoothed_sure, unsure=smoothed_unsure)

    monkeypatch.setattr(reader, "_read", read_as)
    read = reader.read(np.full((long_side, long_side, 3), 230, np.uint8))  # lit well
    assert sum(not card.doubtful for card in read.piles[0]) == sure_kept
    assert (read.width, read.height) == (long_side, long_side)
    if long_side > SMOOTHED_UP_TO:
        assert smoothed_seen == []
    else:
        # the stretch kept and as it is (side by side: in either order)
        assert sorted(smoothed_seen) == sorted([surest, (long_side, long_side)])


def test_smoothed_reads_are_for_a_small_photo_of_one_players_piles_not_smoothed_yet() -> None:
    from blackcat.vision.reader import SMOOTHED_UP_TO, smoothed_reads

    one_player = sure_read((640, 480), 3)
    table = read_of(("near", "5S 3D 2H", 0.99), ("far", "KC JS AH", 0.99))
    assert table.whole_table and not one_player.whole_table
    wide = (16 / 9, 1.0)
    lit_well = np.full((480, 640, 3), 230, np.uint8)
    dim = np.full((480, 640, 3), 60, np.uint8)  # brightened for the detector: seen smoothed
    assert smoothed_reads(one_player, 640, None, lit_well) == (None,)
    assert smoothed_reads(one_player, 640, wide, lit_well) == (wide, None)
    assert smoothed_reads(one_player, SMOOTHED_UP_TO, None, lit_well) == (None,)
    assert smoothed_reads(one_player, SMOOTHED_UP_TO + 1, None, lit_well) == ()
    assert smoothed_reads(one_player, 640, None, dim) == ()  # its light had it smoothed
    assert smoothed_reads(table, 640, None, lit_well) == ()


@pytest.mark.parametrize(("long_side", "seen_smoothed"), [(640, True), (1600, False)])
def test_the_detector_sees_a_small_clean_photo_smoothed_too(
    long_side: int, seen_smoothed: bool
) -> None:
    from blackcat.vision.reader import ReaderSettings

    clean = np.full((long_side, long_side, 3), 230, np.uint8)
    speck = long_side // 320  # two pixels across where the detector sees them (640 px)
    specks = range(4 * speck, long_side - 4 * speck, 8 * speck)
    for y in specks:
        for x in specks:
            clean[y : y + speck, x : x + speck] = 0  # speckle, in a photo lit well
    detector = RecordingDetector()
    reader = CardReader(detector, ScriptedClassifier([]), ReaderSettings(detect_size=640))  # type: ignore[arg-type]
    reader.read(clean)
    # finding nothing, it looks at the photo's negative too (dark pictures), and a small photo
    # is searched stretched (resized pictures, their specks blurred)
    as_it_is = [
        picture
        for picture in detector.pictures
        if picture.shape[:2] == (640, 640) and np.median(picture) > 128
    ]
    speckled = [bool((picture < 100).any()) for picture in as_it_is]
    assert speckled[0]  # as it is, first
    assert (not all(speckled)) is seen_smoothed


def test_the_suit_shape_classifier_is_loaded_only_for_a_photo_whose_colours_tell_no_suit(
    tmp_path: Path,
) -> None:
    from blackcat.vision.onnx_models import LazyOnnxClassifier
    from blackcat.vision.reader import SUIT_CLASSIFIER_FILE

    reader = CardReader.load()
    assert isinstance(reader.suit_classifier, LazyOnnxClassifier)
    photo = load_image(EXAMPLE.with_suffix(".jpg"))
    reader.read(photo)
    assert not reader.suit_classifier.is_loaded
    grey = photo.astype(np.float32).mean(axis=2)
    reader.read(np.repeat((255 - grey).astype(np.uint8)[..., None], 3, axis=2))
    assert reader.suit_classifier.is_loaded
    for model in MODELS_DIR.glob("*.*"):
        if model.name != SUIT_CLASSIFIER_FILE:
            (tmp_path / model.name).symlink_to(model)
    assert CardReader.load(tmp_path).suit_classifier is None  # suits read from tinted copies


def test_a_model_loaded_on_first_use_found_damaged_then_is_told_as_at_load(
    tmp_path: Path,
) -> None:
    from damaged_models import models_with_one_cut_short, save_light_on_dark

    from blackcat.vision.reader import MODELS_DAMAGED_ELSEWHERE

    models = models_with_one_cut_short(tmp_path / "models", "suit_classifier.onnx")
    reader = CardReader.load(models)  # loaded when first needed: nothing to see yet
    dark = save_light_on_dark(EXAMPLE.with_suffix(".jpg"), tmp_path / "dark.jpg")
    with pytest.raises(ModelsMissingError) as raised:
        reader.read(open_photo(dark))
    damaged = models / "suit_classifier.onnx"  # not the bundled models/: not "restore models/"
    assert str(raised.value) == MODELS_DAMAGED_ELSEWHERE.format(files=damaged)
    assert sum(map(len, reader.read(open_photo(EXAMPLE.with_suffix(".jpg"))).piles)) == 20


def test_a_deck_printed_in_one_light_ink_on_dark_faces_is_read_by_the_suits_shapes(
    reader: CardReader,
) -> None:
    # white ink on black faces, red suits as white as black ones: each photo's grey negative
    # (read by colour, the hearts came out as clubs and the diamonds as spades)
    right = wrong_unflagged = flagged = 0
    for meta_path in [*SCENES, EXAMPLE]:
        grey = load_image(meta_path.with_suffix(".jpg")).astype(np.float32).mean(axis=2)
        read = reader.read(np.repeat((255 - grey).astype(np.uint8)[..., None], 3, axis=2))
        wanted = truth(meta_path)
        assert [len(pile) for pile in read.piles] == [len(pile) for pile in wanted]
        for pile, wanted_pile in zip(read.piles, wanted, strict=True):
            for card, code in zip(pile, wanted_pile, strict=True):
                right += card.card.code == code
                wrong_unflagged += card.card.code != code and not card.doubtful
                flagged += card.doubtful
    cards = sum(len(pile) for meta_path in [*SCENES, EXAMPLE] for pile in truth(meta_path))
    assert right >= 0.95 * cards
    assert wrong_unflagged <= 1
    assert flagged <= 0.15 * cards


def test_suits_read_by_shape_trust_the_copy_in_the_ink_its_card_is_printed_in() -> None:
    from blackcat.vision.reader import suits_by_tint

    # classes: 2 of spades, 2 of hearts, no index (ALL_CARDS: spades from 0, hearts from 13)
    tables = (np.array([1, 14, -1]), np.array([-1, -1, -1]))
    heart_in_black, heart_in_red = [0.87, 0.12, 0.01], [0.01, 0.99, 0.0]
    spade_in_black, spade_in_red = [0.999, 0.0, 0.001], [0.3, 0.7, 0.0]
    both_sure_in_black, both_sure_in_red = [0.99, 0.01, 0.0], [0.01, 0.99, 0.0]
    read = suits_by_tint(
        np.array([heart_in_black, spade_in_black, both_sure_in_black]),
        np.array([heart_in_red, spade_in_red, both_sure_in_red]),
        tables,
    )
    assert read[0].argmax() == 1 and read[0, 1] > 0.9  # the heart
    assert read[1].argmax() == 0 and read[1, 0] > 0.99  # the spade
    assert read[2, :2].max() < 0.6  # no copy surer than the other: in doubt
    assert np.allclose(read.sum(axis=1), 1.0)


def test_suits_read_by_shape_need_the_card_in_its_ink_and_the_suits_shape_to_agree() -> None:
    from blackcat.vision.reader import suits_from_shape

    # classes: 9S up, 9H up, 6S upside down, 6H upside down, no index (ALL_CARDS: spades from
    # 0, hearts from 13)
    tables = (np.array([8, 21, 5, 18, -1]), np.array([0, 0, 2, 2, -1]))
    # a 9 of hearts printed in one ink: in black the card classifier takes its heart for an
    # upside-down spade (so the 9 for a 6); in red it reads it right
    in_black = np.array([[0.2, 0.05, 0.6, 0.05, 0.1]])
    in_red = np.array([[0.0, 0.85, 0.0, 0.1, 0.05]])
    suits = np.array([[0.05, 0.9, 0.03, 0.02]])  # S H D C
    read = suits_from_shape(in_black, in_red, suits, tables, ["S", "H", "D", "C"])
    assert read[0].argmax() == 1 and read[0, 1] > 0.8  # 9H up
    # the spades as the black copy read them, the hearts as the red one did
    assert read[0, 2] / read[0, 0] == pytest.approx(0.6 / 0.2)
    assert read[0, 3] / read[0, 1] == pytest.approx(0.1 / 0.85)
    assert read[0, 4] / read[0, 1] == pytest.approx((0.93 * 0.05 + 0.07 * 0.1) / (0.85 * 0.9))
    assert np.allclose(read.sum(axis=1), 1.0)
    # a court's club: the suit-shape classifier leans to the spade, the black copy surer of
    # the club
    tables = (np.array([12, 51]), np.array([0, 0]))  # KS up, KC up
    read = suits_from_shape(
        np.array([[0.3, 0.7]]),
        np.array([[0.5, 0.5]]),
        np.array([[0.55, 0.0, 0.0, 0.45]]),
        tables,
        ["S", "H", "D", "C"],
    )
    assert read[0].argmax() == 1


def reader_like(reader: CardReader, **changes: Any) -> CardReader:
    """A reader on `reader`'s models, settings and calibration, with `changes` (constructor
    arguments by name)."""
    kept = {
        "detector": reader.detector,
        "classifier": reader.classifier,
        "settings": reader.settings,
        "calibration": reader.calibration,
        "suit_classifier": reader.suit_classifier,
    }
    return CardReader(**(kept | changes))


def calls_recorded(
    monkeypatch: pytest.MonkeyPatch, owner: object, method: str
) -> list[tuple[tuple, dict]]:
    """The calls of `owner`'s `method` from now on (each its arguments and keyword arguments),
    the method doing as before."""
    calls: list[tuple[tuple, dict]] = []
    original = getattr(owner, method)

    def recorded(*args, **kwargs):
        calls.append((args, kwargs))
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, method, recorded)
    return calls


class CountingDetector:
    """A detector that counts the pictures it is shown."""

    def __init__(self, detector) -> None:
        self.detector = detector
        self.pictures = 0

    @property
    def trained_size(self) -> int:
        return self.detector.trained_size

    def detect(self, picture: np.ndarray, size: int, confidence: float):
        self.pictures += 1
        return self.detector.detect(picture, size, confidence)


def test_the_table_detector_searches_a_whole_tables_places_and_nothing_else(
    reader: CardReader,
) -> None:
    table_detector = CountingDetector(reader.detector)
    both = reader_like(reader, table_detector=table_detector)
    one_player = both.read(load_image(EXAMPLE.with_suffix(".jpg")))
    assert table_detector.pictures == 0
    assert [[card.card.code for card in pile] for pile in one_player.piles] == truth(EXAMPLE)
    photos = {"near": EXAMPLE, "far": SCENES[0]}
    table = both.read(a_whole_table(photos), decks=2)
    assert table_detector.pictures > 0
    assert [side for side, _ in table.seats()] == ["near", "far"]


def test_a_tables_doubt_threshold_flags_a_whole_tables_cards_and_nothing_else(
    reader: CardReader,
) -> None:
    doubt_everything = reader_like(reader, table_doubtful_below=1.01)
    assert doubt_everything.table_calibration() == replace(
        reader.calibration, doubtful_below=1.01
    )  # the one-player probabilities, the table's own threshold
    assert reader_like(reader).table_calibration() == reader.calibration  # none chosen
    example = load_image(EXAMPLE.with_suffix(".jpg"))
    assert doubt_everything.read(example) == reader_like(reader).read(example)
    table = doubt_everything.read(a_whole_table({"near": EXAMPLE, "far": SCENES[0]}), decks=2)
    cards = [card for pile in table.piles for card in pile]
    assert cards and all(card.doubtful for card in cards)


class CountingClassifier:
    """A classifier that counts the crops it is shown."""

    def __init__(self, classifier) -> None:
        self.classifier = classifier
        self.crops = 0

    @property
    def names(self) -> tuple[str, ...]:
        return self.classifier.names

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        self.crops += len(crops)
        return self.classifier.probabilities(crops)


def test_a_table_classifier_reads_a_whole_table_from_the_start_and_nothing_else(
    reader: CardReader,
) -> None:
    card_classifier = CountingClassifier(reader.classifier)
    table_classifier = CountingClassifier(reader.classifier)
    detector = CountingDetector(reader.detector)
    both = reader_like(
        reader,
        detector=detector,
        classifier=card_classifier,
        table_classifier=table_classifier,
    )
    example = load_image(EXAMPLE.with_suffix(".jpg"))
    assert both.read(example) == reader_like(reader).read(example)
    assert table_classifier.crops == 0
    card_classifier.crops, detector.pictures = 0, 0
    photo = a_whole_table({"near": EXAMPLE, "far": SCENES[0]})
    table = both.read(photo, decks=2)
    alone_detector = CountingDetector(reader.detector)
    alone = reader_like(reader, detector=alone_detector).read(photo, decks=2)
    assert table == alone  # the same weights in both
    assert [side for side, _ in table.seats()] == ["near", "far"]
    # the card classifier read the first look's crops alone; the table classifier the rest.
    # The table reader's searches that the first look made alike were not made again
    # (`SearchDone`): with the same weights, none
    assert 0 < card_classifier.crops < table_classifier.crops
    assert detector.pictures == alone_detector.pictures
    assert "first look" in both.timings.stages


def test_a_photos_searches_are_kept_with_it_and_made_once(reader: CardReader) -> None:
    detector = CountingDetector(reader.detector)
    counted = reader_like(reader, detector=detector)
    photo = Photo.from_array(load_image(EXAMPLE.with_suffix(".jpg")))
    first = counted._read(photo, decks=1, players=None)
    searched = detector.pictures
    assert searched > 0
    assert counted._read(photo, decks=1, players=None) == first
    assert detector.pictures == searched  # each view found searched already
    again = Photo.from_array(load_image(EXAMPLE.with_suffix(".jpg")))
    assert counted._read(again, decks=1, players=None) == first
    assert detector.pictures == 2 * searched  # another photo: its own searches


def test_a_whole_table_the_table_reader_read_as_it_is_it_reads_stretched_too(
    reader: CardReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    # as that reader alone would read the photo: a table's stretched read is weighed against
    # the one as it is side by side (`each_side_from_the_surer`)
    both = reader_like(reader, table_classifier=reader.classifier)
    table_reader = both.table_reader
    assert table_reader is not None
    reads = calls_recorded(monkeypatch, table_reader, "_timed_read")
    table = a_whole_table({"near": EXAMPLE, "far": SCENES[0]})
    height, width = table.shape[:2]
    squeezed = cv2.resize(table, (width // 2, height), interpolation=cv2.INTER_AREA)
    read = both.read(squeezed, decks=2)
    assert read.whole_table
    assert any(args[1] is not None for args, _ in reads)  # (photo, stretch)


def test_the_table_classifier_is_loaded_only_for_a_whole_table(tmp_path: Path) -> None:
    from blackcat.vision.onnx_models import LazyOnnxClassifier
    from blackcat.vision.reader import TABLE_CLASSIFIER_FILE

    for model in MODELS_DIR.glob("*.*"):
        (tmp_path / model.name).symlink_to(model)
    reader = CardReader.load(tmp_path)
    table_classifier = reader.table_classifier
    assert isinstance(table_classifier, LazyOnnxClassifier)
    reader.read(load_image(EXAMPLE.with_suffix(".jpg")))
    assert not table_classifier.is_loaded
    reader.read(a_whole_table({"near": EXAMPLE, "far": SCENES[0]}), decks=2)
    assert table_classifier.is_loaded
    assert reader.table_reader is not None and reader.table_reader.classifier is table_classifier
    (tmp_path / TABLE_CLASSIFIER_FILE).unlink()
    assert CardReader.load(tmp_path).table_reader is None  # the card classifier reads tables


def test_a_reader_without_a_table_detector_searches_tables_with_its_own(
    reader: CardReader,
) -> None:
    assert CardReader(reader.detector, reader.classifier).table_detector is reader.detector


class ScriptedClassifier:
    """A classifier that answers each call with the next of its scripted answers (a card and
    its probability per crop, the rest on a second card), and keeps how many crops each call
    showed it."""

    def __init__(self, answers: list[list[tuple[str, float, str]]]) -> None:
        from blackcat.vision.classes import all_class_names

        self.names = tuple(all_class_names())
        self.answers = answers
        self.calls: list[int] = []

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        answer = self.answers[len(self.calls)]
        self.calls.append(len(crops))
        rows = np.zeros((len(crops), len(self.names)))
        for row, (card, probability, other) in zip(rows, answer * len(crops), strict=False):
            row[self.names.index(f"{card}-0")] = probability
            row[self.names.index(other if other == NOT_AN_INDEX else f"{other}-0")] = (
                1 - probability
            )
        return rows


def test_an_unsure_index_is_read_again_from_crops_cut_a_little_differently() -> None:
    from blackcat.vision.reader import SECOND_LOOKS, ReaderSettings

    white = np.full((200, 200, 3), 255, np.uint8)
    boxes = [(10.0, 10.0, 30.0, 40.0), (100.0, 100.0, 120.0, 130.0)]
    # the first crop is read 5H at 0.55 (unsure), the second KS (sure); the other cuts of the
    # first see a 6H
    script = [[("5H", 0.55, "6H"), ("KS", 1.0, "QS")], [("6H", 0.9, "5H")]]
    classifier = ScriptedClassifier(script)
    reader = CardReader(object(), classifier, ReaderSettings(detect_size=512, deskew=False))  # type: ignore[arg-type]
    (five, _, _), (king, _, _) = reader.classify(white, boxes)
    assert classifier.calls == [2, len(SECOND_LOOKS)]  # the sure one is not read again
    assert (five[0].card.code, king[0].card.code) == ("6H", "KS")
    assert five[0].probability == pytest.approx((0.45 + 0.9 * len(SECOND_LOOKS)) / 5)

    classifier = ScriptedClassifier(script)
    reader = CardReader(
        object(), classifier, ReaderSettings(detect_size=512, deskew=False, second_looks=False)
    )  # type: ignore[arg-type]
    (five, _, _), _ = reader.classify(white, boxes)
    assert classifier.calls == [2] and five[0].card.code == "5H"


def test_hints_no_part_of_their_place_covers_are_searched_as_a_place_of_their_own() -> None:
    from blackcat.vision.image_io import as_photo
    from blackcat.vision.reader import PLACE_CONFIDENCE, ReaderSettings

    photo = as_photo(np.full((3000, 4000, 3), 255, np.uint8))
    near = np.array([[1000 + 60 * n, 2000, 1040 + 60 * n, 2080] for n in range(6)], dtype=float)
    far_pile = np.array([[1800 + 25 * n, 900, 1815 + 25 * n, 930] for n in range(5)], dtype=float)
    covered = [(900, 1700, 1500, 2400)]  # the near piles' part of the place
    place = np.concatenate([near, far_pile])
    classifier = ScriptedClassifier([[("9C", 1.0, "8C")]])
    reader = CardReader(object(), classifier, ReaderSettings(detect_size=512))  # type: ignore[arg-type]
    (plan,) = reader._left_over_plans(photo, NO_FIX, [place], near, covered, 512)
    assert classifier.calls == [len(far_pile)]  # the far pile's hints read for their turn
    x1, y1, x2, y2 = plan.region
    assert x1 <= 1800 and x2 >= 1915 and y1 <= 900 and y2 >= 930 and y2 < 1700
    assert plan.size * 30 / max(x2 - x1, y2 - y1) >= 20  # its indices seen tall enough
    assert plan.confidence == PLACE_CONFIDENCE and plan.others == tuple(covered)

    # hints that read as no index (pips, a card back's pattern) make no place
    classifier = ScriptedClassifier([[("9C", 0.1, NOT_AN_INDEX)]])
    reader = CardReader(object(), classifier, ReaderSettings(detect_size=512))  # type: ignore[arg-type]
    assert reader._left_over_plans(photo, NO_FIX, [place], near, covered, 512) == []


def test_a_sides_second_read_keeps_what_it_finds_nearer_its_own_indices_than_anothers() -> None:
    from blackcat.games.cards import Card
    from blackcat.vision.image_io import as_photo
    from blackcat.vision.reader import ReaderSettings
    from blackcat.vision.types import Guess, IndexRead

    def index(box: tuple[float, float, float, float], code: str) -> IndexRead:
        return IndexRead(box, 0.9, (Guess(Card.parse(code), 0.99),))

    own = [index((100, 100, 120, 130), "5H")]
    others = [index((400, 100, 420, 130), "KS")]  # another side's pile
    next_to_own, next_to_theirs = (140.0, 100, 160, 130), (360.0, 100, 380, 130)
    found = np.array([next_to_own, next_to_theirs, others[0].box])
    classifier = ScriptedClassifier([[("6H", 1.0, "5H")]])
    reader = CardReader(object(), classifier, ReaderSettings(detect_size=512))  # type: ignore[arg-type]
    photo = as_photo(np.full((600, 800, 3), 255, np.uint8))
    read = reader.read_side_again(photo, own, others, 0, NO_FIX, found, np.full(3, 0.9))
    assert sorted(index.box for index in read) == [own[0].box, next_to_own]


def test_a_side_seen_turned_is_searched_again_round_its_top_corners_seen_otherwise() -> None:
    from blackcat.games.cards import Card
    from blackcat.vision.reader import FEW_TO_TURN_BY, parts_to_read_again
    from blackcat.vision.types import Guess, IndexRead

    def indices(count: int, seen_turned: int, glyphs_turned: int) -> list[IndexRead]:
        guess = (Guess(Card.parse("5H"), 0.99),)
        turns = tuple(0.97 if turn == glyphs_turned else 0.01 for turn in range(4))
        box = (0.0, 0.0, 10.0, 20.0)
        return [IndexRead(box, 0.9, guess, 1.0, turns, seen_turned) for _ in range(count)]

    far_seen_turned, far_pile_seen_upright = indices(6, 2, 2), indices(FEW_TO_TURN_BY, 0, 2)
    far_bottom_corners = indices(FEW_TO_TURN_BY, 0, 0)
    own = {
        0: indices(5, 0, 0),
        1: indices(4, 1, 1) + indices(2, 0, 1),
        2: far_seen_turned + far_pile_seen_upright + far_bottom_corners,
        3: indices(5, 3, 3) + indices(FEW_TO_TURN_BY - 1, 0, 3),
    }
    parts = parts_to_read_again(own)
    # the near side always, whole; the far side round the top corners its search saw upright
    # alone, not round its bottom corners; the left and right sides, seen turned but for too
    # few to frame, not at all
    assert parts == [(0, own[0]), (2, far_pile_seen_upright)]
    own[1] = indices(2, 1, 1) + indices(3, 0, 1)  # most of the left side seen upright: all again
    assert parts_to_read_again(own)[1] == (1, own[1])


def test_a_box_in_two_places_spans_is_left_to_the_place_that_holds_it_most_closely() -> None:
    from blackcat.vision.reader import PassPlan

    far, side = (0, 0, 1000, 800), (700, 300, 900, 600)  # the far place reaches round a side's pile
    region = (0, 0, 1000, 1000)
    far_pass = PassPlan(region, 640, 2, (side,), span=far)
    side_pass = PassPlan(region, 640, 3, (far,), span=side)
    in_both, far_only = np.array([750.0, 400, 780, 440]), np.array([100.0, 100, 130, 140])
    assert far_pass.elsewhere(in_both) and not side_pass.elsewhere(in_both)
    assert not far_pass.elsewhere(far_only) and side_pass.elsewhere(far_only)
    # a pass with no span of its own (a single place's) leaves any box in another's span to it
    assert PassPlan(region, 640, 0, (side,)).elsewhere(in_both)


def test_the_other_cuts_never_make_an_index_of_what_its_own_crop_calls_none() -> None:
    from blackcat.vision.reader import ReaderSettings

    white = np.full((200, 200, 3), 255, np.uint8)
    script = [[("5H", 0.3, NOT_AN_INDEX)], [("5H", 1.0, "6H")]]
    classifier = ScriptedClassifier(script)
    reader = CardReader(object(), classifier, ReaderSettings(detect_size=512, deskew=False))  # type: ignore[arg-type]
    ((_, index_probability, _),) = reader.classify(white, [(10.0, 10.0, 30.0, 40.0)])
    assert classifier.calls == [1]  # a pip or a picture's edge, not looked at again
    assert index_probability == pytest.approx(0.3)


def test_a_light_inked_photos_negative_is_kept_where_its_indices_show_light_ink() -> None:
    # its own read counted light pips as cards of the wrong ink: 35 found against 24
    assert negative_taken(35, 24, light_ink=True, negative_light_ink=True)
    assert not negative_taken(10, 12, light_ink=True, negative_light_ink=False)
    # but not where it finds few of the cards the photo's own read found
    assert not negative_taken(31, 1, light_ink=True, negative_light_ink=True)
    assert negative_taken(0, 0, light_ink=True, negative_light_ink=True)


def test_a_photos_negative_is_looked_at_unless_it_reads_enough_cards_surely_in_dark_ink() -> None:
    from blackcat.games.cards import parse_card
    from blackcat.vision.colour import Printed

    def read_at(probability: float, count: int) -> list[IndexRead]:
        guess = Guess(parse_card("7S"), probability)
        return [IndexRead((0.0, 0.0, 10.0, 20.0), 0.9, (guess,)) for _ in range(count)]

    assert not negative_looked_at(Printed.DARK_ON_LIGHT, read_at(0.95, 8))
    # a dark-faced deck read as it is: its court cards' pictures show dark ink, read unsurely
    assert negative_looked_at(Printed.DARK_ON_LIGHT, read_at(0.6, 8))
    assert negative_looked_at(Printed.DARK_ON_LIGHT, read_at(0.95, 3))
    assert negative_looked_at(Printed.LIGHT_ON_DARK, read_at(0.95, 30))
    assert negative_looked_at(Printed.UNSURE, read_at(0.95, 30))


def test_another_photos_negative_must_find_more_and_show_light_ink_there() -> None:
    # a dark-faced deck first read as a few marks around it
    assert negative_taken(3, 50, light_ink=False, negative_light_ink=True)
    # a close-up of a plain deck: its negative reads pips as indices, on light paper
    assert not negative_taken(5, 8, light_ink=False, negative_light_ink=False)
    assert not negative_taken(5, 5, light_ink=False, negative_light_ink=True)


def a_card_at(code: str, box: tuple[float, float, float, float]) -> ReadCard:
    """A card read from one upright index in `box`."""
    guess = Guess(Card.parse(code), 0.99)
    index = IndexRead(box, 0.9, (guess,), 1.0, (0.97, 0.01, 0.01, 0.01))
    return ReadCard(guess.card, box, 0.99, (guess,), (index,))


def test_a_card_lost_between_two_of_a_piles_cards_is_read_where_its_index_must_lie() -> None:
    from blackcat.vision.reader import ReaderSettings

    white = np.full((100, 200, 3), 255, np.uint8)
    pile = (a_card_at("KS", (10.0, 10.0, 30.0, 40.0)), a_card_at("9C", (90.0, 12.0, 110.0, 42.0)))
    read = PhotoRead(200, 100, (pile,), gaps=((1,),))
    settings = ReaderSettings(detect_size=512, deskew=False, second_looks=False)

    def found(answer: tuple[str, float, str], photo_read: PhotoRead = read) -> list:
        # answered again for a read beyond the pile's ends (`cards_beyond_piles`), read twice
        classifier = ScriptedClassifier([[answer]] * 3)
        reader = CardReader(object(), classifier, settings)  # type: ignore[arg-type]
        return reader.cards_in_gaps(white, photo_read, NO_FIX, decks=1)

    [(up, index)] = found(("7H", 0.6, "8H"))  # read unsurely, yet an index
    assert up == 0 and index.in_gap and index.card.code == "7H"
    assert index.box == pytest.approx((50.0, 11.0, 70.0, 41.0))  # halfway between its neighbours
    assert found(("7H", 0.3, NOT_AN_INDEX)) == []  # most likely no index there
    assert found(("KS", 0.9, "8H")) == []  # a card the pile already holds
    # a gap after the last card is no gap between two: read a step on, where an unsure read is
    # the last card's face
    assert found(("7H", 0.6, "8H"), replace(read, gaps=((2,),))) == []
    far_smaller = (pile[0], a_card_at("9C", (90.0, 12.0, 96.0, 20.0)))
    assert found(("7H", 0.6, "8H"), replace(read, piles=(far_smaller,))) == []


def test_cards_lost_before_a_piles_first_card_are_read_a_step_before_it_each() -> None:
    from blackcat.vision.reader import ReaderSettings

    white = np.full((100, 300, 3), 255, np.uint8)
    pile = (
        a_card_at("KS", (130.0, 10.0, 150.0, 40.0)),
        a_card_at("9C", (170.0, 12.0, 190.0, 42.0)),
    )
    read = PhotoRead(300, 100, (pile,))
    settings = ReaderSettings(detect_size=512, deskew=False, second_looks=False)

    def found(*answers: tuple[str, float, str], photo_read: PhotoRead = read) -> list:
        # each step's crops are read once, then those likely indices five ways: both answered
        classifier = ScriptedClassifier([[answer] for answer in answers for _ in range(2)])
        reader = CardReader(object(), classifier, settings)  # type: ignore[arg-type]
        return reader.cards_in_gaps(white, photo_read, NO_FIX, decks=1)

    # one step (the first two cards' indices apart) before the first card, then another
    [(up, first), (_, second)] = found(
        ("7H", 0.6, "8H"), ("2D", 0.9, "3D"), ("4C", 0.2, NOT_AN_INDEX)
    )
    assert up == 0 and first.in_gap and (first.card.code, second.card.code) == ("7H", "2D")
    assert first.box == pytest.approx((90.0, 8.0, 110.0, 38.0))
    assert second.box == pytest.approx((50.0, 6.0, 70.0, 36.0))
    assert found(("7H", 0.3, NOT_AN_INDEX)) == []  # most likely the table
    table = ScriptedClassifier([[("7H", 0.3, NOT_AN_INDEX)]])
    CardReader(object(), table, settings).cards_in_gaps(white, read, NO_FIX, decks=1)  # type: ignore[arg-type]
    assert table.calls == [2]  # both crops (before and after the pile) read once, no more
    # sure enough of an index for a gap, where the layout says a card is missing, not beside a
    # pile (a cloth's pattern)
    assert found(("7H", 0.99, NOT_AN_INDEX)) == []
    assert found(("9C", 0.9, "8H")) == []  # a card the pile already holds
    # a card lost between the first two: their step is no step of the pile's (the one answer
    # scripted is the gap's; a read before the pile would find no answer left)
    classifier = ScriptedClassifier([[("7H", 0.6, "8H")]])
    reader = CardReader(object(), classifier, settings)  # type: ignore[arg-type]
    [(_, in_gap)] = reader.cards_in_gaps(white, replace(read, gaps=((1,),)), NO_FIX, decks=1)
    assert in_gap.box == pytest.approx((150.0, 11.0, 170.0, 41.0))
    at_the_edge = replace(read, piles=((a_card_at("KS", (30.0, 10.0, 50.0, 40.0)), pile[1]),))
    assert found(("7H", 0.6, "8H"), photo_read=at_the_edge) == []  # a step would leave the photo


def test_cards_lost_after_a_piles_last_card_are_read_only_surely_and_of_another_suit() -> None:
    from blackcat.vision.reader import ReaderSettings

    white = np.full((100, 300, 3), 255, np.uint8)
    # at the photo's left edge: no step before the first card stays in the photo
    pile = (a_card_at("KS", (10.0, 10.0, 30.0, 40.0)), a_card_at("9C", (50.0, 12.0, 70.0, 42.0)))
    read = PhotoRead(300, 100, (pile,))
    settings = ReaderSettings(detect_size=512, deskew=False, second_looks=False)

    def found(*answers: tuple[str, float, str]) -> list[str]:
        classifier = ScriptedClassifier([[answer] for answer in answers for _ in range(2)])
        reader = CardReader(object(), classifier, settings)  # type: ignore[arg-type]
        return [index.card.code for _, index in reader.cards_in_gaps(white, read, NO_FIX, 1)]

    # a step after the last card, then another
    assert found(("7H", 0.95, "8H"), ("2D", 1.0, "3D"), ("4S", 0.2, NOT_AN_INDEX)) == ["7H", "2D"]
    # the crop lies on the last card's face: an unsure read there is its pips or picture...
    assert found(("7H", 0.6, "8H")) == []
    # ...and so is a read of its suit, a 9C's clubs, then the 7H's hearts
    assert found(("4C", 1.0, "8H")) == []
    assert found(("7H", 0.95, "8H"), ("2H", 1.0, "3H")) == ["7H"]


class RecordingDetector:
    """A detector that finds nothing and keeps every picture it was shown."""

    trained_size = 512

    def __init__(self) -> None:
        self.pictures: list[np.ndarray] = []

    def detect(
        self, picture: np.ndarray, size: int, confidence: float
    ) -> tuple[np.ndarray, np.ndarray]:
        self.pictures.append(picture)
        return np.zeros((0, 4)), np.zeros(0)


@pytest.mark.parametrize("noisy", [True, False])
def test_the_detector_sees_a_noisy_photo_smoothed_as_it_is_brightened(noisy: bool) -> None:
    from blackcat.vision.colour import PixelFix
    from blackcat.vision.reader import ReaderSettings

    dim = np.full((1024, 1024, 3), 60, np.uint8)
    dim[::16, ::16] = 255  # hot pixels, as a dim sensor's
    detector = RecordingDetector()
    reader = CardReader(detector, ScriptedClassifier([]), ReaderSettings(detect_size=512))  # type: ignore[arg-type]
    reader.detect(dim, PixelFix(gains=(3.0, 3.0, 3.0), noisy=noisy))
    seen = detector.pictures[0]
    hot_pixels_left = bool((seen > 200).any())
    assert hot_pixels_left is not noisy
    assert int(np.median(seen)) == 180  # brightened either way


def test_a_table_read_as_it_is_stays_a_table_where_stretched_it_is_one_players_as_surely() -> None:
    table = read_of(("near", "5S 3D 2H", 0.99), ("right", "KC JS AH", 0.99))
    one_player = read_of(("near", "AH JS KC", 0.99), ("near", "5S 3D 2H", 0.99))
    assert as_it_is_or_stretched(table, one_player, 1, None) is table
    surer = read_of(("near", "AH JS KC 4D", 0.99), ("near", "5S 3D 2H", 0.99))
    assert as_it_is_or_stretched(table, surer, 1, None) is surer
    # one player's photo read as surely stretched: the stretched read, as before
    assert as_it_is_or_stretched(one_player, table, 1, None) is table


def test_a_stretched_read_sure_of_no_card_never_replaces_one_as_unsure() -> None:
    # cards fanned at 45 degrees stand about as wide as tall, so the photo measures squeezed
    # and is read again stretched: rf100 171810 turned 30 degrees read its three cards flagged,
    # and stretched nothing at all
    flagged = read_of(("near", "8C 7C 5C", 0.45))
    nothing = PhotoRead(100, 100, ())
    assert as_it_is_or_stretched(flagged, nothing, 1, None) is flagged
    assert as_it_is_or_stretched(flagged, read_of(("near", "8C 6C", 0.4)), 1, None) is flagged
    # as sure of at least one card: the stretched read, as before
    one_sure = read_of(("near", "8C", 0.99), ("near", "7C 5C", 0.45))
    stretched = read_of(("near", "8C 6C", 0.99))
    assert as_it_is_or_stretched(one_sure, stretched, 1, None) is stretched


def _hint_row(
    count: int, left: float, top: float, height: float, confidence: float = 0.3
) -> np.ndarray:
    """`count` index hints side by side, each `height` tall and half as wide, each followed by
    the detector's `confidence`."""
    width = height / 2
    return np.array(
        [
            [left + 1.5 * width * n, top, left + 1.5 * width * n + width, top + height, confidence]
            for n in range(count)
        ]
    )


def _card_at(x: float, y: float) -> ReadCard:
    card = Card.parse("QS")
    index = IndexRead((x - 5, y - 10, x + 5, y + 10), 0.9, (Guess(card, 0.99),))
    return ReadCard(card, index.box, 0.99, (Guess(card, 0.99),), (index,))


def test_a_group_of_hints_too_small_to_read_where_no_card_was_read_is_an_unread_place() -> None:
    from blackcat.vision.reader import UNREAD_MARGIN, unread_places

    hints = _hint_row(8, 100, 50, 10)  # a far pile's indices, 10 px tall
    nothing = PhotoRead(width=640, height=480, piles=())
    (place,) = unread_places(hints, nothing)
    margin = UNREAD_MARGIN * 10
    assert place == pytest.approx(
        (100 - margin, 50 - margin, hints[-1, 2] + 1 + margin, 60 + 1 + margin), abs=1
    )
    # a card read among them: the place was read
    assert unread_places(hints, replace(nothing, piles=((_card_at(120, 55),),))) == ()
    # a card read elsewhere leaves it unread
    assert len(unread_places(hints, replace(nothing, piles=((_card_at(500, 400),),)))) == 1


def test_few_hints_or_indices_large_enough_to_read_are_no_unread_place() -> None:
    from blackcat.vision.reader import UNREAD_BELOW_PIXELS, UNREAD_HINTS, unread_places

    nothing = PhotoRead(width=4000, height=3000, piles=())
    assert unread_places(_hint_row(UNREAD_HINTS - 1, 100, 50, 10), nothing) == ()
    # indices this tall were searched at full resolution: read as nothing, they are no index
    assert unread_places(_hint_row(12, 100, 50, UNREAD_BELOW_PIXELS + 5), nothing) == ()
    assert unread_places(np.zeros((0, 5)), nothing) == ()


def test_hints_the_detector_barely_believes_are_a_pattern_not_an_unread_place() -> None:
    from blackcat.vision.reader import UNREAD_CONFIDENCE, unread_places

    nothing = PhotoRead(width=378, height=504, piles=())
    carpet = _hint_row(20, 50, 50, 6, confidence=UNREAD_CONFIDENCE - 0.03)
    assert unread_places(carpet, nothing) == ()
    carpet[:3, 4] = UNREAD_CONFIDENCE + 0.05  # three hints the detector half believes
    assert len(unread_places(carpet, nothing)) == 1


def test_an_unread_place_stays_in_the_photo_and_follows_its_boxes_when_turned() -> None:
    from blackcat.vision.reader import unread_places

    read = PhotoRead(width=640, height=480, piles=())
    (place,) = unread_places(_hint_row(8, 2, 3, 10), read)
    assert place[0] == 0 and place[1] == 0  # clipped at the photo's edge
    from blackcat.vision.reader import turned_back

    turned = turned_back(replace(read, unread_places=(place,)), (480, 640), 1)
    assert len(turned.unread_places) == 1 and turned.unread_places != (place,)
    assert turned.width == 480 and turned.unsure


def test_still_unread_drops_a_place_where_a_kept_read_has_a_card() -> None:
    from blackcat.vision.reader import still_unread

    places = ((0.0, 0.0, 100.0, 100.0), (200.0, 0.0, 300.0, 100.0))
    read = PhotoRead(width=640, height=480, piles=((_card_at(250, 50),),), unread_places=places)
    assert still_unread(read) == places[:1]


def test_hints_much_smaller_than_the_indices_read_are_print_not_a_far_pile() -> None:
    from blackcat.vision.reader import UNREAD_OF_READ, unread_places

    near = tuple(
        ReadCard(card.card, box, 0.99, card.alternatives, (replace(card.indices[0], box=box),))
        for card, box in ((_card_at(300, 400), (290.0, 380.0, 305.0, 410.0)),)  # 30 px tall
    )
    read = PhotoRead(width=640, height=480, piles=(near,))
    small_print = _hint_row(10, 50, 50, 30 * UNREAD_OF_READ - 3)
    assert unread_places(small_print, read) == ()
    far_pile = _hint_row(10, 50, 50, 30 * UNREAD_OF_READ + 1)
    assert len(unread_places(far_pile, read)) == 1


def test_the_ink_of_a_large_photos_indices_is_told_where_they_stand_many_pixels_tall() -> None:
    """A 12 MP photo's indices of 40 px are 5 px in the detector's copy: too few to tell light
    ink on a dark face from dark ink on white. Seen where their crops are cut, they tell."""
    from blackcat.vision.colour import Printed
    from blackcat.vision.image_io import Photo
    from blackcat.vision.reader import printed_in_crops

    def photo_of(paper: int, ink: int) -> tuple[Photo, list[IndexRead]]:
        picture = np.full((3000, 4000, 3), 60, np.uint8)
        indices = []
        for n in range(6):
            x, y = 400 + 300 * n, 1500
            picture[y : y + 40, x : x + 20] = paper
            picture[y : y + 12, x : x + 20] = ink  # a glyph's share of its box
            card = Card.parse("QS")
            box = (float(x), float(y), float(x + 20), float(y + 40))
            indices.append(IndexRead(box, 0.9, (Guess(card, 0.99),)))
        return Photo.from_array(picture), indices

    assert printed_in_crops(*photo_of(paper=20, ink=240)) is Printed.LIGHT_ON_DARK
    assert printed_in_crops(*photo_of(paper=240, ink=20)) is Printed.DARK_ON_LIGHT
    assert printed_in_crops(photo_of(20, 240)[0], []) is Printed.UNSURE


@pytest.mark.parametrize(
    ("in_bundled", "to_do"),
    [(True, "restore models/ from the repository"), (False, "leave --models out")],
)
def test_a_damaged_model_is_told_what_to_do_for_its_own_folder(
    tmp_path: Path, in_bundled: bool, to_do: str
) -> None:
    """A model damaged in a folder given with --models was told to restore models/ from the
    repository, a folder it never came from."""
    from blackcat.vision.onnx_models import UnreadableModelError
    from blackcat.vision.reader import damaged_models_told

    folder = MODELS_DIR if in_bundled else tmp_path
    with pytest.raises(ModelsMissingError) as raised, damaged_models_told():
        raise UnreadableModelError(folder / "suit_classifier.onnx")
    assert to_do in str(raised.value)
    assert str(folder / "suit_classifier.onnx") in str(raised.value)
