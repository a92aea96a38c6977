"""Cards at their own angles: the tilt measured round an index, the crop turned square."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from blackcat.vision.deskew import card_angle, turned_crop, upright_crop
from blackcat.vision.reader import square_crop

CENTRE = (200.0, 200.0)


def card_on_table() -> np.ndarray:
    """A white card with a red "7" in its top-left corner, on a dark table."""
    picture = np.full((400, 400, 3), 60, dtype=np.uint8)
    cv2.rectangle(picture, (150, 120), (280, 300), (250, 250, 250), -1)
    cv2.putText(picture, "7", (158, 165), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (200, 0, 0), 3)
    return picture


def tilted(picture: np.ndarray, degrees: float) -> tuple[np.ndarray, np.ndarray]:
    """The picture turned anticlockwise about its centre, and where the glyph's centre went."""
    turn = cv2.getRotationMatrix2D(CENTRE, degrees, 1.0)
    turned = cv2.warpAffine(picture, turn, (400, 400), borderMode=cv2.BORDER_REPLICATE)
    return turned, turn @ np.array([171.0, 148.0, 1.0])


@pytest.mark.parametrize("degrees", [-35.0, -20.0, 0.0, 25.0, 40.0])
def test_a_cards_tilt_is_measured_round_its_index(degrees: float) -> None:
    picture, (x, y) = tilted(card_on_table(), degrees)
    patch = picture[round(y) - 50 : round(y) + 50, round(x) - 50 : round(x) + 50]
    assert card_angle(patch) == pytest.approx(degrees, abs=6.0)


def test_noise_has_no_tilt() -> None:
    noise = np.random.default_rng(0).integers(0, 256, (80, 80, 3), dtype=np.uint8)
    assert card_angle(noise) is None


def glyph_box(x: float, y: float, degrees: float) -> tuple[float, float, float, float]:
    """The axis-aligned box of the 22 x 34 glyph turned by `degrees` about its centre."""
    radians = np.radians(abs(degrees))
    width = 22 * np.cos(radians) + 34 * np.sin(radians)
    height = 22 * np.sin(radians) + 34 * np.cos(radians)
    return x - width / 2, y - height / 2, x + width / 2, y + height / 2


def test_a_card_standing_square_keeps_its_crop() -> None:
    assert upright_crop(card_on_table(), glyph_box(171, 148, 0), 0.15) is None


def test_a_tilted_cards_index_is_cut_as_if_it_stood_square() -> None:
    upright = square_crop(card_on_table(), glyph_box(171, 148, 0), 0.15)
    picture, (x, y) = tilted(card_on_table(), 30.0)
    turned = upright_crop(picture, glyph_box(x, y, 30.0), 0.15)
    assert turned is not None
    as_cut = square_crop(picture, glyph_box(x, y, 30.0), 0.15)
    size = upright.shape[1], upright.shape[0]

    def likeness(crop: np.ndarray) -> float:
        grey = cv2.cvtColor(cv2.resize(crop, size), cv2.COLOR_RGB2GRAY).astype(float)
        return float(
            np.corrcoef(grey.ravel(), cv2.cvtColor(upright, cv2.COLOR_RGB2GRAY).ravel())[0, 1]
        )

    assert likeness(turned) > 0.7
    assert likeness(turned) > likeness(as_cut) + 0.2


def test_an_index_turned_back_by_its_tilt_is_cut_as_if_it_stood_square() -> None:
    upright = cv2.cvtColor(
        square_crop(card_on_table(), glyph_box(171, 148, 0), 0.15), cv2.COLOR_RGB2GRAY
    )
    picture, (x, y) = tilted(card_on_table(), 30.0)
    box = glyph_box(x, y, 30.0)
    size = upright.shape[1], upright.shape[0]

    def likeness(tilt: float) -> float:
        crop = cv2.resize(turned_crop(picture, box, 0.15, tilt), size)
        grey = cv2.cvtColor(crop, cv2.COLOR_RGB2GRAY).astype(float)
        return float(np.corrcoef(grey.ravel(), upright.ravel())[0, 1])

    assert likeness(30.0) > 0.7
    assert likeness(30.0) > max(likeness(0.0), likeness(-30.0)) + 0.2


def test_a_crop_is_turned_by_the_tilt_its_measure_tells() -> None:
    picture, (x, y) = tilted(card_on_table(), 30.0)
    box = glyph_box(x, y, 30.0)
    told = upright_crop(picture, box, 0.15, measure=lambda patch: 30.0)
    assert told is not None
    assert np.array_equal(told, turned_crop(picture, box, 0.15, 30.0))
    assert upright_crop(picture, box, 0.15, measure=lambda patch: None) is None
    assert upright_crop(picture, box, 0.15, measure=lambda patch: 5.0) is None  # square enough
