"""Colour constancy: a cast or dim light on white card faces is undone, a clean photo is left
alone, and a deck printed light on dark is read from the photo's negative."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from blackcat.vision.colour import NO_FIX, PixelFix, white_balance
from blackcat.vision.image_io import load_image

EXAMPLE = Path(__file__).parents[2] / "app" / "example.jpg"


def _table_with_a_card(cast: tuple[float, float, float]) -> np.ndarray:
    """A dark green table with a white card on it (a tenth of the picture), lit with `cast`."""
    picture = np.zeros((120, 160, 3), np.float32)
    picture[:] = (40, 90, 50)
    picture[40:80, 60:110] = (235, 235, 235)
    picture[50:60, 65:70] = (20, 20, 20)  # an index's ink
    return np.clip(picture * np.asarray(cast, np.float32), 0, 255).astype(np.uint8)


def test_a_clean_photo_is_left_alone() -> None:
    assert white_balance(_table_with_a_card((1.0, 1.0, 1.0))) == NO_FIX
    assert white_balance(load_image(EXAMPLE)) == NO_FIX


@pytest.mark.parametrize(
    "cast", [(1.0, 0.75, 0.45), (0.7, 1.0, 0.75), (0.8, 0.85, 1.0), (0.45, 0.4, 0.35)]
)
def test_a_cast_or_dim_light_on_the_cards_is_undone(cast: tuple[float, float, float]) -> None:
    lit = _table_with_a_card(cast)
    fixed = white_balance(lit).apply(lit)
    card = fixed[45:75, 75:105].reshape(-1, 3).astype(float).mean(axis=0)
    assert card.max() - card.min() < 12  # neutral again
    assert card.min() > 200  # and bright


def test_a_fix_scales_then_inverts() -> None:
    picture = np.array([[[100, 50, 200]]], np.uint8)
    assert PixelFix(gains=(2.0, 1.0, 1.5)).apply(picture).tolist() == [[[200, 50, 255]]]
    # one light ink (the default): the negative in grey, the brightest channel inverted
    assert PixelFix(negative=True).apply(picture).tolist() == [[[55, 55, 55]]]
    assert NO_FIX.apply(picture) is picture


def test_a_photo_brightened_or_recoloured_a_lot_is_noisy() -> None:
    from blackcat.vision.colour import NOISY_GAIN

    dim = white_balance(_table_with_a_card((0.35, 0.35, 0.35)))
    tungsten = white_balance(_table_with_a_card((1.0, 0.7, 0.45)))
    slight = white_balance(_table_with_a_card((0.95, 1.0, 0.93)))
    assert dim.noisy and max(dim.gains) > NOISY_GAIN
    assert tungsten.noisy
    assert not slight.noisy and max(slight.gains) <= NOISY_GAIN


def test_only_a_noisy_photos_picture_is_denoised_and_only_when_asked() -> None:
    speckled = np.full((30, 30, 3), 100, np.uint8)
    speckled[10, 10] = 255
    noisy = PixelFix(gains=(2.0, 2.0, 2.0), noisy=True)
    assert noisy.apply(speckled, denoise=True).max() == 200  # the hot pixel smoothed away
    assert noisy.apply(speckled).max() == 255  # crops: as they are, brightened
    assert PixelFix(gains=(2.0, 2.0, 2.0)).apply(speckled, denoise=True).max() == 255
    assert NO_FIX.apply(speckled, denoise=True) is speckled


def test_a_black_and_white_photo_is_colourless_and_its_suits_read_by_shape() -> None:
    from blackcat.vision.colour import is_colourless

    coloured = load_image(EXAMPLE)
    grey = np.repeat(coloured.mean(axis=2, keepdims=True).astype(np.uint8), 3, axis=2)
    assert is_colourless(grey) and not is_colourless(coloured)
    # black cards on a grey cloth in a warm light: a few coloured pixels still
    black_cards = _table_with_a_card((1.0, 0.97, 0.93))
    black_cards[:] = black_cards.mean(axis=2, keepdims=True)
    black_cards[::9, ::9] = (120, 110, 100)
    assert not is_colourless(black_cards)
    assert PixelFix(colourless=True).suits_by_shape and not NO_FIX.suits_by_shape
    from blackcat.vision.colour import fix_for

    assert fix_for(grey) == replace(white_balance(grey), colourless=True)
    assert fix_for(coloured) == white_balance(coloured)


def _index(paper: int, ink: int) -> np.ndarray:
    """A 20x14 index box: paper with a rank and a pip of ink covering about a third of it."""
    box = np.full((20, 14, 3), paper, np.uint8)
    box[2:10, 3:11] = ink
    box[12:18, 4:10] = ink
    return box


def test_light_ink_on_dark_paper_is_told_from_dark_ink_on_light_paper() -> None:
    from blackcat.vision.colour import light_on_dark

    picture = np.concatenate([_index(235, 30), _index(25, 200)], axis=1)
    light_face, dark_face = (0, 0, 14, 20), (14, 0, 28, 20)
    assert not light_on_dark(picture, [light_face, light_face, dark_face])
    assert light_on_dark(picture, [dark_face, dark_face, light_face])
    assert not light_on_dark(picture, [])


def dark_faced(image: np.ndarray) -> np.ndarray:
    """The photo with its lightness inverted and its colours kept: black faces, the black ink
    white and the red ink red, as a dark-faced deck prints them."""
    import cv2

    hls = cv2.cvtColor(image, cv2.COLOR_RGB2HLS)
    hls[..., 1] = 255 - hls[..., 1]
    return cv2.cvtColor(hls, cv2.COLOR_HLS2RGB)


@pytest.mark.parametrize(
    "deck", [dark_faced, lambda image: 255 - image], ids=["white and red ink", "negative"]
)
def test_a_deck_printed_light_on_dark_is_read_from_the_negative(deck) -> None:
    """The example photo as a dark-faced deck (and as its plain negative, whose red suits are
    printed cyan: a deck's coloured ink of two is its red suits')."""
    from blackcat.vision.reader import CardReader

    truth = json.loads(EXAMPLE.with_suffix(".json").read_text())
    read = CardReader.load().read(deck(load_image(EXAMPLE)))
    assert [[card.card.code for card in pile] for pile in read.piles] == truth["piles"]


def test_a_crop_printed_in_one_ink_keeps_its_lightness_and_drops_its_colour() -> None:
    from blackcat.vision.colour import BLACK_INK, RED_INK, ink_tinted

    paper, red_ink, black_ink = (250, 250, 250), (200, 20, 20), (20, 20, 20)
    crop = np.array([[paper, red_ink, black_ink]], np.uint8)
    in_black = ink_tinted(crop, BLACK_INK)
    assert in_black[0, 0].min() >= 248  # paper stays white
    assert len(set(in_black[0, 1])) == 1  # red ink now grey: its colour is gone
    assert in_black[0, 2].max() <= 25  # black ink stays black
    in_red = ink_tinted(crop, RED_INK)
    assert in_red[0, 2, 0] > 150 > in_red[0, 2, 1]  # full ink is red
    assert in_red[0, 0].min() >= 248


INKS = (
    (20, 20, 20),  # a black face
    (240, 240, 240),  # white ink
    (200, 160, 60),  # gold ink
    (190, 30, 40),  # red ink
    (40, 220, 215),  # cyan ink: a plain negative's red suits
)


def test_a_two_ink_negative_prints_the_plain_ink_black_and_the_coloured_ones_red() -> None:
    from blackcat.vision.colour import two_ink_negative

    out = two_ink_negative(np.array([INKS], np.uint8))
    face, plain, *coloured = (tuple(int(v) for v in pixel) for pixel in out[0])
    assert min(face) >= 230  # the dark face turns white
    assert max(plain) <= 20  # the plain ink black
    for ink in coloured:
        assert ink[0] > 150 and ink[1] == ink[2] < 80  # the coloured inks red


def test_a_one_ink_negative_prints_every_ink_black_on_white() -> None:
    from blackcat.vision.colour import one_ink_negative

    out = one_ink_negative(np.array([INKS], np.uint8))
    face, *inks = (tuple(int(v) for v in pixel) for pixel in out[0])
    assert min(face) >= 230 and len(set(face)) == 1  # the dark face turns white, in grey
    for ink in inks:  # white, gold, red or cyan: each dark, in grey
        assert max(ink) <= 70 and len(set(ink)) == 1


def test_a_red_ink_negative_prints_the_metal_inks_black_and_the_red_one_red() -> None:
    from blackcat.vision.colour import red_ink_negative

    out = red_ink_negative(np.array([INKS], np.uint8))
    face, white, gold, red, _ = (tuple(int(v) for v in pixel) for pixel in out[0])
    assert min(face) >= 230
    # a gold deck's spades and clubs stay dark, as black ink (red, they read as red suits)
    assert max(white) <= 20 and max(gold) <= 100
    assert red[0] > 150 and red[1] == red[2] < 80


def test_one_light_ink_is_told_from_two() -> None:
    from blackcat.vision.colour import Inks, light_inks

    def index(ink: tuple[int, int, int]) -> np.ndarray:
        box = np.full((20, 14, 3), 25, np.uint8)  # a black face
        box[4:16, 4:10] = ink
        return box

    white, gold, red, cyan = (235, 235, 235), (210, 170, 70), (200, 40, 40), (40, 220, 215)
    boxes = [(14.0 * n, 0.0, 14.0 * (n + 1), 20.0) for n in range(4)]

    def photo(first: tuple[int, int, int], second: tuple[int, int, int]) -> np.ndarray:
        return np.concatenate([index(first), index(second)] * 2, axis=1)

    assert light_inks(photo(gold, gold), boxes) is Inks.ONE
    assert light_inks(photo(white, red), boxes) is Inks.RED
    assert light_inks(photo(gold, red), boxes) is Inks.RED  # as colourful, but red
    assert light_inks(photo(white, cyan), boxes) is Inks.TWO
    assert light_inks(photo(gold, gold), []) is Inks.ONE


def test_index_boxes_tell_light_ink_dark_ink_and_neither_surely() -> None:
    from blackcat.vision.colour import Printed, ink_share, light_on_dark, printed

    def surely_dark_on_light(picture: np.ndarray, boxes: list) -> bool:
        return printed(picture, boxes) is Printed.DARK_ON_LIGHT

    def boxes_of(paper: int, ink: int, ink_rows: int) -> np.ndarray:
        box = np.full((20, 10, 3), paper, np.uint8)
        box[:ink_rows] = ink
        return box

    box = [(0.0, 0.0, 10.0, 20.0)]
    dark_ink = boxes_of(240, 20, 6)  # 70% paper, brighter than the mean
    light_ink = boxes_of(20, 240, 6)  # 30% ink brighter than the mean
    unsure = boxes_of(240, 20, 10)  # half and half: face art as much as an index
    assert surely_dark_on_light(dark_ink, box) and not light_on_dark(dark_ink, box)
    assert light_on_dark(light_ink, box) and not surely_dark_on_light(light_ink, box)
    assert not light_on_dark(unsure, box) and not surely_dark_on_light(unsure, box)
    assert ink_share(dark_ink, []) is None


def test_a_crops_ink_shape_is_as_dark_whatever_its_inks_colour() -> None:
    from blackcat.vision.colour import ink_shape

    def crop(ink: tuple[int, int, int], paper: tuple[int, int, int]) -> np.ndarray:
        out = np.empty((40, 40, 3), np.uint8)
        out[:] = paper
        out[10:30, 15:25] = ink  # a suit's shape
        return out

    black = ink_shape(crop((20, 20, 20), (235, 235, 235)))
    for ink, paper in [((200, 30, 30), (235, 235, 235)), ((60, 140, 40), (180, 170, 120))]:
        assert np.array_equal(ink_shape(crop(ink, paper)), black)  # red; green under a cast
    assert black[20, 20].tolist() == [0, 0, 0] and black[0, 0].tolist() == [255, 255, 255]
    flat = np.full((20, 20, 3), 128, np.uint8)
    assert np.array_equal(ink_shape(flat), flat)  # no ink to stretch: left as it is


REAL_PHOTOS = Path(__file__).resolve().parents[2].parent / "shared" / "real-photos"
FIVE_DIAMONDS = "IMG_20220316_165339_jpg.rf.93c390c260c173e43a545394f8702027.jpg"


@pytest.mark.skipif(
    not (REAL_PHOTOS / "rf100-poker-cards").is_dir(),
    reason="needs ../shared/real-photos/rf100-poker-cards beside the clone (CI has it)",
)
@pytest.mark.parametrize("ink", ["gold", "white"])  # the black suits' ink; the red one kept
def test_a_real_photo_of_red_cards_printed_on_black_is_read(
    ink: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real photo of five diamonds, its cards made a dark-faced deck's (`dark_deck`): their red
    ink, the only one the photo shows, is read as a deck's one ink. The plain negative showed
    it to the detector in cyan, and it found two or three of the five; in grey it finds all."""
    import importlib.util

    import cv2

    from blackcat.vision.reader import CardReader

    script = Path(__file__).resolve().parents[2] / "workshop" / "real_faults.py"
    spec = importlib.util.spec_from_file_location("real_faults", script)
    assert spec is not None and spec.loader is not None
    real_faults = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "real_faults", real_faults)  # its dataclasses look it up
    spec.loader.exec_module(real_faults)
    photos = REAL_PHOTOS / "rf100-poker-cards"
    labels = json.loads((photos / "labels.json").read_text())[FIVE_DIAMONDS]
    photo = cv2.imread(str(photos / "images" / FIVE_DIAMONDS), cv2.IMREAD_COLOR)
    boxes = [tuple(label["box"]) for label in labels]
    dark = real_faults.dark_deck(photo, boxes, ink, keep_red=True)
    read = CardReader.load().read(cv2.cvtColor(dark, cv2.COLOR_BGR2RGB))
    cards = {card.card.code for pile in read.piles for card in pile}
    assert cards == {"9D", "10D", "JD", "QD", "KD"}
